/**
 * The routers of a netns lab: each `router` node's daemon (FRR by default: zebra, bgpd, bfdd; BIRD;
 * GoBGP) started in its namespace through lab/sut with the spec router-specs.ts derives from the nodes'
 * MetalLB configuration, and what the lab reads back from them: the kernel FIB's next hops for an
 * address and, for the manifest, the daemons' PIDs and sessions.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UpOptions } from '../../runner/backend.ts';
import { startBird } from '../../sut/bird.ts';
import { startFrr } from '../../sut/frr.ts';
import { startGobgp } from '../../sut/gobgp.ts';
import { parseKernelRoutes } from '../../sut/kernel-routes.ts';
import type {
  BfdSessionView,
  BgpRouter,
  BgpRouterSpec,
  NeighborView,
  StartOptions,
} from '../../sut/router.ts';
import type { DetachedProgram } from './lab-programs.ts';
import { notPeered } from './router-peering.ts';
import type { Netns } from './namespace.ts';
import type { LabRouterSpec, RealRouterImpl } from './router-specs.ts';

const starters: Record<RealRouterImpl, (s: BgpRouterSpec, o: StartOptions) => Promise<BgpRouter>> = {
  frr: startFrr,
  bird: startBird,
  gobgp: startGobgp,
};

export interface RouterManifest {
  name: string;
  impl: RealRouterImpl;
  namespace: string;
  workDir: string;
  pids: number[];
  sessions: NeighborView[];
  bfd: { peer: string; state: BfdSessionView['state'] }[];
}

export class LabRouters {
  private readonly routers = new Map<string, BgpRouter>();
  /** Each router's neighbours with BFD configured. */
  private readonly bfdNeighbours = new Map<string, string[]>();

  constructor(
    private readonly host: (name: string) => Netns,
    /** The host owning an interface address, to name a route's next hops. */
    private readonly ownerOf: (address: string) => string | undefined,
  ) {}

  /**
   * Starts every router of the topology, in order; a failure leaves the ones already started to
   * stopAll(). GoBGP installs nothing in the kernel, so clients behind it reach no service: the timeline
   * says so.
   */
  async startAll(
    specs: readonly LabRouterSpec[],
    o: Pick<UpOptions, 'timeline'> & { detached?: boolean },
  ): Promise<void> {
    for (const r of specs) {
      const router = await starters[r.impl](
        { ...r.spec, ns: this.host(r.node) },
        { detached: o.detached ?? false },
      );
      this.routers.set(r.node, router);
      this.bfdNeighbours.set(
        r.node,
        r.spec.neighbors.filter((n) => n.bfd !== undefined).map((n) => n.address),
      );
      o.timeline({
        source: r.node,
        kind: 'lab',
        message:
          `${r.impl} started (pids ${router.pids().join(', ')}), ${r.spec.neighbors.length} neighbors` +
          (r.impl === 'gobgp'
            ? '; GoBGP installs no routes in the kernel, so nothing is forwarded by them'
            : ''),
      });
    }
  }

  /**
   * Waits until every router's BGP sessions are established and, for each neighbour with BFD, a BFD
   * session is up (notPeered), at most `withinMs`; says on the timeline what is still down then. A
   * scenario that crashes a node right after the routes appeared would otherwise meet a BFD session
   * still coming up and measure the hold timer instead.
   */
  async waitPeered(withinMs: number, o: Pick<UpOptions, 'timeline'>): Promise<void> {
    const deadline = performance.now() + withinMs;
    for (;;) {
      const down = (await this.manifest()).flatMap((r) => notPeered(r, this.bfdNeighbours.get(r.name) ?? []));
      if (down.length === 0) return;
      if (performance.now() > deadline) {
        o.timeline({
          source: 'lab',
          kind: 'lab',
          message: `not peered within ${withinMs} ms: ${down.join(', ')}`,
        });
        return;
      }
      await sleep(100);
    }
  }

  names(): string[] {
    return [...this.routers.keys()];
  }

  /**
   * The hosts `router`'s kernel forwards `address` to: the next hops of the most specific route that
   * covers it (`ip route show match`), each named by the host that owns the address; sorted.
   */
  async nexthops(router: string, address: string): Promise<string[]> {
    if (!this.routers.has(router)) throw new Error(`no router ${router} in this lab`);
    const family = address.includes(':') ? 'ipv6' : 'ipv4';
    const out = await this.host(router).ip(
      '-j',
      family === 'ipv4' ? '-4' : '-6',
      'route',
      'show',
      'match',
      address,
    );
    const routes = parseKernelRoutes(out, family).filter((r) => r.type === 'unicast');
    const best = routes.sort((a, b) => lengthOf(b.prefix) - lengthOf(a.prefix))[0];
    if (!best) return [];
    return best.nextHops.map((h) => this.ownerOf(h) ?? h).sort();
  }

  async manifest(): Promise<RouterManifest[]> {
    return Promise.all(
      [...this.routers].map(async ([name, r]) => ({
        name,
        impl: r.impl,
        namespace: r.ns.name,
        workDir: r.workDir,
        pids: r.pids(),
        sessions: await r.neighbors().catch(() => []),
        bfd: (await r.bfdSessions().catch(() => [])).map((b) => ({ peer: b.peer, state: b.state })),
      })),
    );
  }

  /** A detached lab's daemons, so `lblab lab down` ends them by PID too. */
  detachedPrograms(): DetachedProgram[] {
    return [...this.routers].flatMap(([name, r]) =>
      r.pids().map((pid) => ({ host: name, program: r.impl, pid, log: r.workDir })),
    );
  }

  /** Stops every daemon (which removes its work dir); failures go to `errors`. */
  async stopAll(errors: unknown[]): Promise<void> {
    for (const r of this.routers.values()) await r.stop().catch((err: unknown) => errors.push(err));
    this.routers.clear();
  }
}

function lengthOf(prefix: string): number {
  return Number(prefix.split('/')[1] ?? 0);
}
