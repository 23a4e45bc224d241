// Our BGP speaker (`lblab speaker` processes) against real FRR, BIRD and GoBGP in lab namespaces: the
// sessions come up, service prefixes arrive with the node as next hop and the configured attributes,
// and go away when the service does. Interop is judged by the daemons' own tables and the kernel FIB.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBird } from '../../sut/bird.ts';
import { startFrr, type FrrRouter } from '../../sut/frr.ts';
import { startGobgp } from '../../sut/gobgp.ts';
import { kernelRoutes } from '../../sut/kernel-routes.ts';
import type { RouteView } from '../../sut/router.ts';
import {
  BgpLab,
  apiVip4,
  apiVip6,
  eventually,
  localVip,
  node4,
  node6,
  servicesYaml,
} from './bgp-lab.test-support.ts';
import { requireNetns } from './test-support.ts';

let mode: 'run' | 'skip';
beforeAll(async () => {
  mode = await requireNetns(['vtysh', 'bird', 'gobgpd']);
});

let current: BgpLab | undefined;
afterEach(async () => {
  await current?.destroy();
  current = undefined;
});
afterAll(async () => {
  await current?.destroy();
});

const route = (routes: RouteView[], prefix: string) => routes.filter((r) => r.prefix === prefix);
const hops = (routes: RouteView[], prefix: string) =>
  route(routes, prefix)
    .flatMap((r) => r.nextHops)
    .sort();

async function lab(o: Parameters<typeof BgpLab.create>[0]): Promise<BgpLab> {
  current = await BgpLab.create(o);
  return current;
}

