import type { FieldError } from './status.ts';

/**
 * How kube-apiserver validates metadata.name, per type: most names are DNS subdomains, namespaces are
 * DNS labels, services DNS-1035 labels (they become DNS names), RBAC objects path segments (they may
 * hold ':' as in `metallb-system:controller`).
 */
export type NameRule = 'dns-subdomain' | 'dns-label' | 'dns-1035-label' | 'path-segment';

const label = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const subdomain = new RegExp(`^${label}(\\.${label})*$`);
const dnsLabel = new RegExp(`^${label}$`);
const dns1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** The field errors for a name under a rule (none when it is valid); upstream's wording. */
export function validateName(name: string, rule: NameRule): FieldError[] {
  const invalid = (why: string): FieldError[] => [
    { field: 'metadata.name', type: 'FieldValueInvalid', message: `Invalid value: "${name}": ${why}` },
  ];
  switch (rule) {
    case 'dns-subdomain':
      if (name.length > 253) return invalid('must be no more than 253 characters');
      return subdomain.test(name)
        ? []
        : invalid(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
              "and must start and end with an alphanumeric character (e.g. 'example.com')",
          );
    case 'dns-label':
      if (name.length > 63) return invalid('must be no more than 63 characters');
      return dnsLabel.test(name)
        ? []
        : invalid(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', " +
              "and must start and end with an alphanumeric character (e.g. 'my-name')",
          );
    case 'dns-1035-label':
      if (name.length > 63) return invalid('must be no more than 63 characters');
      return dns1035.test(name)
        ? []
        : invalid(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
              "alphabetic character, and end with an alphanumeric character (e.g. 'my-name')",
          );
    case 'path-segment':
      if (name === '.' || name === '..') return invalid(`may not be '${name}'`);
      for (const bad of ['/', '%']) if (name.includes(bad)) return invalid(`may not contain '${bad}'`);
      return [];
  }
}

/** Upstream's generateName suffix: five characters from an alphabet without vowels or look-alikes. */
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function generateName(prefix: string, random: () => number): string {
  // Upstream trims the prefix so the result fits in 63 characters.
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += suffixAlphabet[Math.floor(random() * suffixAlphabet.length)];
  return prefix.slice(0, 58) + suffix;
}
