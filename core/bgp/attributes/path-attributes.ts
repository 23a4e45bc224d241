import type { IpAddress } from '../../net/index.ts';
import { Writer } from '../messages/bytes.ts';
import type { CodecContext } from '../messages/context.ts';
import { BgpWireError, ErrorCode, type ErrorHandling, UpdateErrorSubcode } from '../wire-error.ts';
import { type Aggregator, ATTR_AGGREGATOR, decodeAggregator, encodeAggregator } from './aggregator.ts';
import { AS_TRANS, type AsPathSegment, ATTR_AS_PATH, decodeAsPath, encodeSegments } from './as-path.ts';
import {
  ATTR_AS4_AGGREGATOR,
  decodeAs4Aggregator,
  encodeAs4Aggregator,
  needsAs4Aggregator,
} from './as4-aggregator.ts';
import { ATTR_AS4_PATH, decodeAs4Path, encodeAs4Path, mergeAs4Path, needsAs4Path } from './as4-path.ts';
import { ATTR_ATOMIC_AGGREGATE, decodeAtomicAggregate, encodeAtomicAggregate } from './atomic-aggregate.ts';
import { attributeError, AttrFlag, type RawAttribute, writeAttribute } from './attribute.ts';
import { ATTR_COMMUNITIES, decodeCommunities, encodeCommunities } from './communities.ts';
import {
  ATTR_LARGE_COMMUNITIES,
  decodeLargeCommunities,
  encodeLargeCommunities,
  type LargeCommunity,
} from './large-communities.ts';
import { ATTR_LOCAL_PREF, decodeLocalPref, encodeLocalPref } from './local-pref.ts';
import { ATTR_MED, decodeMed, encodeMed } from './med.ts';
import { ATTR_MP_REACH_NLRI, decodeMpReach, encodeMpReach, type MpReach } from './mp-reach.ts';
import { ATTR_MP_UNREACH_NLRI, decodeMpUnreach, encodeMpUnreach, type MpUnreach } from './mp-unreach.ts';
import { ATTR_NEXT_HOP, decodeNextHop, encodeNextHop } from './next-hop.ts';
import { ATTR_ORIGIN, decodeOrigin, encodeOrigin, type Origin } from './origin.ts';
import { decodeUnknown, flagsToSend, type UnknownAttribute } from './unknown.ts';

export interface PathAttributes {
  origin?: Origin;
  /** The full path: in a 2-octet session, AS_PATH merged with AS4_PATH (RFC 6793 §4.2.3). */
  asPath?: AsPathSegment[];
  nextHop?: IpAddress;
  med?: number;
  localPref?: number;
  atomicAggregate?: boolean;
  /** In a 2-octet session, AGGREGATOR merged with AS4_AGGREGATOR (RFC 6793 §4.2.3). */
  aggregator?: Aggregator;
  /** RFC 1997 32-bit values; an empty list is not sent (RFC 7606 §7.8 makes it malformed). */
  communities?: number[];
  /** RFC 8092; duplicates are dropped both ways, an empty list is not sent. */
  largeCommunities?: LargeCommunity[];
  mpReach?: MpReach;
  mpUnreach?: MpUnreach;
  /** Unrecognised optional transitive attributes, passed on with the Partial bit set (RFC 4271 §5). */
  unknown?: UnknownAttribute[];
}

const O = AttrFlag.optional;
const T = AttrFlag.transitive;

/**
 * RFC 4271 §5 / RFC 4760 / RFC 1997 / RFC 6793 / RFC 8092: each recognised attribute's Optional and
 * Transitive bits, and how a conflict is handled. RFC 7606 §3: a conflict makes the attribute
 * malformed and is handled by treat-as-withdraw unless the attribute's own rules say otherwise:
 * RFC 7606 §7.11 for the MP attributes (session reset), RFC 6793 §6 for AS4_PATH and AS4_AGGREGATOR
 * (attribute discard).
 */
