import { MembershipEncodeError } from '../errors.ts';
import { utf8Length } from '../hash.ts';
import { BUCKETS } from '../ring.ts';
import { Malformed, Reader, type WireError, Writer, checkInt, checkName } from './bytes.ts';
import { type Update, readUpdate, updateByteLength, writeUpdate } from './update.ts';

// Membership datagrams. Every one starts with the same header:
//
//   magic "LM"(2) version(1) kind(1) flags(1) from(1+n) incarnation(4)
//
// `from` and `incarnation` are the sender's name and current incarnation: any datagram but `leave` is
// proof that its sender runs. Bodies by kind:
//   heartbeat, gossip, leave: count(1) updates
//   sync:   flags bit 0 = reply wanted; bucketCount(1) buckets(1 each) count(1) updates
//   digest: flags bit 0 = the sender just started (answer even when nothing differs); 64 × hash(4)
//   ping, ping-req, ack: seq(4) target(1+n)

export const MAGIC_0 = 0x4c; // 'L'
export const MAGIC_1 = 0x4d; // 'M'
export const VERSION = 1;

interface Header {
  readonly from: string;
  readonly incarnation: number;
}

export type UpdatesMessage = Header & {
  /** heartbeat: the periodic proof of life to our monitors; gossip: a push; leave: our goodbye. */
  readonly kind: 'heartbeat' | 'gossip' | 'leave';
  readonly updates: readonly Update[];
};

export type SyncMessage = Header & {
  readonly kind: 'sync';
  /** The receiver should answer with whatever it knows better about these entries and buckets. */
  readonly reply: boolean;
  /** Digest buckets this datagram carries whole (every sendable entry of the bucket is in `updates`). */
  readonly buckets: readonly number[];
  readonly updates: readonly Update[];
};

export type DigestMessage = Header & {
  readonly kind: 'digest';
  readonly join: boolean;
  /** One order-independent hash per bucket of the sender's table (BUCKETS of them). */
  readonly hashes: Uint32Array;
};

export type ProbeMessage = Header & {
  /** ping: are you there; ping-req: please ping `target` for me; ack: `target` answered ping `seq`. */
  readonly kind: 'ping' | 'ping-req' | 'ack';
  readonly seq: number;
  readonly target: string;
};

export type Message = UpdatesMessage | SyncMessage | DigestMessage | ProbeMessage;
export type MessageKind = Message['kind'];

const KINDS: readonly MessageKind[] = [
  'heartbeat',
  'gossip',
  'leave',
  'digest',
  'sync',
  'ping',
  'ping-req',
  'ack',
];
const KIND_CODES = new Map(KINDS.map((k, i) => [k, i + 1]));

export type DecodeResult = { ok: true; message: Message } | { ok: false; error: WireError };

/** Bytes of the header for a sender named `from`. */
export function headerByteLength(from: string): number {
  return 2 + 1 + 1 + 1 + 1 + utf8Length(from) + 4;
}

/** Bytes a heartbeat, gossip, leave or sync body takes for `updates` (sync: plus its bucket list). */
export function updatesByteLength(updates: readonly Update[]): number {
  let n = 1;
  for (const u of updates) n += updateByteLength(u);
  return n;
}

export function messageByteLength(m: Message): number {
  const header = headerByteLength(m.from);
  switch (m.kind) {
    case 'heartbeat':
    case 'gossip':
    case 'leave':
      return header + updatesByteLength(m.updates);
    case 'sync':
      return header + 1 + m.buckets.length + updatesByteLength(m.updates);
    case 'digest':
      return header + 4 * BUCKETS;
    case 'ping':
    case 'ping-req':
    case 'ack':
      return header + 4 + 1 + utf8Length(m.target);
  }
}

