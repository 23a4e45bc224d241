/** metallb.io/v1beta1 L2Advertisement. */
import { labelSelector, labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { PreferredNodeSelector } from './model.ts';
import type { ParsedOf } from './parsed.ts';
import { checkNoDuplicates, checkedLater, described, int, list, object, str } from './schema.ts';

// MetalLB's PreferredNodeSelector (design "Preferred Node Selection for L2 Mode"): weight is required and
// bounded 1..100 by the CRD, as in Kubernetes' PreferredSchedulingTerm; preference is required too.
const preferredTerm = object({ weight: int(1, 100), preference: labelSelector }, ['weight', 'preference']);

const preferredNodeSelector = described<PreferredNodeSelector>(preferredTerm.schema, (value, path, log) => {
  const term = preferredTerm(value, path, log);
  if (term?.weight === undefined || term.preference === undefined) return undefined;
  return { weight: term.weight, preference: term.preference };
});

export const l2AdvertisementSpec = object({
  ipAddressPools: checkedLater(list(str), { 'x-kubernetes-list-type': 'set' }),
  ipAddressPoolSelectors: labelSelectorList,
  nodeSelectors: labelSelectorList,
  interfaces: list(str),
  preferredNodeSelectors: list(preferredNodeSelector),
});

export function parseL2Advertisement(input: DocumentInput): ParsedOf<'L2Advertisement'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec: l2AdvertisementSpec });
  if (doc === undefined) return undefined;
  const s = doc.fields.spec ?? {};
  if (log.errorCount() !== before) return undefined;
  // Repeats reject the configuration but leave the advertisement usable for the checks that follow.
  checkNoDuplicates(s.ipAddressPools ?? [], 'spec.ipAddressPools', 'pool', log);
  return {
    kind: 'L2Advertisement',
    value: {
      meta: doc.meta,
      ipAddressPools: s.ipAddressPools ?? [],
      ipAddressPoolSelectors: s.ipAddressPoolSelectors ?? [],
      nodeSelectors: s.nodeSelectors ?? [],
      interfaces: s.interfaces ?? [],
      preferredNodeSelectors: s.preferredNodeSelectors ?? [],
    },
  };
}