const KNOWN: ReadonlyMap<number, { flags: number; onFlags: ErrorHandling }> = new Map([
  [ATTR_ORIGIN, { flags: T, onFlags: 'treat-as-withdraw' }],
  [ATTR_AS_PATH, { flags: T, onFlags: 'treat-as-withdraw' }],
  [ATTR_NEXT_HOP, { flags: T, onFlags: 'treat-as-withdraw' }],
  [ATTR_MED, { flags: O, onFlags: 'treat-as-withdraw' }],
  [ATTR_LOCAL_PREF, { flags: T, onFlags: 'treat-as-withdraw' }],
  [ATTR_ATOMIC_AGGREGATE, { flags: T, onFlags: 'treat-as-withdraw' }],
  [ATTR_AGGREGATOR, { flags: O | T, onFlags: 'treat-as-withdraw' }],
  [ATTR_COMMUNITIES, { flags: O | T, onFlags: 'treat-as-withdraw' }],
  [ATTR_MP_REACH_NLRI, { flags: O, onFlags: 'session-reset' }],
  [ATTR_MP_UNREACH_NLRI, { flags: O, onFlags: 'session-reset' }],
  [ATTR_AS4_PATH, { flags: O | T, onFlags: 'attribute-discard' }],
  [ATTR_AS4_AGGREGATOR, { flags: O | T, onFlags: 'attribute-discard' }],
  [ATTR_LARGE_COMMUNITIES, { flags: O | T, onFlags: 'treat-as-withdraw' }],
]);

/** An RFC 7606 error that keeps the session, with the attribute type it is about. */
export interface AttributeFault {
  type: number;
  error: BgpWireError;
}

export interface DecodedAttributes {
  attributes: PathAttributes;
  /** Treat-as-withdraw and attribute-discard errors, in the order found. */
  faults: AttributeFault[];
  /** Type codes that were present, malformed or not (for the missing-attribute check). */
  present: Set<number>;
}

/**
 * Decodes the Path Attributes field of an UPDATE. Throws the first session-reset error (RFC 7606 §3:
 * the strongest approach wins, and nothing is stronger); returns the weaker ones as faults.
 */
