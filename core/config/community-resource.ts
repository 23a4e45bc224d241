/** metallb.io/v1beta1 Community: named aliases for community values, usable in BGPAdvertisements. */
import { parseCommunity } from './communities.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { CommunityAliases, ParsedOf } from './parsed.ts';
import { list, object, str } from './schema.ts';

const spec = object({ communities: list(object({ name: str, value: str }, ['name', 'value'])) });

export function parseCommunityResource(input: DocumentInput): ParsedOf<'Community'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec });
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
