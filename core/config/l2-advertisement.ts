/** metallb.io/v1beta1 L2Advertisement. */
import { labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { ParsedOf } from './parsed.ts';
import { checkNoDuplicates, list, object, str } from './schema.ts';

const spec = object({
  ipAddressPools: list(str),
  ipAddressPoolSelectors: labelSelectorList,
  nodeSelectors: labelSelectorList,
  interfaces: list(str),
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
    },
  };
}
