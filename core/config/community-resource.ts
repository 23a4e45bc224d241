/** metallb.io/v1beta1 Community: named aliases for community values, usable in BGPAdvertisements. */
import { parseCommunity } from './communities.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { CommunityAliases, ParsedOf } from './parsed.ts';
import { communityPattern } from './patterns.ts';
import { checkedLater, list, object, str } from './schema.ts';

// Values are parsed below; a name defined twice is refused once every Community is known
// (checks/communities.ts), and the API server refuses it within one resource as a map key.
const alias = object({ name: str, value: checkedLater(str, { pattern: communityPattern }) }, [
  'name',
  'value',
]);
export const communitySpec = object({
  communities: checkedLater(list(alias), {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
  }),
});

export function parseCommunityResource(input: DocumentInput): ParsedOf<'Community'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec: communitySpec });
  if (doc === undefined) return undefined;
  const aliases: CommunityAliases['aliases'] = [];
  (doc.fields.spec?.communities ?? []).forEach(({ name, value }, index) => {
    if (name === undefined || value === undefined) return;
    const parsed = parseCommunity(value);
    if (!parsed.ok)
      return log.error(
        `spec.communities[${index}].value`,
        `community ${JSON.stringify(value)}: ${parsed.reason}`,
      );
    aliases.push({ name, community: parsed.community, index });
  });
  if (log.errorCount() !== before) return undefined;
  return { kind: 'Community', value: { meta: doc.meta, aliases } };
}
