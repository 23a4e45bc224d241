import type { Prefix } from '../../net/index.ts';
import { attributeBytes } from '../attributes/attribute.ts';
import { encodePathAttributes, type PathAttributes } from '../attributes/path-attributes.ts';
import { encodeMpReach } from '../attributes/mp-reach.ts';
import { encodeMpUnreach } from '../attributes/mp-unreach.ts';
import type { CodecContext } from './context.ts';
import { HEADER_BYTES, maxMessageBytes } from './header.ts';
import { prefixBytes } from './nlri.ts';

/**
 * Octets an UPDATE with these attributes takes before any prefix is added: header, both length fields
 * and the attributes (with whatever prefixes `attributes.mpReach` / `mpUnreach` already hold). The MP
 * attributes are counted in their Extended Length form, so adding prefixes to them, to the withdrawn
 * routes or to the NLRI never costs more than `prefixBytes` each: prefixes fit while the sum of their
 * `prefixBytes` stays within `maxMessageBytes - updateOverheadBytes(attributes, ctx)`.
 */
export function updateOverheadBytes(attributes: PathAttributes, ctx: CodecContext): number {
  let bytes = HEADER_BYTES + 2 + 2 + encodePathAttributes(attributes, ctx).length;
  // An MP attribute that grows past 255 octets switches to a 2-octet length: count that octet now.
  const grow = (valueLength: number) => 4 + valueLength - attributeBytes(valueLength);
  if (attributes.mpReach !== undefined) bytes += grow(encodeMpReach(attributes.mpReach).length);
  if (attributes.mpUnreach !== undefined) bytes += grow(encodeMpUnreach(attributes.mpUnreach).length);
  return bytes;
}

/** Room left for prefixes (withdrawn, NLRI or inside the MP attributes) in an UPDATE with these attributes. */
export function prefixBudgetBytes(attributes: PathAttributes, ctx: CodecContext): number {
  return maxMessageBytes - updateOverheadBytes(attributes, ctx);
}

/** Total wire octets of a list of prefixes. */
export function prefixesBytes(prefixes: readonly Prefix[]): number {
  let n = 0;
  for (const p of prefixes) n += prefixBytes(p);
  return n;
}
