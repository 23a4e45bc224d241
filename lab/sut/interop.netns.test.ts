/**
 * The harness against the real daemons talking to each other on one bridged segment (no lblab BGP code
 * involved): FRR AS 64512 in the middle, BIRD AS 64513 and GoBGP AS 64514 originating prefixes, two
 * more BIRDs for TCP MD5 (right and wrong key) and BFD. Timings are printed for the report.
 */
import { access, readdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetnsLab, sh, type Netns } from '../backends/netns/index.ts';
import { requireNetns } from '../backends/netns/test-support.ts';
import {
  SutStartError,
  SutTimeoutError,
  kernelRoutes,
  startBird,
  startFrr,
  startGobgp,
  type BgpRouter,
  type BirdRouter,
  type FrrRouter,
  type GobgpRouter,
  type RouteView,
} from './index.ts';
import { waitFor } from './wait.ts';
import { sutRoot } from './work-dir.ts';

const mode = await requireNetns(['vtysh', 'bird', 'birdc', 'gobgpd', 'gobgp']);

const bfd300 = { receiveMs: 300, transmitMs: 300, multiplier: 3 };
const secret = 'lab-secret-1';
const timings: Record<string, number> = {};
const since = (t: number) => Date.now() - t;

const v4 = (host: number) => `198.18.0.${host}`;
const v6 = (host: number) => `2001:db8::${host}`;

function route(routes: RouteView[], prefix: string): RouteView | undefined {
  return routes.find((r) => r.prefix === prefix && r.best);
}

async function linkLocal(ns: Netns): Promise<string> {
  const out = await ns.ip('-j', '-6', 'addr', 'show', 'dev', 'eth0', 'scope', 'link');
  // iproute2 prints an empty object for each address the scope filter left out.
  const [link] = JSON.parse(out) as { addr_info: { local?: string; scope?: string }[] }[];
  const addr = link?.addr_info.find((a) => a.scope === 'link')?.local;
  if (!addr) throw new Error(`no link-local address in ${ns.name}`);
  return addr;
}

