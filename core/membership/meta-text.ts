import { MembershipMetaError } from './errors.ts';
import { utf8Length } from './hash.ts';
import type { Meta } from './types.ts';
import { MAX_META_BYTES } from './wire/index.ts';

/**
 * Metadata as it travels in alive claims: JSON text of an object, at most MAX_META_BYTES, and '' for
 * `{}` (which is what an entry without metadata holds). Throws MembershipMetaError for anything else.
 */
export function metaAsText(meta: Meta): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(meta);
  } catch (e) {
    throw new MembershipMetaError(`cannot be written as JSON: ${String(e)}`);
  }
  if (typeof text !== 'string' || typeof meta !== 'object' || meta === null || Array.isArray(meta))
    throw new MembershipMetaError('must be a JSON object');
  if (text === '{}') return '';
  const n = utf8Length(text);
  if (n > MAX_META_BYTES) throw new MembershipMetaError(`is ${n} bytes as JSON, at most ${MAX_META_BYTES}`);
  return text;
}
