import type { FieldError } from './status.ts';

/**
 * How kube-apiserver validates metadata.name, per type: most names are DNS subdomains, namespaces are
 * DNS labels, services DNS-1035 labels (they become DNS names), RBAC objects path segments (they may
 * hold ':' as in `metallb-system:controller`).
 */
export type NameRule = 'dns-subdomain' | 'dns-label' | 'dns-1035-label' | 'path-segment';

const label = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

/** The DNS rules: longest name, pattern, and upstream's explanation when a name breaks them. */
const dnsRules = {
  'dns-subdomain': {
    max: 253,
    pattern: new RegExp(`^${label}(\\.${label})*$`),
    why:
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
      "and must start and end with an alphanumeric character (e.g. 'example.com')",
  },
  'dns-label': {
    max: 63,
    pattern: new RegExp(`^${label}$`),
    why:
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', " +
      "and must start and end with an alphanumeric character (e.g. 'my-name')",
  },
  'dns-1035-label': {
    max: 63,
    pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
    why:
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
      "alphabetic character, and end with an alphanumeric character (e.g. 'my-name')",
  },
};

/** The field errors for a name under a rule (none when it is valid); upstream's wording. */
export function validateName(name: string, rule: NameRule): FieldError[] {
  const invalid = (why: string): FieldError[] => [
    { field: 'metadata.name', type: 'FieldValueInvalid', message: `Invalid value: "${name}": ${why}` },
  ];
  if (rule === 'path-segment') {
    if (name === '.' || name === '..') return invalid(`may not be '${name}'`);
    for (const bad of ['/', '%']) if (name.includes(bad)) return invalid(`may not contain '${bad}'`);
    return [];
  }
  const { max, pattern, why } = dnsRules[rule];
  if (name.length > max) return invalid(`must be no more than ${max} characters`);
  return pattern.test(name) ? [] : invalid(why);
}

/** Upstream's generateName suffix: five characters from an alphabet without vowels or look-alikes. */
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function generateName(prefix: string, random: () => number): string {
  // Upstream trims the prefix so the result fits in 63 characters.
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += suffixAlphabet[Math.floor(random() * suffixAlphabet.length)];
  return prefix.slice(0, 58) + suffix;
}
