import { describe, expect, it } from 'vitest';
import { MembershipEncodeError } from '../errors.ts';
import { BUCKETS } from '../ring.ts';
import { type Message, decodeMessage, encodeMessage, messageByteLength } from './index.ts';

const hb: Message = {
  kind: 'heartbeat',
  from: 'n1',
  incarnation: 7,
  updates: [
    { node: 'n2', state: 'alive', incarnation: 3, cause: 'meta', meta: '{"ready":true}' },
    { node: 'n3', state: 'dead', incarnation: 0, by: 'n4', silentMs: 350 },
    { node: 'n5', state: 'left', incarnation: 9 },
  ],
};

describe('membership wire format', () => {
  it('lays a heartbeat out as documented', () => {
    const bytes = encodeMessage({ kind: 'heartbeat', from: 'n1', incarnation: 258, updates: [] });
    // "LM", version 1, kind 1 (heartbeat), flags 0, from "n1", incarnation 258, no updates.
    expect([...bytes]).toEqual([0x4c, 0x4d, 1, 1, 0, 2, 0x6e, 0x31, 0, 0, 1, 2, 0]);
  });

  it('encodes a dead update with its declarer and silence', () => {
    const bytes = encodeMessage({
      kind: 'gossip',
      from: 'a',
      incarnation: 0,
      updates: [{ node: 'b', state: 'dead', incarnation: 1, by: 'c', silentMs: 300 }],
    });
    expect([...bytes.subarray(11)]).toEqual([1, 1, 0x62, 2, 0, 0, 0, 1, 1, 0x63, 0, 0, 1, 0x2c]);
  });

  it.each<Message>([
    hb,
    { ...hb, kind: 'gossip' },
    { ...hb, kind: 'leave', updates: [{ node: 'n1', state: 'left', incarnation: 7 }] },
    { kind: 'sync', from: 'n1', incarnation: 1, reply: true, buckets: [0, 5, 63], updates: hb.updates },
    { kind: 'sync', from: 'n1', incarnation: 1, reply: false, buckets: [], updates: [] },
    {
      kind: 'digest',
      from: 'n9',
      incarnation: 2,
      join: true,
      hashes: new Uint32Array(BUCKETS).fill(0xdeadbeef),
    },
    { kind: 'ping', from: 'n1', incarnation: 0, seq: 0xffffffff, target: 'n2' },
    { kind: 'ping-req', from: 'n1', incarnation: 0, seq: 1, target: 'nœud-été' },
    { kind: 'ack', from: 'n1', incarnation: 0, seq: 2, target: 'n2' },
  ])('round-trips a $kind', (m) => {
    const bytes = encodeMessage(m);
    expect(bytes.length).toBe(messageByteLength(m));
    expect(decodeMessage(bytes)).toEqual({ ok: true, message: m });
  });

  it.each([
    ['empty', [], 'truncated'],
    ['another protocol', [0x16, 0x03, 0x01, 0, 0], 'bad-magic'],
    ['a newer version', [0x4c, 0x4d, 2, 1, 0, 1, 0x61, 0, 0, 0, 0, 0], 'bad-version'],
    ['an unknown kind', [0x4c, 0x4d, 1, 99, 0, 1, 0x61, 0, 0, 0, 0, 0], 'bad-kind'],
    ['an empty sender', [0x4c, 0x4d, 1, 1, 0, 0, 0, 0, 0, 0, 0], 'bad-name'],
    ['a sender that is not UTF-8', [0x4c, 0x4d, 1, 1, 0, 1, 0xff, 0, 0, 0, 0, 0], 'bad-name'],
    ['a cut incarnation', [0x4c, 0x4d, 1, 1, 0, 1, 0x61, 0, 0], 'truncated'],
    ['trailing bytes', [0x4c, 0x4d, 1, 1, 0, 1, 0x61, 0, 0, 0, 0, 0, 0xaa], 'trailing-bytes'],
    ['an unknown state', [0x4c, 0x4d, 1, 2, 0, 1, 0x61, 0, 0, 0, 0, 1, 1, 0x62, 9, 0, 0, 0, 0], 'bad-state'],
  ] as const)('refuses %s as data, without throwing', (_, bytes, reason) => {
    const r = decodeMessage(Uint8Array.from(bytes));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.reason).toBe(reason);
  });

  it('refuses metadata that is not a JSON object', () => {
    for (const meta of ['[1,2]', 'null', '"x"', '{', '{"a":1}}']) {
      const good = encodeMessage({
        kind: 'gossip',
        from: 'a',
        incarnation: 0,
        updates: [{ node: 'b', state: 'alive', incarnation: 0, cause: 'join', meta: '{"a":1}' }],
      });
      // Re-encode by hand with the bad text in place of the good one.
      const head = good.subarray(0, good.length - 7 - 2);
      const text = new TextEncoder().encode(meta);
      const bytes = Uint8Array.from([...head, 0, text.length, ...text]);
      const r = decodeMessage(bytes);
      expect(r.ok, meta).toBe(false);
      if (!r.ok) expect(r.error.reason).toBe('bad-meta');
    }
  });

  it('refuses to encode what it could not decode', () => {
    expect(() => encodeMessage({ ...hb, from: '' })).toThrow(MembershipEncodeError);
    expect(() => encodeMessage({ ...hb, from: 'x'.repeat(254) })).toThrow(MembershipEncodeError);
    expect(() => encodeMessage({ ...hb, incarnation: -1 })).toThrow(MembershipEncodeError);
    expect(() =>
      encodeMessage({ kind: 'digest', from: 'a', incarnation: 0, join: false, hashes: new Uint32Array(3) }),
    ).toThrow(MembershipEncodeError);
    expect(() =>
      encodeMessage({ kind: 'sync', from: 'a', incarnation: 0, reply: false, buckets: [64], updates: [] }),
    ).toThrow(MembershipEncodeError);
  });
});