describe('lblab speaker ↔ FRR', () => {
  it('all three nodes establish over IPv4 and IPv6; FRR holds our prefixes with each node as next hop, AS path and communities; the kernel has them as ECMP', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({ startRouter: startFrr });
    for (let i = 0; i < 3; i++) {
      await t.router.waitEstablished(node4(i), 15_000);
      await t.router.waitEstablished(node6(i), 15_000);
    }
    const v4 = await eventually('three paths to the API address', 10_000, async () => {
      const r = await t.router.routes('ipv4');
      return hops(r, `${apiVip4}/32`).length === 3 ? r : undefined;
    });
    expect(hops(v4, `${apiVip4}/32`)).toEqual([node4(0), node4(1), node4(2)]);
    for (const path of route(v4, `${apiVip4}/32`)) {
      expect(path.asPath).toEqual([64513]);
      expect(path.communities).toEqual(['64513:100']);
      expect(path.largeCommunities).toEqual(['64513:1:2']);
      expect(path.origin).toBe('igp');
      // LOCAL_PREF is for iBGP only (RFC 4271 §5.1.5): this is eBGP, so FRR shows its default.
      expect(path.localPref ?? 100).toBe(100);
    }
    // ETP=Local: only n2 has an endpoint.
    expect(hops(v4, `${localVip}/32`)).toEqual([node4(1)]);
    const v6 = await eventually('three IPv6 paths', 10_000, async () => {
      const r = await t.router.routes('ipv6');
      return hops(r, `${apiVip6}/128`).length === 3 ? r : undefined;
    });
    expect(hops(v6, `${apiVip6}/128`)).toEqual([node6(0), node6(1), node6(2)].sort());
    const fib4 = await eventually('the kernel route', 5000, async () => {
      const k = (await kernelRoutes(t.router.ns, 'ipv4')).find((r) => r.prefix === `${apiVip4}/32`);
      return k !== undefined && k.nextHops.length === 3 ? k : undefined;
    });
    expect([...fib4.nextHops].sort()).toEqual([node4(0), node4(1), node4(2)]);
    const fib6 = await eventually('the kernel IPv6 route', 5000, async () =>
      (await kernelRoutes(t.router.ns, 'ipv6')).find((r) => r.prefix === `${apiVip6}/128`),
    );
    expect(fib6.nextHops.length).toBe(3);
  });

  it('deleting the service withdraws it from FRR and from the kernel', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({ startRouter: startFrr });
    await eventually('the API route', 20_000, async () =>
      hops(await t.router.routes('ipv4'), `${apiVip4}/32`).length === 3 ? true : undefined,
    );
    await t.setServices(servicesYaml(3, { withApi: false }));
    await eventually('the withdrawal', 5000, async () =>
      route(await t.router.routes('ipv4'), `${apiVip4}/32`).length === 0 ? true : undefined,
    );
    await eventually('the kernel withdrawal', 5000, async () =>
      (await kernelRoutes(t.router.ns, 'ipv4')).some((r) => r.prefix === `${apiVip4}/32`) ? undefined : true,
    );
    // The other service stays.
    expect(hops(await t.router.routes('ipv4'), `${localVip}/32`)).toEqual([node4(1)]);
  });

  it('4-byte AS numbers on both sides (RFC 6793): the session establishes and the AS path is right', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({ startRouter: startFrr, nodes: 1, routerAs: 4_200_000_002, nodeAs: 4_200_000_001 });
    await t.router.waitEstablished(node4(0), 15_000);
    const r = await eventually(
      'the route',
      10_000,
      async () => route(await t.router.routes('ipv4'), `${apiVip4}/32`)[0],
    );
    expect(r.asPath).toEqual([4_200_000_001]);
  });

  it('a TCP-MD5 authenticated session establishes; a wrong password does not', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const good = await lab({
      startRouter: startFrr,
      nodes: 1,
      peerFields: 'password: lab-secret',
      neighbor: { password: 'lab-secret' },
    });
    await good.router.waitEstablished(node4(0), 15_000);
    await good.destroy();
    current = undefined;
    const bad = await lab({
      startRouter: startFrr,
      nodes: 1,
      peerFields: 'password: wrong',
      neighbor: { password: 'lab-secret' },
    });
    await new Promise((r) => setTimeout(r, 4000));
    const n = (await bad.router.neighbors()).find((x) => x.address === node4(0));
    expect(n?.state).not.toBe('established');
  });

  it('graceful restart: FRR keeps our IPv4 and IPv6 routes (stale) and its kernel FIB never loses them while our speaker restarts', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({
      startRouter: startFrr,
      nodes: 1,
      peerFields: 'enableGracefulRestart: true',
      routerExtra: { gracefulRestart: { restartTimeSec: 120 }, ecmp: undefined },
    });
    const frr = t.router as FrrRouter;
    const families = [
      { family: 'ipv4', vip: apiVip4, hop: node4(0) },
      { family: 'ipv6', vip: apiVip6, hop: node6(0) },
    ] as const;
    // A FIB lookup, as a forwarded packet would make (a route dump can miss an entry being replaced).
    const forwards = async (f: (typeof families)[number]) => {
      const out = await t.router.ns.ip('-j', 'route', 'get', f.vip).catch(() => '[]');
      return (JSON.parse(out) as { gateway?: string }[])[0]?.gateway === f.hop;
    };
    const held = async (f: (typeof families)[number]) =>
      route(await frr.routes(f.family), `${f.vip}/${f.family === 'ipv4' ? 32 : 128}`);
    const everywhere = async () => {
      const seen = await Promise.all(
        families.map(async (f) => (await forwards(f)) && (await held(f)).length === 1),
      );
      return seen.every(Boolean);
    };
    // zebra installs a route some milliseconds after bgpd holds it: poll from a FIB that has both.
    await eventually('both routes in FRR and its kernel FIB', 20_000, async () =>
      (await everywhere()) ? true : undefined,
    );
    // The kernel FIB is polled every 20 ms; FRR's table as often as vtysh answers (it is slower).
    const gaps = { fib: 0, table: 0, fibPolls: 0, tablePolls: 0, longestFibIntervalMs: 0 };
    let lastFibPoll = performance.now();
    let polling = true;
    const poll = async (check: () => Promise<void>) => {
      while (polling) {
        await check();
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const pollers = Promise.all([
      poll(async () => {
        const now = performance.now();
        gaps.longestFibIntervalMs = Math.max(gaps.longestFibIntervalMs, now - lastFibPoll);
        lastFibPoll = now;
        gaps.fibPolls++;
        gaps.fib += (await Promise.all(families.map(forwards))).filter((ok) => !ok).length;
      }),
      poll(async () => {
        gaps.tablePolls++;
        gaps.table += (await Promise.all(families.map(held))).filter((r) => r.length !== 1).length;
      }),
    ]);
    const stoppedAt = performance.now();
    await t.stopSpeaker('n1', 'SIGTERM');
    const sawStale = await eventually('the stale marks', 5000, async () => {
      const stale = await Promise.all(families.map(async (f) => (await held(f))[0]?.stale === true));
      return stale.every(Boolean) ? true : undefined;
    });
    t.startSpeaker('n1');
    await t.router.waitEstablished(node4(0), 15_000);
    await t.router.waitEstablished(node6(0), 15_000);
    const backMs = performance.now() - stoppedAt;
    await eventually('the refreshed routes', 10_000, async () => {
      const fresh = await Promise.all(families.map(async (f) => (await held(f))[0]?.stale === false));
      return fresh.every(Boolean) ? true : undefined;
    });
    polling = false;
    await pollers;
    process.stderr.write(
      `graceful restart: ${gaps.fibPolls} FIB polls (gaps ${gaps.fib}, at most ${Math.round(gaps.longestFibIntervalMs)} ms apart), ${gaps.tablePolls} FRR table polls (gaps ${gaps.table}); sessions back ${Math.round(backMs)} ms after the SIGTERM\n`,
    );
    expect(sawStale).toBe(true);
    // The FIB was watched throughout the restart, however long that took (a faster start means fewer
    // polls). A route FRR dropped would stay out of the FIB until the restarted speaker's sessions are up
    // again and its UPDATE in (about 4.2 s after the SIGTERM here), so a look more often than that cannot
    // miss one. A poll runs `ip`, which the restarting speaker can hold up: 137-240 ms apart at most here.
    expect(gaps.fibPolls).toBeGreaterThan(10);
    expect(gaps.longestFibIntervalMs).toBeLessThan(Math.min(1000, backMs));
    expect(gaps).toMatchObject({ table: 0, fib: 0 });
  });

  it('maximum-prefix: a peer sending more routes than allowed gets Cease 1 and the session closes', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const originate = ['198.18.200.0/24', '198.18.201.0/24', '198.18.202.0/24'].map((prefix) => ({ prefix }));
    const t = await lab({
      startRouter: startFrr,
      nodes: 1,
      ipv6: false,
      routerExtra: { originate },
      speakerArgs: ['--bgp-max-prefixes', '2'],
    });
    await eventually('our speaker closing the session', 15_000, async () =>
      /down: the peer sent more than 2 prefixes/.test(t.log('n1')) ? true : undefined,
    );
    const frr = t.router as FrrRouter;
    const said = await frr.vtysh(`show bgp neighbors ${node4(0)} json`);
    expect(said).toMatch(/Maximum Number of Prefixes Reached|Cease\/Maximum/i);
  });

  it('drain on stop (RFC 8326): FRR sees GRACEFUL_SHUTDOWN on our route, then the withdrawal', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({
      startRouter: startFrr,
      nodes: 1,
      ipv6: false,
      speakerArgs: ['--on-stop', 'drain', '--drain-ms', '1500'],
    });
    await eventually(
      'the route',
      20_000,
      async () => route(await t.router.routes('ipv4'), `${apiVip4}/32`)[0],
    );
    const stopped = t.stopSpeaker('n1', 'SIGTERM');
    const drained = await eventually('the GRACEFUL_SHUTDOWN community', 1500, async () => {
      const r = route(await t.router.routes('ipv4'), `${apiVip4}/32`)[0];
      return r?.communities.includes('65535:0') ? r : undefined;
    });
    expect(drained.communities).toEqual(['64513:100', '65535:0']);
    await stopped;
    await eventually('the withdrawal', 3000, async () =>
      route(await t.router.routes('ipv4'), `${apiVip4}/32`).length === 0 ? true : undefined,
    );
  });

  it('eBGP with a peer that sends us routes: we keep them (Adj-RIB-In) and install nothing', async (ctx) => {
    if (mode === 'skip') return ctx.skip();
    const t = await lab({
      startRouter: startFrr,
      nodes: 1,
      routerExtra: { originate: [{ prefix: '198.18.200.0/24', communities: ['64512:7'] }] },
    });
    await t.router.waitEstablished(node4(0), 15_000);
    await eventually('our speaker holding the router route', 10_000, async () =>
      /holding 1 received route/.test(t.log('n1')) ? true : undefined,
    );
    const node = t.nodes.get('n1')!;
    const fib = await node.ip('-j', 'route', 'show');
    expect(fib).not.toContain('198.18.200.0');
  });
});

