import { MembershipMetaError } from './errors.ts';
import { utf8Length } from './hash.ts';
import type { Meta } from './types.ts';
import { MAX_META_BYTES } from './wire/index.ts';

/**
 * The metadata of an entry without any: one frozen object for every such entry, so that the elections'
 * caches keyed by metadata objects stay hot.
 */
export const EMPTY_META: Meta = Object.freeze({});

/** Whether `meta` has no keys, without making a list of them. */
export function isEmptyMeta(meta: Meta): boolean {
  for (const _ in meta) return false;
  return true;
}

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
