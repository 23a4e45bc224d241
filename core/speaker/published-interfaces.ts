import type { InterfacesByNode, NodeInterface } from '../l2/election/index.ts';
import type { Member, Meta } from '../membership/index.ts';
import { AddressParseError, Prefix } from '../net/index.ts';

/**
 * What each speaker publishes through membership about its network interfaces, so every speaker can
 * run the segment-aware election with the same facts: `{ interfaces: [{ name, prefixes: ["198.18.0.11/24"] }] }`.
 */
export function interfacesMeta(interfaces: readonly NodeInterface[]): Meta {
  return { interfaces: interfaces.map((i) => ({ name: i.name, prefixes: i.prefixes.map(String) })) };
}

/** Reads every member's published interfaces; anything malformed counts as no interfaces. */
export function interfacesByNode(members: readonly Member[]): InterfacesByNode {
  return new Map(members.map((m) => [m.name, readInterfaces(m.meta)]));
}

/** Membership shares one frozen Meta per distinct text, so each is read once, not once per election. */
const read = new WeakMap<Meta, NodeInterface[]>();

function readInterfaces(meta: Meta): NodeInterface[] {
  let out = read.get(meta);
  if (out === undefined) {
    out = parseInterfaces(meta);
    read.set(meta, out);
  }
  return out;
}

function parseInterfaces(meta: Meta): NodeInterface[] {
  const list = meta['interfaces'];
  if (!Array.isArray(list)) return [];
  const out: NodeInterface[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, prefixes } = item as { name?: unknown; prefixes?: unknown };
    if (typeof name !== 'string' || !Array.isArray(prefixes)) continue;
    out.push({ name, prefixes: prefixes.flatMap((p) => parsePrefix(p)) });
  }
  return out;
}

function parsePrefix(p: unknown): Prefix[] {
  if (typeof p !== 'string') return [];
  try {
    return [Prefix.parse(p)];
  } catch (err) {
    if (err instanceof AddressParseError) return [];
    throw err;
  }
}
