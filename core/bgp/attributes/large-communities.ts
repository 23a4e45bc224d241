import { checkUint, UINT32_MAX, Writer } from '../messages/bytes.ts';
import { lengthError, type RawAttribute, u32At } from './attribute.ts';

// RFC 8092 §2 LARGE_COMMUNITY, type 32, optional transitive: a list of
//   Global Administrator (4) | Local Data Part 1 (4) | Local Data Part 2 (4)

export const ATTR_LARGE_COMMUNITIES = 32;

export interface LargeCommunity {
  globalAdmin: number;
  localData1: number;
  localData2: number;
}

function key(c: LargeCommunity): string {
  return `${c.globalAdmin}:${c.localData1}:${c.localData2}`;
}

export function decodeLargeCommunities(a: RawAttribute): LargeCommunity[] {
  // RFC 8092 §6: a length that is not a non-zero multiple of 12 → treat-as-withdraw.
  if (a.value.length === 0 || a.value.length % 12 !== 0) {
    throw lengthError(a, 'treat-as-withdraw', 'a non-zero multiple of 12');
  }
  const seen = new Set<string>();
  const out: LargeCommunity[] = [];
  for (let at = 0; at < a.value.length; at += 12) {
    const c = {
      globalAdmin: u32At(a.value, at),
      localData1: u32At(a.value, at + 4),
      localData2: u32At(a.value, at + 8),
    };
    // RFC 8092 §2: duplicates are not an error; the receiver removes them.
    if (seen.has(key(c))) continue;
    seen.add(key(c));
    out.push(c);
  }
  return out;
}

export function encodeLargeCommunities(cs: readonly LargeCommunity[]): Uint8Array {
  const w = new Writer();
  const seen = new Set<string>();
  for (const c of cs) {
    // RFC 8092 §2: duplicate values MUST NOT be sent.
    if (seen.has(key(c))) continue;
    seen.add(key(c));
    checkUint(c.globalAdmin, UINT32_MAX, 'large community global administrator');
    checkUint(c.localData1, UINT32_MAX, 'large community local data part 1');
    checkUint(c.localData2, UINT32_MAX, 'large community local data part 2');
    w.u32(c.globalAdmin).u32(c.localData1).u32(c.localData2);
  }
  return w.finish();
}