describe('lblab speaker ↔ BIRD and GoBGP', () => {
  it.for([
    ['BIRD', startBird],
    ['GoBGP', startGobgp],
  ] as const)(
    '%s: sessions establish and our prefixes arrive with next hop and communities, IPv4 and IPv6',
    async ([, startRouter], ctx) => {
      if (mode === 'skip') return ctx.skip();
      const t = await lab({ startRouter, nodes: 2 });
      await t.router.waitEstablished(node4(0), 15_000);
      const r = await eventually('both paths', 10_000, async () => {
        const all = await t.router.routes('ipv4');
        return hops(all, `${apiVip4}/32`).length === 2 ? all : undefined;
      });
      expect(hops(r, `${apiVip4}/32`)).toEqual([node4(0), node4(1)]);
      expect(route(r, `${apiVip4}/32`)[0]?.communities).toEqual(['64513:100']);
      expect(route(r, `${apiVip4}/32`)[0]?.largeCommunities).toEqual(['64513:1:2']);
      const v6 = await eventually('IPv6 paths', 10_000, async () => {
        const all = await t.router.routes('ipv6');
        return hops(all, `${apiVip6}/128`).length === 2 ? all : undefined;
      });
      expect(hops(v6, `${apiVip6}/128`)).toEqual([node6(0), node6(1)].sort());
    },
  );
});
