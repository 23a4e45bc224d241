// A live session fed garbage after a good OPEN: whatever arrives, nothing escapes the session as an
// exception; it either stays up (RFC 7606 handled the damage), or says why in a NOTIFICATION and closes,
// or (the garbage framed a NOTIFICATION of its own) closes without answering it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { MessageFramer, decodeMessage, encodeMessage, type BgpMessage } from '../codec.ts';
import { MemoryTransport, advanceWithPromises } from './memory-transport.test-support.ts';
import { BgpSession } from './session.ts';
import type { BgpConnection } from './transport.ts';

const OURS = '198.18.0.11';
const RAW = '198.18.0.1';

/** Our session (passive) and a raw peer that has completed the OPEN exchange by hand. */
async function established() {
  const downReasons: string[] = [];
  const clock = new VirtualClock();
  const net = new MemoryTransport(clock);
  const session = new BgpSession({
    name: 'fuzz',
    config: {
      localAs: 64513,
      peerAs: 64512,
      routerId: IpAddress.parse(OURS),
      holdTimeSec: 90,
      keepaliveSec: 30,
      connectRetrySec: 5,
      passive: true,
      families: [{ afi: 1, safi: 1 }],
    },
    peer: IpAddress.parse(RAW),
    port: 179,
    ttl: 1,
    connectTimeoutMs: 1000,
    clock,
    random: new Random(7),
    connector: net.connectorFor(OURS),
    log: (e) => {
      if (e.kind === 'down') downReasons.push(e.reason);
    },
  });
  session.setRoutes([
    { prefix: Prefix.parse('198.18.100.1/32'), attributes: { communities: [], largeCommunities: [] } },
  ]);
  net.listen(OURS, (conn) => session.accept(conn));
  session.start();
  const received: BgpMessage[] = [];
  const framer = new MessageFramer();
  const ctx = { fourOctetAs: true };
  const pending = net
    .connectorFor(RAW)
    .connect({ peer: IpAddress.parse(OURS), port: 179, ttl: 1, timeoutMs: 1000 });
  const settle = (ms: number) => advanceWithPromises(clock, ms);
  await settle(1);
  const raw: BgpConnection = await pending;
  let closed = false;
  raw.onData((chunk) => {
    for (const m of framer.push(chunk)) received.push(decodeMessage(m, ctx));
  });
  raw.onClose(() => (closed = true));
  raw.send(
    encodeMessage(
      {
        type: 'open',
        version: 4,
        myAs: 64512,
        holdTimeSec: 90,
        bgpId: IpAddress.parse(RAW),
        capabilities: [
          { code: 'multiprotocol', afi: 1, safi: 1 },
          { code: 'four-octet-as', asn: 64512 },
        ],
      },
      ctx,
    ),
  );
  raw.send(encodeMessage({ type: 'keepalive' }, ctx));
  await settle(5);
  return { session, raw, received, settle, isClosed: () => closed, downReasons };
}

const marker = new Uint8Array(16).fill(0xff);
/** A frame with a good marker, any length field and type, and random body: gets past the framer often. */
const framed = fc
  .record({
    length: fc.integer({ min: 0, max: 4200 }),
    type: fc.integer({ min: 0, max: 7 }),
    body: fc.uint8Array({ maxLength: 300 }),
  })
  .map(({ length, type, body }) => {
    const out = new Uint8Array(19 + body.length);
    out.set(marker);
    out[16] = length >> 8;
    out[17] = length & 0xff;
    out[18] = type;
    out.set(body, 19);
    return out;
  });

describe('a live session fed garbage after OPEN', () => {
  it('starts established, having sent our route and End-of-RIB', async () => {
    const s = await established();
    expect(s.session.state).toBe('established');
    expect(s.received.filter((m) => m.type === 'update')).toHaveLength(2);
  });

  it('never throws; it stays up only if nothing was wrong enough, else it sends a NOTIFICATION and closes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(framed, fc.uint8Array({ minLength: 1, maxLength: 200 })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (chunks) => {
          const s = await established();
          for (const c of chunks) s.raw.send(c);
          await s.settle(10);
          const notifications = s.received.filter((m) => m.type === 'notification');
          if (s.session.state === 'established') {
            expect(notifications).toEqual([]);
          } else if (s.downReasons.some((r) => r.startsWith('peer sent NOTIFICATION'))) {
            // RFC 4271 §8.2.2 (NotifMsg): a NOTIFICATION from the peer ends the session without one back.
            expect(notifications).toEqual([]);
            expect(s.isClosed()).toBe(true);
          } else {
            expect(notifications).toHaveLength(1);
            expect(s.isClosed()).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a NOTIFICATION split across two chunks closes the session with none sent back (fuzz-found)', async () => {
    const s = await established();
    const notification = Uint8Array.from([...marker, 0, 21, 3]);
    s.raw.send(notification);
    s.raw.send(Uint8Array.from([255, 255, ...marker.slice(2), 0, 0, 0]));
    await s.settle(10);
    expect(s.session.state).not.toBe('established');
    expect(s.downReasons).toEqual(['peer sent NOTIFICATION 255/255']);
    expect(s.received.filter((m) => m.type === 'notification')).toEqual([]);
    expect(s.isClosed()).toBe(true);
  });

  it('a truncated attribute is treated as withdraw (RFC 7606): the session stays up', async () => {
    const s = await established();
    // UPDATE: no withdrawals; attributes: ORIGIN igp, AS_PATH claiming 4 octets it lacks; NLRI 198.18.200.1/32.
    const body = Uint8Array.from([0, 0, 0, 11, 0x40, 1, 1, 0, 0x40, 2, 4, 2, 1, 0, 0, 32, 198, 18, 200, 1]);
    const msg = new Uint8Array(19 + body.length);
    msg.set(marker);
    msg[17] = msg.length;
    msg[18] = 2;
    msg.set(body, 19);
    s.raw.send(msg);
    await s.settle(10);
    expect(s.session.state).toBe('established');
    expect(s.session.received.list().map((r) => r.prefix.toString())).not.toContain('198.18.200.1/32');
  });

  it('a bad marker is Connection Not Synchronized (RFC 4271 §6.1): NOTIFICATION 1/1', async () => {
    const s = await established();
    const bad = new Uint8Array(19).fill(0);
    bad[17] = 19;
    bad[18] = 4;
    s.raw.send(bad);
    await s.settle(10);
    expect(s.received.at(-1)).toMatchObject({ type: 'notification', code: 1, subcode: 1 });
    expect(s.session.state).not.toBe('established');
  });
});
