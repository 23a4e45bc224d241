/** metallb.io/v1beta1 BGPAdvertisement. Communities are resolved later, once all Community aliases are known. */
import { labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { BGPAdvertisement } from './model.ts';
import type { ParsedOf } from './parsed.ts';
import { checkNoDuplicates, checkedLater, int, list, object, str } from './schema.ts';

/** Repeats are refused after decoding (checkNoDuplicates below); the API server refuses them as a set. */
const names = checkedLater(list(str), { 'x-kubernetes-list-type': 'set' });

export const bgpAdvertisementSpec = object({
  // The CRD sets Minimum=1; MetalLB's loader refuses more than 32 (128 for IPv6).
  aggregationLength: int(1, 32),
  aggregationLengthV6: int(0, 128),
  localPref: int(0, 4294967295),
  // An entry is a Community alias or a literal; only the webhook knows which aliases exist.
  communities: names,
  ipAddressPools: names,
  ipAddressPoolSelectors: labelSelectorList,
  nodeSelectors: labelSelectorList,
  peers: names,
});

export function parseBGPAdvertisement(input: DocumentInput): ParsedOf<'BGPAdvertisement'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec: bgpAdvertisementSpec });
  if (doc === undefined) return undefined;
  const s = doc.fields.spec ?? {};
  if (log.errorCount() !== before) return undefined;
  // Repeats reject the configuration but leave the advertisement usable for the checks that follow.
  checkNoDuplicates(s.ipAddressPools ?? [], 'spec.ipAddressPools', 'pool', log);
  checkNoDuplicates(s.communities ?? [], 'spec.communities', 'community', log);
  checkNoDuplicates(s.peers ?? [], 'spec.peers', 'peer', log);
  const adv: BGPAdvertisement = {
    meta: doc.meta,
    aggregationLength: s.aggregationLength ?? 32,
    aggregationLengthV6: s.aggregationLengthV6 ?? 128,
    communities: [],
    ipAddressPools: s.ipAddressPools ?? [],
    ipAddressPoolSelectors: s.ipAddressPoolSelectors ?? [],
    nodeSelectors: s.nodeSelectors ?? [],
    peers: s.peers ?? [],
  };
  if (s.localPref !== undefined) adv.localPref = s.localPref;
  return { kind: 'BGPAdvertisement', value: adv, communityTexts: s.communities ?? [] };
}
