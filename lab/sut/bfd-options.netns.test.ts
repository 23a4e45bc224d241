/**
 * The harness's BFD options against the real daemons (no lblab code): FRR r1 in the middle with FRR and
 * BIRD peers in every session type the BFD interop tests need, and three BIRDs for authentication, all
 * on one bridged segment. Each option is checked by what the daemons then do, not by their config text.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetnsLab, type Netns } from '../backends/netns/index.ts';
import { silence, unsilence, unsilenceAll } from '../backends/netns/silence.ts';
import { requireNetns } from '../backends/netns/test-support.ts';
import { watchBfdStability } from './bfd-stability.ts';
import {
  startBird,
  startFrr,
  type BfdAuthentication,
  type BfdSessionView,
  type BgpRouter,
  type FrrRouter,
} from './index.ts';
import { waitFor } from './wait.ts';

const mode = await requireNetns(['vtysh', 'bird', 'birdc', 'nft']);

const v4 = (host: number) => `198.18.0.${host}`;
const timers = { receiveMs: 100, transmitMs: 100, multiplier: 3 };
const sha1: BfdAuthentication = { type: 'meticulous-keyed-sha1', password: 'lab-sha1-key', keyId: 3 };

/** Waits for `router`'s BFD session with `peer` to be in `state` (and, given `also`, to satisfy it). */
async function session(
  router: BgpRouter,
  peer: string,
  state: BfdSessionView['state'],
  withinMs = 10_000,
  also?: { what: string; holds: (s: BfdSessionView) => boolean },
) {
  return waitFor(
    async () => {
      const s = (await router.bfdSessions()).find((x) => x.peer === peer);
      return s?.state === state && (also?.holds(s) ?? true) ? s : undefined;
    },
    {
      what: `${router.name}: BFD with ${peer} ${state}${also ? `, ${also.what}` : ''}`,
      withinMs,
      diagnostics: async () => `${JSON.stringify(await router.bfdSessions())}\n${await router.logTail()}`,
    },
  );
}