describe.skipIf(mode === 'skip')('lab/sut: FRR, BIRD and GoBGP driven in lab namespaces', () => {
  let lab: NetnsLab;
  const ns: Record<'frr' | 'bird' | 'gobgp' | 'auth' | 'badpw', Netns> = {} as never;
  let frr: FrrRouter;
  let bird: BirdRouter;
  let gobgp: GobgpRouter;
  let auth: BirdRouter;
  let badpw: BirdRouter;
  const routers: BgpRouter[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    lab = await NetnsLab.create();
    const lan = await lab.segment('lan');
    const hosts = ['frr', 'bird', 'gobgp', 'auth', 'badpw'] as const;
    for (const [i, name] of hosts.entries()) {
      const h = await lab.host(name);
      await lab.attach(h, 'eth0', lan);
      await h.addAddress('eth0', `${v4(i + 1)}/24`);
      await h.addAddress('eth0', `${v6(i + 1)}/64`);
      ns[name] = h;
    }
    timings['lab up (ms)'] = since(t0);
    const t1 = Date.now();
    [frr, bird, gobgp, auth, badpw] = await Promise.all([
      startFrr({
        name: 'frr',
        ns: ns.frr,
        asn: 64512,
        routerId: v4(1),
        ecmp: 4,
        gracefulRestart: { restartTimeSec: 30 },
        originate: [{ prefix: '198.18.100.1/32', communities: ['64512:100'] }],
        neighbors: [
          // Only BIRD opens these sessions. When both sides connect at once (BIRD's connect delay and
          // FRR's start timer both run about 1 s after BIRD's graceful restart), FRR 8.4 resolves the
          // collision, then fails on the closed socket ("bgp_getsockname() failed for accept from_peer")
          // and stops the new session with BGP_Stop, which flushes the stale routes the helper kept.
          { address: v4(2), asn: 64513, passive: true },
          { address: v6(2), asn: 64513, passive: true },
          { address: v4(3), asn: 64514 },
          { address: v6(3), asn: 64514 },
          { address: v4(4), asn: 64513, password: secret, bfd: bfd300 },
          { address: v4(5), asn: 64513, password: secret },
        ],
      }),
      startBird({
        name: 'bird',
        ns: ns.bird,
        asn: 64513,
        routerId: v4(2),
        gracefulRestart: { restartTimeSec: 30 },
        neighbors: [
          { address: v4(1), asn: 64512 },
          { address: v6(1), asn: 64512 },
        ],
        originate: [
          { prefix: '198.18.200.1/32', communities: ['64513:100'], largeCommunities: ['64513:1:2'] },
          { prefix: '198.18.200.2/32', communities: ['64513:200'] },
          { prefix: '198.18.230.1/32' },
          { prefix: '2001:db8:200::1/128', communities: ['64513:101'], largeCommunities: ['64513:3:4'] },
        ],
      }),
      startGobgp({
        name: 'gobgp',
        ns: ns.gobgp,
        asn: 64514,
        routerId: v4(3),
        neighbors: [
          { address: v4(1), asn: 64512, gracefulRestart: true },
          { address: v6(1), asn: 64512 },
        ],
        originate: [
          {
            prefix: '198.18.201.1/32',
            communities: ['64514:100', '64514:200'],
            largeCommunities: ['64514:1:2'],
          },
          { prefix: '198.18.201.2/32', communities: ['64514:300'] },
          { prefix: '2001:db8:201::1/128', communities: ['64514:101'], largeCommunities: ['64514:5:6'] },
        ],
      }),
      startBird({
        name: 'auth',
        ns: ns.auth,
        asn: 64513,
        routerId: v4(4),
        neighbors: [{ address: v4(1), asn: 64512, password: secret, bfd: bfd300 }],
        originate: [{ prefix: '198.18.204.1/32' }, { prefix: '198.18.230.1/32' }],
      }),
      startBird({
        name: 'badpw',
        ns: ns.badpw,
        asn: 64513,
        routerId: v4(5),
        neighbors: [{ address: v4(1), asn: 64512, password: 'not-the-secret' }],
        originate: [{ prefix: '198.18.205.1/32' }],
      }),
    ]);
    routers.push(frr, bird, gobgp, auth, badpw);
    timings['five routers started, in parallel (ms)'] = since(t1);
  });

  afterAll(async () => {
    // Routers first (work dirs), then the lab, which ends anything still running by PID.
    await Promise.allSettled(routers.map((r) => r.stop()));
    await lab?.destroy();
    console.log(`lab/sut timings: ${JSON.stringify(timings, null, 1)}`);
  });

  it('runs every daemon in the foreground inside its own namespace, where the lab tracks it', async () => {
    expect(frr.pids()).toHaveLength(3); // zebra, bgpd, bfdd (a neighbor uses BFD)
    for (const [r, n] of [
      [frr, ns.frr],
      [bird, ns.bird],
      [gobgp, ns.gobgp],
    ] as const) {
      const inNamespace = (await sh(['ip', 'netns', 'pids', n.name]))
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
      expect(r.pids().length).toBeGreaterThan(0);
      for (const pid of r.pids()) expect(inNamespace).toContain(pid);
      await access(r.workDir);
    }
  });

  it('FRR learns BIRD and GoBGP prefixes with next hop, AS path and communities, and installs them in its kernel FIB', async () => {
    const t0 = Date.now();
    await Promise.all(
      [v4(2), v6(2), v4(3), v6(3), v4(4)].map((a) =>
        frr
          .waitEstablished(a, 15_000)
          .then(() => (timings[`FRR session with ${a} established (ms)`] = since(t0))),
      ),
    );
    timings['FRR sessions with BIRD and GoBGP established (ms)'] = since(t0);
    const want4 = [
      '198.18.200.1/32',
      '198.18.200.2/32',
      '198.18.201.1/32',
      '198.18.201.2/32',
      '198.18.230.1/32',
    ];
    const want6 = ['2001:db8:200::1/128', '2001:db8:201::1/128'];
    const kernelHas = async (family: 'ipv4' | 'ipv6', prefixes: string[]) => {
      const k = await kernelRoutes(ns.frr, family);
      return prefixes.every((p) => k.some((r) => r.prefix === p)) ? k : undefined;
    };
    const [k4, k6] = await Promise.all([
      waitFor(() => kernelHas('ipv4', want4), { what: 'IPv4 routes in FRR kernel', withinMs: 10_000 }),
      waitFor(() => kernelHas('ipv6', want6), { what: 'IPv6 routes in FRR kernel', withinMs: 10_000 }),
    ]);
    timings['sessions up → all seven prefixes in FRR kernel FIB (ms)'] = since(t0);

    const r4 = await frr.routes('ipv4');
    const r6 = await frr.routes('ipv6');
    expect(route(r4, '198.18.200.1/32')).toMatchObject({
      nextHops: [v4(2)],
      asPath: [64513],
      origin: 'igp',
      communities: ['64513:100'],
      largeCommunities: ['64513:1:2'],
      stale: false,
      from: v4(2),
    });
    expect(route(r4, '198.18.201.1/32')).toMatchObject({
      nextHops: [v4(3)],
      asPath: [64514],
      origin: 'incomplete',
      communities: ['64514:100', '64514:200'],
      largeCommunities: ['64514:1:2'],
      stale: false,
      from: v4(3),
    });
    expect(route(r6, '2001:db8:200::1/128')).toMatchObject({
      nextHops: [v6(2)],
      asPath: [64513],
      communities: ['64513:101'],
      largeCommunities: ['64513:3:4'],
      from: v6(2),
    });
    expect(route(r6, '2001:db8:201::1/128')).toMatchObject({
      nextHops: [v6(3)],
      asPath: [64514],
      communities: ['64514:101'],
      largeCommunities: ['64514:5:6'],
      from: v6(3),
    });

    const kernel = (k: typeof k4, p: string) => k.find((r) => r.prefix === p);
    expect(kernel(k4, '198.18.200.1/32')).toMatchObject({ nextHops: [v4(2)], protocol: 'bgp' });
    expect(kernel(k4, '198.18.201.1/32')).toMatchObject({ nextHops: [v4(3)], protocol: 'bgp' });
    // Two BIRDs announce 198.18.230.1/32 alike: with maximum-paths the kernel forwards over both.
    await waitFor(
      async () =>
        kernel(await kernelRoutes(ns.frr, 'ipv4'), '198.18.230.1/32')?.nextHops.length === 2
          ? true
          : undefined,
      { what: 'ECMP route in FRR kernel', withinMs: 5000 },
    );
    expect(kernel(await kernelRoutes(ns.frr, 'ipv4'), '198.18.230.1/32')?.nextHops.sort()).toEqual([
      v4(2),
      v4(4),
    ]);
    // BIRD sends its link-local address as the second IPv6 next hop and zebra prefers it; GoBGP sends none.
    expect(kernel(k6, '2001:db8:200::1/128')).toMatchObject({
      nextHops: [await linkLocal(ns.bird)],
      protocol: 'bgp',
    });
    expect(kernel(k6, '2001:db8:201::1/128')).toMatchObject({ nextHops: [v6(3)], protocol: 'bgp' });

    // The other direction: BIRD and GoBGP see each other's prefixes through FRR.
    expect(route(await bird.routes('ipv4'), '198.18.201.1/32')).toMatchObject({
      asPath: [64512, 64514],
      from: v4(1),
    });
    expect(route(await gobgp.routes('ipv4'), '198.18.200.1/32')).toMatchObject({
      asPath: [64512, 64513],
      from: v4(1),
    });
    // GoBGP keeps what it learns in its RIB only.
    expect((await kernelRoutes(ns.gobgp, 'ipv4')).filter((r) => r.protocol !== 'kernel')).toEqual([]);
    expect(await frr.neighbors()).toContainEqual({
      address: v4(3),
      state: 'established',
      receivedPrefixes: 2,
    });
  });

  it('withdraws and originates at runtime: FRR table and kernel follow', async () => {
    const t0 = Date.now();
    await Promise.all([bird.withdraw('198.18.200.2/32'), gobgp.withdraw('198.18.201.2/32')]);
    await waitFor(
      async () => {
        const k = await kernelRoutes(ns.frr, 'ipv4');
        const gone = ['198.18.200.2/32', '198.18.201.2/32'].every((p) => !k.some((r) => r.prefix === p));
        return gone || undefined;
      },
      { what: 'withdrawn prefixes gone from FRR kernel', withinMs: 5000 },
    );
    timings['withdraw → gone from FRR kernel FIB (ms)'] = since(t0);
    const r4 = await frr.routes('ipv4');
    expect(r4.map((r) => r.prefix)).not.toContain('198.18.200.2/32');
    expect(r4.map((r) => r.prefix)).not.toContain('198.18.201.2/32');
    expect(route(r4, '198.18.200.1/32')).toBeDefined(); // only what was withdrawn went away

    const t1 = Date.now();
    await Promise.all([
      bird.originate('198.18.200.3/32', { communities: ['64513:300'], largeCommunities: ['64513:7:8'] }),
      gobgp.originate('198.18.201.3/32', { largeCommunities: ['64514:9:10'] }),
    ]);
    const fresh = await waitFor(
      async () => {
        const r = await frr.routes('ipv4');
        return route(r, '198.18.200.3/32') && route(r, '198.18.201.3/32') ? r : undefined;
      },
      { what: 'runtime originations in FRR', withinMs: 5000 },
    );
    timings['originate at runtime → in FRR table (ms)'] = since(t1);
    expect(route(fresh, '198.18.200.3/32')).toMatchObject({
      communities: ['64513:300'],
      largeCommunities: ['64513:7:8'],
    });
    expect(route(fresh, '198.18.201.3/32')).toMatchObject({
      communities: [],
      largeCommunities: ['64514:9:10'],
    });
    // BIRD reconfigured in place: its sessions did not reset.
    expect((await bird.neighbors()).every((n) => n.state === 'established')).toBe(true);

    // FRR at runtime: a new prefix, then new communities for it (a fresh route-map, applied at once), then gone.
    const birdSees = (want: (r: RouteView | undefined) => boolean, what: string) =>
      waitFor(async () => (want(route(await bird.routes('ipv4'), '198.18.100.2/32')) ? true : undefined), {
        what,
        withinMs: 3000,
      });
    const t2 = Date.now();
    await frr.originate('198.18.100.2/32', { communities: ['64512:1'] });
    await birdSees((r) => r?.communities.join() === '64512:1', 'FRR origination at BIRD');
    timings['FRR originate at runtime → at BIRD (ms)'] = since(t2);
    const t3 = Date.now();
    await frr.originate('198.18.100.2/32', { communities: ['64512:2'], largeCommunities: ['64512:2:2'] });
    await birdSees(
      (r) => r?.communities.join() === '64512:2' && r.largeCommunities.join() === '64512:2:2',
      'FRR new communities at BIRD',
    );
    timings['FRR communities changed → at BIRD (ms)'] = since(t3);
    await frr.withdraw('198.18.100.2/32');
    await birdSees((r) => r === undefined, 'FRR withdrawal at BIRD');
    await expect(frr.withdraw('198.18.100.2/32')).rejects.toThrow(/does not originate/);
  });

  it('as graceful-restart helper FRR keeps BIRD routes, marked stale, in its table and kernel while BIRD restarts with -R', async () => {
    const watched = { ipv4: '198.18.200.1/32', ipv6: '2001:db8:200::1/128' } as const;
    await Promise.all([frr.waitEstablished(v4(2), 5000), frr.waitEstablished(v6(2), 5000)]);
    // Established is not yet installed: the kernel must hold both routes before a gap can be measured.
    await waitFor(
      async () => {
        const [k4, k6] = await Promise.all([kernelRoutes(ns.frr, 'ipv4'), kernelRoutes(ns.frr, 'ipv6')]);
        const has = (k: { prefix: string }[], p: string) => k.some((r) => r.prefix === p);
        return has(k4, watched.ipv4) && has(k6, watched.ipv6) ? true : undefined;
      },
      { what: 'BIRD routes in FRR kernel before the restart', withinMs: 5000 },
    );
    let polling = true;
    const missing: string[] = [];
    const pollTimes: number[] = [];
    const poller = (async () => {
      while (polling) {
        const t = Date.now();
        pollTimes.push(t);
        const [k4, k6] = await Promise.all([kernelRoutes(ns.frr, 'ipv4'), kernelRoutes(ns.frr, 'ipv6')]);
        if (!k4.some((r) => r.prefix === watched.ipv4)) missing.push(`${t} ${watched.ipv4}`);
        if (!k6.some((r) => r.prefix === watched.ipv6)) missing.push(`${t} ${watched.ipv6}`);
        await sleep(Math.max(0, 20 - (Date.now() - t)));
      }
    })();
    let staleSeen: RouteView | undefined;
    const t0 = Date.now();
    try {
      const restarting = bird.restart({ graceful: true });
      staleSeen = await waitFor(
        async () => {
          const r = route(await frr.routes('ipv4'), watched.ipv4);
          return r?.stale ? r : undefined;
        },
        { what: 'FRR marks BIRD routes stale', withinMs: 5000 },
      );
      timings['BIRD graceful restart: first stale sighting (ms)'] = since(t0);
      await restarting;
      timings['BIRD graceful restart: daemon back (ms)'] = since(t0);
      await Promise.all([frr.waitEstablished(v4(2), 10_000), frr.waitEstablished(v6(2), 10_000)]);
      timings['BIRD graceful restart: sessions back (ms)'] = since(t0);
      await waitFor(
        async () => {
          const [r4, r6] = await Promise.all([frr.routes('ipv4'), frr.routes('ipv6')]);
          const fresh = (r?: RouteView) => r !== undefined && !r.stale;
          return fresh(route(r4, watched.ipv4)) && fresh(route(r6, watched.ipv6)) ? true : undefined;
        },
        { what: 'BIRD routes fresh again in FRR', withinMs: 10_000 },
      );
      timings['BIRD graceful restart: routes no longer stale (ms)'] = since(t0);
    } finally {
      polling = false;
      await poller;
    }
    const gaps = pollTimes.slice(1).map((t, i) => t - pollTimes[i]!);
    timings['GR kernel polls'] = pollTimes.length;
    timings['GR kernel poll: longest interval (ms)'] = Math.max(...gaps);
    expect(staleSeen).toMatchObject({ prefix: watched.ipv4, stale: true, communities: ['64513:100'] });
    expect(missing).toEqual([]);
    // The kernel was looked at throughout the restart: no look-away long enough to hide the 1 s gap FRR's collision bug makes.
    expect(pollTimes.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThan(500);
    // The routes BIRD announces after the restart are the ones it had: the runtime origination survived too.
    expect(route(await frr.routes('ipv4'), '198.18.200.3/32')).toMatchObject({ stale: false });
  });

  it('FRR restarts bgpd gracefully: GoBGP (helper) keeps its routes stale, zebra keeps the kernel routes', async () => {
    const ours = '198.18.100.1/32';
    await gobgp.waitEstablished(v4(1), 5000);
    await waitFor(async () => route(await gobgp.routes('ipv4'), ours), {
      what: 'FRR route at GoBGP',
      withinMs: 5000,
    });
    const oldPids = frr.pids();
    let polling = true;
    const missing: number[] = [];
    let polls = 0;
    const poller = (async () => {
      while (polling) {
        const t = Date.now();
        polls++;
        if (!(await kernelRoutes(ns.frr, 'ipv4')).some((r) => r.prefix === '198.18.200.1/32'))
          missing.push(t);
        await sleep(Math.max(0, 20 - (Date.now() - t)));
      }
    })();
    const t0 = Date.now();
    try {
      const restarting = frr.restart({ graceful: true });
      const stale = await waitFor(
        async () => {
          const r = route(await gobgp.routes('ipv4'), ours);
          return r?.stale ? r : undefined;
        },
        { what: 'GoBGP marks FRR routes stale', withinMs: 5000 },
      );
      expect(stale).toMatchObject({ from: v4(1), communities: ['64512:100'] });
      await restarting;
      timings['FRR graceful restart: bgpd back (ms)'] = since(t0);
      await Promise.all([v4(2), v4(3)].map((a) => frr.waitEstablished(a, 10_000)));
      await waitFor(
        async () => (route(await gobgp.routes('ipv4'), ours)?.stale === false ? true : undefined),
        {
          what: 'FRR routes fresh at GoBGP',
          withinMs: 10_000,
        },
      );
      timings['FRR graceful restart: routes fresh at GoBGP (ms)'] = since(t0);
      // Learnt routes come back into FRR's table as the sessions return.
      await waitFor(async () => route(await frr.routes('ipv4'), '198.18.200.1/32'), {
        what: 'BIRD route back in FRR',
        withinMs: 5000,
      });
    } finally {
      polling = false;
      await poller;
    }
    timings['FRR graceful restart: kernel polls'] = polls;
    timings['FRR graceful restart: polls without the BIRD route in FRR kernel'] = missing.length;
    // zebra and bfdd kept running; bgpd is a new process.
    expect(frr.pids()).toHaveLength(3);
    expect(frr.pids().filter((p) => !oldPids.includes(p))).toHaveLength(1);
  });

  it('plain restarts: GoBGP re-announces its originations, FRR comes back with sessions and kernel routes', async () => {
    const fromGobgp = '198.18.201.1/32';
    const inFrrKernel = async (p: string) => (await kernelRoutes(ns.frr, 'ipv4')).some((r) => r.prefix === p);
    const t0 = Date.now();
    const oldGobgp = gobgp.pids();
    await gobgp.restart();
    expect(gobgp.pids()).not.toEqual(oldGobgp);
    await waitFor(async () => route(await frr.routes('ipv4'), fromGobgp), {
      what: 'GoBGP route back',
      withinMs: 10_000,
    });
    timings['GoBGP plain restart → its route back in FRR (ms)'] = since(t0);
    expect(route(await frr.routes('ipv4'), fromGobgp)).toMatchObject({
      communities: ['64514:100', '64514:200'],
      largeCommunities: ['64514:1:2'],
      stale: false,
    });
    // The runtime origination and withdrawal survived the restart too.
    const r4 = await frr.routes('ipv4');
    expect(route(r4, '198.18.201.3/32')).toBeDefined();
    expect(route(r4, '198.18.201.2/32')).toBeUndefined();

    const t1 = Date.now();
    const before = frr.pids();
    await frr.restart();
    expect(frr.pids().filter((p) => before.includes(p))).toEqual([]);
    // (GoBGP itself stays idle for 5 s after losing a session, so BIRD's routes are the measure here.)
    await frr.waitEstablished(v4(2), 10_000);
    await waitFor(async () => ((await inFrrKernel('198.18.200.1/32')) ? true : undefined), {
      what: 'BIRD route back in FRR kernel after a plain restart',
      withinMs: 10_000,
    });
    timings['FRR plain restart → routes back in its kernel (ms)'] = since(t1);
    await waitFor(async () => route(await bird.routes('ipv4'), '198.18.100.1/32'), {
      what: 'FRR origination back at BIRD',
      withinMs: 5000,
    });
  });

  it('TCP MD5: FRR and BIRD with the same key establish, with different keys they never do', async () => {
    const t0 = Date.now();
    await frr.waitEstablished(v4(4), 15_000);
    timings['MD5 session established (ms)'] = since(t0);
    await auth.waitEstablished(v4(1), 5000);
    const wrong = await frr.waitEstablished(v4(5), 3000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(wrong).toBeInstanceOf(SutTimeoutError);
    // The timeout error shows the neighbor states and the daemons' log tails.
    expect((wrong as Error).message).toMatch(/not within 3000 ms/);
    expect((wrong as Error).message).toContain('bgpd.log');
    expect((await badpw.neighbors())[0]?.state).not.toBe('established');
    expect((await frr.routes('ipv4')).map((r) => r.prefix)).not.toContain('198.18.205.1/32');
  });

  it('BFD FRR↔BIRD comes up at 300 ms × 3 and takes the session down when BIRD freezes', async () => {
    const t0 = Date.now();
    const up = (sessions: Awaited<ReturnType<BgpRouter['bfdSessions']>>) =>
      sessions.find((s) => s.peer === v4(4) || s.peer === v4(1));
    await waitFor(async () => (up(await frr.bfdSessions())?.state === 'up' ? true : undefined), {
      what: 'FRR BFD session up',
      withinMs: 10_000,
    });
    await waitFor(async () => (up(await auth.bfdSessions())?.state === 'up' ? true : undefined), {
      what: 'BIRD BFD session up',
      withinMs: 10_000,
    });
    timings['BFD up on both sides (ms)'] = since(t0);
    expect(up(await frr.bfdSessions())).toMatchObject({
      peer: v4(4),
      state: 'up',
      transmitMs: 300,
      detectMs: 900,
    });
    expect(up(await auth.bfdSessions())).toEqual({
      peer: v4(1),
      state: 'up',
      transmitMs: 300,
      detectMs: 900,
    });
    await waitFor(
      async () => (await kernelRoutes(ns.frr, 'ipv4')).find((r) => r.prefix === '198.18.204.1/32'),
      {
        what: 'BIRD (auth) prefix in FRR kernel',
        withinMs: 5000,
      },
    );

    // Frozen, not dead: no FIN, no RST, only BFD can notice before the 3 s hold timer.
    const t1 = Date.now();
    auth.signal('SIGSTOP');
    try {
      await waitFor(async () => (up(await frr.bfdSessions())?.state === 'down' ? true : undefined), {
        what: 'FRR BFD session down',
        withinMs: 3000,
      });
      timings['SIGSTOP → FRR BFD down (ms)'] = since(t1);
      await waitFor(
        async () =>
          (await kernelRoutes(ns.frr, 'ipv4')).some((r) => r.prefix === '198.18.204.1/32') ? undefined : true,
        { what: 'frozen BIRD prefix gone from FRR kernel', withinMs: 3000 },
      );
      timings['SIGSTOP → prefix gone from FRR kernel (ms)'] = since(t1);
      expect(timings['SIGSTOP → prefix gone from FRR kernel (ms)']).toBeLessThan(2500); // the hold timer says 3000
    } finally {
      auth.signal('SIGCONT');
    }
  });

  it('reports a daemon that dies while starting with its exit status and log, and leaves nothing behind', async () => {
    // A second gobgpd in the same namespace cannot bind port 179 and exits.
    const err = await startGobgp({
      name: 'gobgp-twin',
      ns: ns.gobgp,
      asn: 64514,
      routerId: v4(3),
      neighbors: [],
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SutStartError);
    expect((err as Error).message).toMatch(/GoBGP gobgp-twin: gobgpd exited with code 1 while starting/);
    expect((err as Error).message).toMatch(/address already in use/);
    expect((await readdir(sutRoot)).filter((d) => d.startsWith('gobgp-twin-'))).toEqual([]);
    // The first one is unharmed.
    await gobgp.waitEstablished(v4(1), 10_000);
  });

  it('stop ends every daemon by PID and removes the work dir, also after SIGKILL', async () => {
    const pids = frr.pids();
    const dir = frr.workDir;
    frr.signal('SIGKILL');
    await frr.stop();
    await frr.stop(); // idempotent
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    await expect(access(dir)).rejects.toThrow();
    // FRR's scratch dirs of killed daemons are cleaned up too.
    for (const pid of pids) {
      await expect(access(`/var/tmp/frr/zebra.${pid}`)).rejects.toThrow();
      await expect(access(`/var/tmp/frr/bgpd.${pid}`)).rejects.toThrow();
    }
    const dirs = routers.filter((r) => r !== frr).map((r) => r.workDir);
    await Promise.all(routers.map((r) => r.stop()));
    for (const d of dirs) await expect(access(d)).rejects.toThrow();
    for (const n of Object.values(ns)) expect((await sh(['ip', 'netns', 'pids', n.name])).trim()).toBe('');
  });
});