export function decodePathAttributes(field: Uint8Array, ctx: CodecContext): DecodedAttributes {
  const attributes: PathAttributes = {};
  const faults: AttributeFault[] = [];
  const present = new Set<number>();
  const asBytes = ctx.fourOctetAs ? 4 : 2;
  let as4Path: AsPathSegment[] | undefined;
  let as4Aggregator: Aggregator | undefined;

  let at = 0;
  while (at < field.length) {
    const flags = field[at]!;
    const headerBytes = flags & AttrFlag.extendedLength ? 4 : 3;
    const left = field.length - at;
    if (left < headerBytes) {
      // RFC 7606 §4: fewer octets left than an attribute header → the error is in the Total Path
      // Attribute Length: treat-as-withdraw, the NLRI is found through that length.
      faults.push({ type: 0, error: listError(`${left} octets left cannot hold an attribute header`) });
      break;
    }
    const type = field[at + 1]!;
    const length = headerBytes === 4 ? (field[at + 2]! << 8) | field[at + 3]! : field[at + 2]!;
    if (headerBytes + length > left) {
      const reason = `attribute ${type} of ${length} octets overruns the path attributes (${left - headerBytes} left)`;
      // RFC 7606 §4: the attribute overruns the field → treat-as-withdraw. But RFC 7606 §3: when the
      // overrunning attribute is MP_REACH/MP_UNREACH_NLRI its NLRI cannot be parsed, so the session resets.
      if (type === ATTR_MP_REACH_NLRI || type === ATTR_MP_UNREACH_NLRI) {
        throw new BgpWireError(
          reason,
          ErrorCode.updateMessage,
          UpdateErrorSubcode.malformedAttributeList,
          new Uint8Array(0),
          'session-reset',
        );
      }
      faults.push({ type, error: listError(reason) });
      break;
    }
    const a: RawAttribute = {
      flags,
      type,
      value: field.subarray(at + headerBytes, at + headerBytes + length),
      raw: field.subarray(at, at + headerBytes + length),
    };
    at += headerBytes + length;

    if (present.has(type)) {
      // RFC 7606 §3: MP_REACH_NLRI or MP_UNREACH_NLRI twice → Malformed Attribute List (session reset).
      if (type === ATTR_MP_REACH_NLRI || type === ATTR_MP_UNREACH_NLRI) {
        throw attributeError(
          a,
          UpdateErrorSubcode.malformedAttributeList,
          'session-reset',
          'appears twice',
          new Uint8Array(0),
        );
      }
      // RFC 7606 §3: any other attribute repeated → all but the first are discarded.
      faults.push({
        type,
        error: attributeError(
          a,
          UpdateErrorSubcode.malformedAttributeList,
          'attribute-discard',
          'repeated; only the first is used',
        ),
      });
      continue;
    }
    present.add(type);

    const known = KNOWN.get(type);
    if (known === undefined) {
      // RFC 4271 §6.3: an unrecognised well-known attribute → Unrecognized Well-known Attribute, Data =
      // the attribute. RFC 7606 does not soften this: session reset.
      if ((flags & AttrFlag.optional) === 0) {
        throw attributeError(
          a,
          UpdateErrorSubcode.unrecognizedWellKnownAttribute,
          'session-reset',
          'unrecognised well-known attribute',
        );
      }
      const kept = decodeUnknown(a);
      if (kept !== undefined) (attributes.unknown ??= []).push(kept);
      continue;
    }
    if ((flags & (O | T)) !== known.flags) {
      // RFC 4271 §6.3: flags that conflict with the type → Attribute Flags Error, Data = the attribute.
      const error = attributeError(
        a,
        UpdateErrorSubcode.attributeFlagsError,
        known.onFlags,
        `flags 0x${flags.toString(16)} conflict with the attribute type`,
      );
      if (error.handling === 'session-reset') throw error;
      faults.push({ type, error });
      continue;
    }
    // RFC 6793 §6: AS4_PATH and AS4_AGGREGATOR between two 4-octet speakers are discarded.
    if (ctx.fourOctetAs && (type === ATTR_AS4_PATH || type === ATTR_AS4_AGGREGATOR)) {
      faults.push({
        type,
        error: attributeError(
          a,
          UpdateErrorSubcode.optionalAttributeError,
          'attribute-discard',
          'not used between 4-octet AS speakers',
        ),
      });
      continue;
    }
    try {
      switch (type) {
        case ATTR_ORIGIN:
          attributes.origin = decodeOrigin(a);
          break;
        case ATTR_AS_PATH:
          attributes.asPath = decodeAsPath(a, asBytes);
          break;
        case ATTR_NEXT_HOP:
          attributes.nextHop = decodeNextHop(a);
          break;
        case ATTR_MED:
          attributes.med = decodeMed(a);
          break;
        case ATTR_LOCAL_PREF:
          attributes.localPref = decodeLocalPref(a);
          break;
        case ATTR_ATOMIC_AGGREGATE:
          attributes.atomicAggregate = decodeAtomicAggregate(a);
          break;
        case ATTR_AGGREGATOR:
          attributes.aggregator = decodeAggregator(a, asBytes);
          break;
        case ATTR_COMMUNITIES:
          attributes.communities = decodeCommunities(a);
          break;
        case ATTR_MP_REACH_NLRI:
          attributes.mpReach = decodeMpReach(a);
          break;
        case ATTR_MP_UNREACH_NLRI:
          attributes.mpUnreach = decodeMpUnreach(a);
          break;
        case ATTR_AS4_PATH:
          as4Path = decodeAs4Path(a);
          break;
        case ATTR_AS4_AGGREGATOR:
          as4Aggregator = decodeAs4Aggregator(a);
          break;
        case ATTR_LARGE_COMMUNITIES:
          attributes.largeCommunities = decodeLargeCommunities(a);
          break;
      }
    } catch (e) {
      if (!(e instanceof BgpWireError) || e.handling === 'session-reset') throw e;
      faults.push({ type, error: e });
    }
  }

  if (!ctx.fourOctetAs) mergeAs4(attributes, as4Path, as4Aggregator);
  return { attributes, faults, present };
}

