import { textHash } from './hash.ts';
import type { Meta } from './types.ts';

/**
 * Metadata texts and their parsed objects, shared by every membership instance in the process. A
 * speaker holds one entry per node, but the emulator runs 2000 speakers in one process: without sharing,
 * their views held 4 million copies of the same few thousand texts and objects (gigabytes of heap).
 * Parsed objects are frozen, so sharing them is safe. The text's digest hash is kept too: each of those
 * views hashes every node's metadata once (4 million hashes at 2000 nodes, 4% of the run).
 */
interface SharedMeta {
  readonly text: string;
  readonly meta: Meta;
  /** textHash(text). */
  readonly hash: number;
}

const known = new Map<string, SharedMeta>();
/** Far above any cluster's node count; a bound for metadata that changes all the time. */
const LIMIT = 50_000;

export function sharedMeta(text: string): SharedMeta {
  const entry = metaObject(text);
  // Decoded text was checked by metaObject already, our own was produced by JSON.stringify.
  if (entry === undefined) throw new TypeError(`metadata is not a JSON object: ${text}`);
  return entry;
}

/**
 * The shared entry for a metadata text, or undefined when it is not the JSON text of an object (what a
 * decoder refuses). A node's metadata arrives in every update about it, so each text is parsed once.
 */
export function metaObject(text: string): SharedMeta | undefined {
  let entry = known.get(text);
  if (entry !== undefined) return entry;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (known.size >= LIMIT) known.clear();
  entry = { text, meta: Object.freeze(value as Record<string, unknown>), hash: textHash(text) };
  known.set(text, entry);
  return entry;
}
