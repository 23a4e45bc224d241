/** metallb.io/v1beta1 L2Advertisement. */
import type { LabelSelector } from '../cluster/label-selector.ts';
import type { IssueSink } from './issues.ts';
import { labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { PreferredNodeSelector } from './model.ts';
import type { ParsedOf } from './parsed.ts';
import { checkNoDuplicates, int, list, object, str, type Decoder } from './schema.ts';

/**
 * One label selector, checked as every other selector is. labels.ts exposes the list decoder only, so the
 * selector is decoded as a list of one and its issues are reported at `path` rather than `path[0]`.
 */
const labelSelector: Decoder<LabelSelector> = (value, path, log) => {
  const item = `${path}[0]`;
  const unindexed = (p: string) => (p.startsWith(item) ? path + p.slice(item.length) : p);
  const sink: IssueSink = {
    error: (p, message) => log.error(unindexed(p), message),
    warn: (p, message) => log.warn(unindexed(p), message),
    errorCount: () => log.errorCount(),
  };
  return labelSelectorList([value], path, sink)?.[0];
};

// MetalLB's PreferredNodeSelector (design "Preferred Node Selection for L2 Mode"): weight is required and
// bounded 1..100 by the CRD, as in Kubernetes' PreferredSchedulingTerm; preference is required too.
const preferredTerm = object({ weight: int(1, 100), preference: labelSelector }, ['weight', 'preference']);

const preferredNodeSelector: Decoder<PreferredNodeSelector> = (value, path, log) => {
  const term = preferredTerm(value, path, log);
  if (term?.weight === undefined || term.preference === undefined) return undefined;
  return { weight: term.weight, preference: term.preference };
};

const spec = object({
  ipAddressPools: list(str),
  ipAddressPoolSelectors: labelSelectorList,
  nodeSelectors: labelSelectorList,
  interfaces: list(str),
  preferredNodeSelectors: list(preferredNodeSelector),
});

export function parseL2Advertisement(input: DocumentInput): ParsedOf<'L2Advertisement'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec });
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