/** RFC 6793 §4.2.3: a 4-octet speaker rebuilds what a 2-octet speaker could not carry. */
function mergeAs4(attributes: PathAttributes, as4Path?: AsPathSegment[], as4Aggregator?: Aggregator): void {
  // An AGGREGATOR naming a real AS (not AS_TRANS) means AS4_AGGREGATOR and AS4_PATH are stale: both
  // are ignored.
  if (attributes.aggregator !== undefined && attributes.aggregator.asn !== AS_TRANS) return;
  if (attributes.aggregator !== undefined && as4Aggregator !== undefined)
    attributes.aggregator = as4Aggregator;
  if (attributes.asPath !== undefined && as4Path !== undefined) {
    attributes.asPath = mergeAs4Path(attributes.asPath, as4Path);
  }
}

function listError(reason: string): BgpWireError {
  return new BgpWireError(
    reason,
    ErrorCode.updateMessage,
    UpdateErrorSubcode.malformedAttributeList,
    new Uint8Array(0),
    'treat-as-withdraw',
  );
}

interface Encoded {
  flags: number;
  type: number;
  value: Uint8Array;
}

/** The attributes in sending order: RFC 7606 §5.1 MP_REACH/MP_UNREACH first, then by type (RFC 4271 §5). */
function encodedList(a: PathAttributes, ctx: CodecContext): Encoded[] {
  const asBytes = ctx.fourOctetAs ? 4 : 2;
  const list: Encoded[] = [];
  const add = (type: number, value: Uint8Array) => list.push({ flags: KNOWN.get(type)!.flags, type, value });
  if (a.origin !== undefined) add(ATTR_ORIGIN, encodeOrigin(a.origin));
  if (a.asPath !== undefined) {
    add(ATTR_AS_PATH, encodeSegments(a.asPath, asBytes));
    // RFC 6793 §4.2.2: to a 2-octet speaker, a path with 4-octet AS numbers also goes in AS4_PATH.
    if (!ctx.fourOctetAs && needsAs4Path(a.asPath)) add(ATTR_AS4_PATH, encodeAs4Path(a.asPath));
  }
  if (a.nextHop !== undefined) add(ATTR_NEXT_HOP, encodeNextHop(a.nextHop));
  if (a.med !== undefined) add(ATTR_MED, encodeMed(a.med));
  if (a.localPref !== undefined) add(ATTR_LOCAL_PREF, encodeLocalPref(a.localPref));
  if (a.atomicAggregate === true) add(ATTR_ATOMIC_AGGREGATE, encodeAtomicAggregate());
  if (a.aggregator !== undefined) {
    add(ATTR_AGGREGATOR, encodeAggregator(a.aggregator, asBytes));
    // RFC 6793 §4.2.2: AGGREGATOR names AS_TRANS, AS4_AGGREGATOR the real AS.
    if (!ctx.fourOctetAs && needsAs4Aggregator(a.aggregator))
      add(ATTR_AS4_AGGREGATOR, encodeAs4Aggregator(a.aggregator));
  }
  if (a.communities !== undefined && a.communities.length > 0)
    add(ATTR_COMMUNITIES, encodeCommunities(a.communities));
  if (a.largeCommunities !== undefined && a.largeCommunities.length > 0) {
    add(ATTR_LARGE_COMMUNITIES, encodeLargeCommunities(a.largeCommunities));
  }
  for (const u of a.unknown ?? []) {
    if (KNOWN.has(u.type)) throw new Error(`attribute type ${u.type} is not unknown: use its own field`);
    if (list.some((e) => e.type === u.type))
      throw new Error(`unknown attribute type ${u.type} appears twice`);
    list.push({ flags: flagsToSend(u), type: u.type, value: u.value });
  }
  list.sort((x, y) => x.type - y.type);
  const mp: Encoded[] = [];
  if (a.mpReach !== undefined)
    mp.push({ flags: O, type: ATTR_MP_REACH_NLRI, value: encodeMpReach(a.mpReach) });
  if (a.mpUnreach !== undefined)
    mp.push({ flags: O, type: ATTR_MP_UNREACH_NLRI, value: encodeMpUnreach(a.mpUnreach) });
  return [...mp, ...list];
}

/** Encodes the Path Attributes field; throws a plain Error for values that cannot be sent. */
export function encodePathAttributes(a: PathAttributes, ctx: CodecContext): Uint8Array {
  const w = new Writer();
  for (const e of encodedList(a, ctx)) writeAttribute(w, e.flags, e.type, e.value);
  return w.finish();
}
