/**
 * Name rules of a topology. Node, segment and group names become namespace, container and bridge names
 * on the real backends, so they follow DNS labels (RFC 1123); interface names obey the kernel's
 * IFNAMSIZ (15 characters plus the terminating NUL).
 */
import { compareText } from '../../core/sort/compare-text.ts';

/** A DNS-1123 label: what node, segment, group, topology and namespace names must be. */
export const dnsLabelPattern = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** A DNS-1035 label (starts with a letter): what Kubernetes requires of Service names. */
export const serviceNamePattern = '^[a-z]([-a-z0-9]*[a-z0-9])?$';
/** Lower-case like the other names, plus '.' and '_' for VLAN and alias names ("eth0.100"). */
export const interfaceNamePattern = '^[a-z0-9]([-a-z0-9._]*[a-z0-9])?$';

export const maxLabelLength = 63;
export const maxInterfaceLength = 15;

const dnsLabelRe = new RegExp(dnsLabelPattern);
const serviceNameRe = new RegExp(serviceNamePattern);
const interfaceNameRe = new RegExp(interfaceNamePattern);

/** Why `name` is not a DNS label, or undefined when it is one. */
export function dnsLabelProblem(name: string): string | undefined {
  if (name.length > maxLabelLength)
    return `${JSON.stringify(name)} is longer than ${maxLabelLength} characters`;
  if (!dnsLabelRe.test(name)) {
    return `${JSON.stringify(name)} must be lower-case letters, digits and '-', starting and ending with a letter or digit`;
  }
  return undefined;
}

export function serviceNameProblem(name: string): string | undefined {
  if (name.length > maxLabelLength)
    return `${JSON.stringify(name)} is longer than ${maxLabelLength} characters`;
  if (!serviceNameRe.test(name)) {
    return `${JSON.stringify(name)} must be lower-case letters, digits and '-', starting with a letter and ending with a letter or digit`;
  }
  return undefined;
}

export function interfaceNameProblem(name: string): string | undefined {
  if (name.length > maxInterfaceLength) {
    return `interface name ${JSON.stringify(name)} is longer than ${maxInterfaceLength} characters (the kernel's limit)`;
  }
  if (!interfaceNameRe.test(name)) {
    return `interface name ${JSON.stringify(name)} must be lower-case letters, digits, '-', '.' and '_', starting and ending with a letter or digit`;
  }
  // The loopback exists in every namespace already; a link named after it could never be created.
  if (name === 'lo') return 'interface name "lo" is the loopback';
  return undefined;
}

/**
 * Orders names as people number them: n2 before n10. Plain string order would put n10 first and give
 * n1..n12 surprising addresses. Runs of digits compare by value, everything else character by character.
 */
export function naturalCompare(a: string, b: string): number {
  const chunks = /(\d+|\D+)/g;
  const xs = a.match(chunks) ?? [];
  const ys = b.match(chunks) ?? [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i] ?? '';
    const y = ys[i] ?? '';
    if (x === y) continue;
    const bothDigits = /^\d/.test(x) && /^\d/.test(y);
    if (bothDigits && BigInt(x) !== BigInt(y)) return BigInt(x) < BigInt(y) ? -1 : 1;
    // Equal values with different zero padding ("n01", "n1") still need a fixed order: plain string order.
    return x < y ? -1 : 1;
  }
  return xs.length - ys.length || compareText(a, b);
}