describe.skipIf(mode === 'skip')('lab/sut: BFD options on real FRR and BIRD', () => {
  let lab: NetnsLab;
  const ns: Record<string, Netns> = {};
  const routers: BgpRouter[] = [];
  let r1: FrrRouter;
  let echoPeer: FrrRouter;
  let authA: BgpRouter;
  let authB: BgpRouter;
  let authWrong: BgpRouter;

  beforeAll(async () => {
    lab = await NetnsLab.create();
    const lan = await lab.segment('lan');
    const hosts = ['r1', 'echo', 'mhop', 'birdmh', 'ibgp', 'ka', 'kb', 'kc', 'birdttl'];
    for (const [i, name] of hosts.entries()) {
      const h = await lab.host(name);
      await lab.attach(h, 'eth0', lan);
      await h.addAddress('eth0', `${v4(i + 1)}/24`);
      ns[name] = h;
    }
    // FRR's echo packets are addressed to their sender and come back through the peer's forwarding.
    await ns['echo']!.sysctl('net.ipv4.ip_forward', 1);
    await ns['r1']!.sysctl('net.ipv4.ip_forward', 1);
    const echo = { ...timers, echo: { transmitMs: 100, receiveMs: 100 } };
    const mhop = { ...timers, minimumTtl: 250 };
    const started = await Promise.all([
      startFrr({
        name: 'r1',
        ns: ns['r1']!,
        asn: 64512,
        routerId: v4(1),
        neighbors: [
          { address: v4(2), asn: 64513, bfd: { ...echo, checkControlPlaneFailure: true } },
          {
            address: v4(3),
            asn: 64514,
            ebgpMultihop: 2,
            localAddress: v4(1),
            bfd: { ...mhop, passive: true },
          },
          // BIRD sends multihop BFD with TTL 64: FRR's default minimum (254) would drop every packet.
          { address: v4(4), asn: 64515, ebgpMultihop: 2, bfd: { ...timers, minimumTtl: 60 } },
          { address: v4(5), asn: 64512, bfd: timers },
          { address: v4(9), asn: 64515, ebgpMultihop: 2, bfd: timers },
        ],
      }),
      startFrr({
        name: 'echo',
        ns: ns['echo']!,
        asn: 64513,
        routerId: v4(2),
        neighbors: [{ address: v4(1), asn: 64512, bfd: echo }],
      }),
      startFrr({
        name: 'mhop',
        ns: ns['mhop']!,
        asn: 64514,
        routerId: v4(3),
        neighbors: [{ address: v4(1), asn: 64512, ebgpMultihop: 2, bfd: mhop }],
      }),
      startBird({
        name: 'birdmh',
        ns: ns['birdmh']!,
        asn: 64515,
        routerId: v4(4),
        neighbors: [{ address: v4(1), asn: 64512, ebgpMultihop: 2, localAddress: v4(4), bfd: timers }],
      }),
      startBird({
        name: 'ibgp',
        ns: ns['ibgp']!,
        asn: 64512,
        routerId: v4(5),
        neighbors: [{ address: v4(1), asn: 64512, bfd: timers }],
      }),
      startBird({
        name: 'birdttl',
        ns: ns['birdttl']!,
        asn: 64515,
        routerId: v4(9),
        neighbors: [{ address: v4(1), asn: 64512, ebgpMultihop: 2, localAddress: v4(9), bfd: timers }],
      }),
      // ka peers with kb (same key) and kc (same type and id, another key).
      startBird({
        name: 'ka',
        ns: ns['ka']!,
        asn: 64520,
        routerId: v4(6),
        neighbors: [
          { address: v4(7), asn: 64521, bfd: { ...timers, authentication: sha1 } },
          { address: v4(8), asn: 64522, bfd: { ...timers, authentication: sha1 } },
        ],
      }),
      startBird({
        name: 'kb',
        ns: ns['kb']!,
        asn: 64521,
        routerId: v4(7),
        neighbors: [{ address: v4(6), asn: 64520, bfd: { ...timers, authentication: sha1 } }],
      }),
      startBird({
        name: 'kc',
        ns: ns['kc']!,
        asn: 64522,
        routerId: v4(8),
        neighbors: [
          {
            address: v4(6),
            asn: 64520,
            bfd: { ...timers, authentication: { ...sha1, password: 'not-the-key' } },
          },
        ],
      }),
    ]);
    routers.push(...started);
    [r1, echoPeer] = [started[0], started[1]];
    [authA, authB, authWrong] = [started[6], started[7], started[8]];
  }, 60_000);

  afterAll(async () => {
    await unsilenceAll();
    await Promise.allSettled(routers.map((r) => r.stop()));
    await lab?.destroy();
  });

  it('FRR single hop with echo: both sides run the echo function at the agreed interval', async () => {
    const s = await session(r1, v4(2), 'up');
    expect(s).toMatchObject({ multihop: false, detectMs: 300, transmitMs: 100, echoTransmitMs: 100 });
    // The peer learns r1's Required Min Echo RX Interval from r1's control packets: its own view of the
    // session may be a packet behind r1's (once here, in a CI run, it had no echo interval yet).
    const peer = await session(echoPeer, v4(1), 'up', 5000, {
      what: 'running echo',
      holds: (p) => p.echoTransmitMs !== undefined,
    });
    expect(peer.echoTransmitMs).toBe(100);
  });

  it('FRR eBGP multihop: a multihop session (RFC 5883), r1 passive, both enforcing the minimum TTL', async () => {
    const s = await session(r1, v4(3), 'up');
    expect(s).toMatchObject({ multihop: true, passive: true, minimumTtl: 250, detectMs: 300 });
    expect(await session(routers[2]!, v4(1), 'up')).toMatchObject({
      multihop: true,
      passive: false,
      minimumTtl: 250,
    });
  });

  it('BIRD eBGP multihop from its local address meets FRR in a multihop session, given a TTL it sends', async () => {
    expect(await session(r1, v4(4), 'up')).toMatchObject({ multihop: true, minimumTtl: 60, detectMs: 300 });
    expect(await session(routers[3]!, v4(1), 'up')).toMatchObject({ detectMs: 300 });
    // At FRR's default minimum TTL (254) BIRD's packets (TTL 64) are dropped: the session never comes up.
    expect(await session(r1, v4(9), 'down')).toMatchObject({ multihop: true, minimumTtl: 254 });
    await sleep(2000);
    expect((await r1.bfdSessions()).find((s) => s.peer === v4(9))?.state).not.toBe('up');
  });

  it('BIRD iBGP meets FRR in a single-hop session', async () => {
    expect(await session(r1, v4(5), 'up')).toMatchObject({ multihop: false });
    await session(routers[4]!, v4(1), 'up');
  });

  it('BIRD authentication: the same key brings the session up; another key keeps it down', async () => {
    await session(authA, v4(7), 'up');
    await session(authB, v4(6), 'up');
    // Give the wrong key as long as the right one needed and more: it must never come up.
    await sleep(3000);
    expect((await authA.bfdSessions()).find((s) => s.peer === v4(8))?.state).not.toBe('up');
    expect((await authWrong.bfdSessions()).find((s) => s.peer === v4(6))?.state).not.toBe('up');
  });

  it('counts transitions: a quiet window shows no flap, a silenced peer shows one', async () => {
    await session(r1, v4(2), 'up');
    const quiet = await watchBfdStability(r1, v4(2), { durationMs: 2000 });
    expect(quiet).toMatchObject({ flapped: false, downTransitions: 0, upTransitions: 0 });
    const before = (await session(r1, v4(2), 'up')).downTransitions!;
    const silenced = await silence(ns['echo']!, echoPeer.pids());
    try {
      const down = await session(r1, v4(2), 'down', 3000);
      // This peer runs the echo function too: whichever of its timer and the control packets' expires
      // first names the failure (RFC 5880 §6.8.4, §6.8.5); both are BFD detecting the silence.
      expect(['echo-function-failed', 'control-detection-time-expired']).toContain(down.diagnostic);
      expect(down.downTransitions).toBe(before + 1);
    } finally {
      await unsilence(silenced);
    }
    await session(r1, v4(2), 'up', 15_000);
    // Once back, quiet again (the waking peer may have added a Down of its own on the way: see the view).
    const window = await watchBfdStability(r1, v4(2), { durationMs: 1000 });
    expect(window).toMatchObject({ flapped: false, downTransitions: 0 });
  }, 30_000);
});
