// Authenticated sessions (RFC 5880 §6.7) between engines, and what happens to packets that fail.
import { describe, expect, it } from 'vitest';
import type { AuthKey, ControlPacket } from '../codec.ts';
import { ascii } from '../packet/test-support.ts';
import { BfdConfigError } from '../session/config-error.ts';
import { A, B, lab, peer, stateOf } from './pair.test-support.ts';

const SLOW_START_MS = 1000;
const sha1: AuthKey = { type: 'meticulous-keyed-sha1', keyId: 3, key: ascii('twenty-octet-secret!') };

function sequenceOf(p: ControlPacket): number | undefined {
  return p.auth !== undefined && p.auth.type !== 'simple-password' ? p.auth.sequence : undefined;
}

async function pairWith(authA: AuthKey | undefined, authB: AuthKey | undefined) {
  const l = lab();
  const a = l.engine(A);
  const b = l.engine(B);
  await a.add(peer(A, B, { auth: authA }));
  await b.add(peer(B, A, { auth: authB }));
  await l.run(5 * SLOW_START_MS);
  return { ...l, a, b };
}

describe('BfdEngine with authentication (RFC 5880 §6.7)', () => {
  for (const key of [
    { type: 'simple-password', keyId: 1, key: ascii('secret') },
    { type: 'keyed-md5', keyId: 2, key: ascii('md5 key') },
    sha1,
  ] satisfies AuthKey[]) {
    it(`comes Up with the same ${key.type} key on both sides`, async () => {
      const l = await pairWith(key, key);
      expect([stateOf(l.a, B), stateOf(l.b, A)]).toEqual(['up', 'up']);
      expect(l.a.counters.authFailures + l.b.counters.authFailures).toBe(0);
      expect(l.wire(A, B).every((w) => w.packet.auth?.type === key.type)).toBe(true);
    });
  }

  it('stays Down with a wrong key, counting every packet as an authentication failure', async () => {
    const l = await pairWith(sha1, { ...sha1, key: ascii('another twenty octet') });
    expect([stateOf(l.a, B), stateOf(l.b, A)]).toEqual(['down', 'down']);
    expect(l.b.counters.authFailures).toBe(l.wire(A, B).length);
    expect(l.changes).toEqual([]);
  });

  it('stays Down when only one side authenticates: each discards the other’s packets', async () => {
    const l = await pairWith(sha1, undefined);
    expect([stateOf(l.a, B), stateOf(l.b, A)]).toEqual(['down', 'down']);
    expect(l.a.counters.authFailures).toBe(l.wire(B, A).length);
    expect(l.b.counters.authFailures).toBe(l.wire(A, B).length);
  });

  it('raises the meticulous sequence number by one in every packet, from a random start', async () => {
    const l = await pairWith(sha1, sha1);
    const sequences = l.wire(A, B).map((w) => sequenceOf(w.packet));
    expect(sequences.slice(1).every((s, i) => s === (sequences[i]! + 1) >>> 0)).toBe(true);
    expect(sequenceOf(l.wire(B, A)[0]!.packet)).not.toBe(sequences[0]);
  });

  it('discards a replayed packet (meticulous): an old Down cannot take an Up session down', async () => {
    const l = await pairWith(sha1, sha1);
    const oldDown = l.wire(A, B).find((w) => w.packet.state === 'down')!;
    const latest = l.wire(A, B).at(-1)!;
    const before = l.b.counters.authFailures;
    l.net.inject(B, oldDown.bytes, { address: A, port: 49152 });
    l.net.inject(B, latest.bytes, { address: A, port: 49152 });
    expect(l.b.counters.authFailures - before).toBe(2);
    expect(stateOf(l.b, A)).toBe('up');
  });

  it('accepts a restarted peer’s new sequence numbers once it has been silent for twice the Detection Time', async () => {
    const l = await pairWith(sha1, sha1);
    const detectionMs = l.a.sessions()[0]!.detectionTimeMs!;
    await l.b.remove(l.b.sessions()[0]!.key);
    const b2 = l.engine(B);
    await b2.add(peer(B, A, { auth: sha1 }));
    await l.run(2 * detectionMs + 2 * SLOW_START_MS);
    expect([stateOf(l.a, B), stateOf(b2, A)]).toEqual(['up', 'up']);
    // Before bfd.AuthSeqKnown was cleared, the new numbers were outside the old window.
    expect(l.a.counters.authFailures).toBeGreaterThan(0);
  });

  it('refuses a key its type cannot carry when the peer is added', async () => {
    const l = lab();
    const a = l.engine(A);
    const tooLong = { type: 'keyed-md5', keyId: 1, key: new Uint8Array(17) } satisfies AuthKey;
    await expect(a.add(peer(A, B, { auth: tooLong }))).rejects.toBeInstanceOf(BfdConfigError);
    expect(a.sessions()).toEqual([]);
  });
});