/** Encodes `m`; throws MembershipEncodeError for a message the decoder would refuse. */
export function encodeMessage(m: Message): Uint8Array {
  checkName(m.from, 'from');
  checkInt(m.incarnation, 0, 0xffff_ffff, 'incarnation');
  const w = new Writer(messageByteLength(m));
  w.u8(MAGIC_0);
  w.u8(MAGIC_1);
  w.u8(VERSION);
  w.u8(KIND_CODES.get(m.kind)!);
  w.u8((m.kind === 'sync' && m.reply) || (m.kind === 'digest' && m.join) ? 1 : 0);
  w.name(m.from);
  w.u32(m.incarnation);
  switch (m.kind) {
    case 'heartbeat':
    case 'gossip':
    case 'leave':
      writeUpdates(w, m.updates);
      break;
    case 'sync':
      checkInt(m.buckets.length, 0, BUCKETS, 'sync bucket count');
      w.u8(m.buckets.length);
      for (const b of m.buckets) {
        checkInt(b, 0, BUCKETS - 1, 'sync bucket');
        w.u8(b);
      }
      writeUpdates(w, m.updates);
      break;
    case 'digest':
      if (m.hashes.length !== BUCKETS)
        throw new MembershipEncodeError(`digest has ${m.hashes.length} hashes, not ${BUCKETS}`);
      for (const h of m.hashes) w.u32(h);
      break;
    case 'ping':
    case 'ping-req':
    case 'ack':
      checkInt(m.seq, 0, 0xffff_ffff, 'seq');
      checkName(m.target, 'target');
      w.u32(m.seq);
      w.name(m.target);
      break;
  }
  return w.finish();
}

function writeUpdates(w: Writer, updates: readonly Update[]): void {
  checkInt(updates.length, 0, 255, 'update count');
  w.u8(updates.length);
  for (const u of updates) writeUpdate(w, u);
}

/** Decodes one datagram. Never throws: garbage comes back as `{ ok: false, error }`. */
export function decodeMessage(bytes: Uint8Array): DecodeResult {
  try {
    return { ok: true, message: read(new Reader(bytes)) };
  } catch (e) {
    if (e instanceof Malformed) return { ok: false, error: e.error };
    throw e;
  }
}

function read(r: Reader): Message {
  if (r.u8('magic') !== MAGIC_0 || r.u8('magic') !== MAGIC_1) r.fail('bad-magic', 'not "LM"', 0);
  const version = r.u8('version');
  // A speaker of another version is a different protocol: refuse rather than guess at its fields.
  if (version !== VERSION) r.fail('bad-version', `version ${version}, this speaker speaks ${VERSION}`, 2);
  const kind = KINDS[r.u8('kind') - 1];
  if (kind === undefined) r.fail('bad-kind', 'unknown message kind', 3);
  const flags = r.u8('flags');
  const from = r.name('from');
  const incarnation = r.u32('incarnation');
  let m: Message;
  switch (kind) {
    case 'heartbeat':
    case 'gossip':
    case 'leave':
      m = { kind, from, incarnation, updates: readUpdates(r) };
      break;
    case 'sync': {
      const countAt = r.offset;
      const count = r.u8('bucket count');
      if (count > BUCKETS) r.fail('bad-bucket', `${count} buckets > ${BUCKETS}`, countAt);
      const buckets: number[] = [];
      for (let i = 0; i < count; i++) {
        const at = r.offset;
        const b = r.u8('bucket');
        if (b >= BUCKETS) r.fail('bad-bucket', `bucket ${b} ≥ ${BUCKETS}`, at);
        buckets.push(b);
      }
      m = { kind, from, incarnation, reply: (flags & 1) !== 0, buckets, updates: readUpdates(r) };
      break;
    }
    case 'digest': {
      const hashes = new Uint32Array(BUCKETS);
      for (let i = 0; i < BUCKETS; i++) hashes[i] = r.u32('digest hash');
      m = { kind, from, incarnation, join: (flags & 1) !== 0, hashes };
      break;
    }
    case 'ping':
    case 'ping-req':
    case 'ack':
      m = { kind, from, incarnation, seq: r.u32('seq'), target: r.name('target') };
      break;
  }
  r.end();
  return m;
}

function readUpdates(r: Reader): Update[] {
  const count = r.u8('update count');
  const updates: Update[] = [];
  for (let i = 0; i < count; i++) updates.push(readUpdate(r));
  return updates;
}
