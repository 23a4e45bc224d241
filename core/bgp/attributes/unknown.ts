import { AttrFlag, MEANINGFUL_FLAGS, type RawAttribute } from './attribute.ts';

// RFC 4271 §5: an unrecognised optional transitive attribute is kept and passed on with the Partial
// bit set; an unrecognised optional non-transitive one is quietly ignored.

export interface UnknownAttribute {
  /** Optional, Transitive and Partial bits as received (the Extended Length bit is framing only). */
  flags: number;
  type: number;
  value: Uint8Array;
}

/** The attribute to keep, or undefined when RFC 4271 §5 says to ignore it. */
export function decodeUnknown(a: RawAttribute): UnknownAttribute | undefined {
  if ((a.flags & AttrFlag.transitive) === 0) return undefined;
  return { flags: a.flags & MEANINGFUL_FLAGS, type: a.type, value: a.value.slice() };
}

/** RFC 4271 §5: passing on an optional transitive attribute we do not recognise sets its Partial bit. */
export function flagsToSend(u: UnknownAttribute): number {
  const passedOn = (u.flags & AttrFlag.optional) !== 0 && (u.flags & AttrFlag.transitive) !== 0;
  return (u.flags & MEANINGFUL_FLAGS) | (passedOn ? AttrFlag.partial : 0);
}
