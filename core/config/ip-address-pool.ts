/** metallb.io/v1beta1 IPAddressPool. */
import { parsePoolAddress } from './addresses.ts';
import { labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { IPAddressPool, ServiceAllocation } from './model.ts';
import type { ParsedOf } from './parsed.ts';
import { poolAddressPattern } from './patterns.ts';
import { bool, checkNoDuplicates, checkedLater, int, list, object, str } from './schema.ts';

const serviceAllocation = object({
  priority: int(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  namespaces: checkedLater(list(str), { 'x-kubernetes-list-type': 'set' }),
  namespaceSelectors: labelSelectorList,
  serviceSelectors: labelSelectorList,
});

// Each address is parsed, and the list checked for entries, by parseIPAddressPool below.
const addresses = checkedLater(list(checkedLater(str, { pattern: poolAddressPattern })), { minItems: 1 });

export const ipAddressPoolSpec = object(
  { addresses, autoAssign: bool, avoidBuggyIPs: bool, serviceAllocation },
  ['addresses'],
);

export function parseIPAddressPool(input: DocumentInput): ParsedOf<'IPAddressPool'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec: ipAddressPoolSpec }, ['spec']);
  const s = doc?.fields.spec;
  if (doc === undefined || s === undefined || s.addresses === undefined || log.errorCount() !== before)
    return undefined;
  // From here on, problems reject the configuration but the pool's good entries still take part in the
  // checks across pools, so that one run reports every overlap.

  const addresses: IPAddressPool['addresses'] = [];
  if (s.addresses.length === 0) log.error('spec.addresses', 'a pool needs at least one CIDR or range');
  s.addresses.forEach((text, i) => {
    const parsed = parsePoolAddress(text);
    if (!parsed.ok) return log.error(`spec.addresses[${i}]`, parsed.message);
    if (parsed.masked !== undefined) {
      log.warn(
        `spec.addresses[${i}]`,
        `CIDR ${JSON.stringify(text)} has host bits set; the pool holds ${parsed.masked}`,
      );
    }
    addresses.push({ text, range: parsed.range });
  });

  const pool: IPAddressPool = {
    meta: doc.meta,
    addresses,
    autoAssign: s.autoAssign ?? true,
    avoidBuggyIPs: s.avoidBuggyIPs ?? false,
  };
  if (s.serviceAllocation !== undefined) {
    const a = s.serviceAllocation;
    checkNoDuplicates(a.namespaces ?? [], 'spec.serviceAllocation.namespaces', 'namespace', log);
    const allocation: ServiceAllocation = {
      namespaces: a.namespaces ?? [],
      namespaceSelectors: a.namespaceSelectors ?? [],
      serviceSelectors: a.serviceSelectors ?? [],
    };
    // The CRD's priority is an omitempty int: 0 cannot be told from "not set", and MetalLB treats it so.
    if (a.priority !== undefined && a.priority !== 0) allocation.priority = a.priority;
    pool.serviceAllocation = allocation;
  }
  return { kind: 'IPAddressPool', value: pool };
}
