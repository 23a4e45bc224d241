import type { Meta } from './types.ts';

/**
 * Metadata texts and their parsed objects, shared by every membership instance in the process. A
 * speaker holds one entry per node, but the emulator runs 2000 speakers in one process: without sharing,
 * their views held 4 million copies of the same few thousand texts and objects (gigabytes of heap).
 * Parsed objects are frozen, so sharing them is safe.
 */
const known = new Map<string, { text: string; meta: Meta }>();
/** Far above any cluster's node count; a bound for metadata that changes all the time. */
const LIMIT = 50_000;

export function sharedMeta(text: string): { text: string; meta: Meta } {
  let entry = known.get(text);
  if (entry === undefined) {
    if (known.size >= LIMIT) known.clear();
    // Decoded text was checked to be a JSON object, our own was produced by JSON.stringify.
    entry = { text, meta: Object.freeze(JSON.parse(text) as Record<string, unknown>) };
    known.set(text, entry);
  }
  return entry;
}
