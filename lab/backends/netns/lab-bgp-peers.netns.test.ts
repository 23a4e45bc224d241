/**
 * FRR and GoBGP as node speakers (LabBgpPeers) on the real kernel, configured from MetalLB resources:
 * router r1 (FRR, ECMP) and nodes n1, n2 on one bridged segment. The routes reach r1 on both legs; an
 * endpoint move (ETP=Local) is re-announced live; a graceful restart (SIGTERM, start) keeps r1's route;
 * a crash (wire cut, then SIGKILL) is detected by BFD (FRR) or the hold timer (GoBGP). The measured
 * times are printed for the report.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { loadConfig, type LbConfig } from '../../../core/config/index.ts';
import { startFrr, type FrrRouter } from '../../sut/frr.ts';
import { kernelRoutes } from '../../sut/kernel-routes.ts';
import type { NodeSpeakerImpl } from '../../sut/node-speaker-config.ts';
import { waitFor } from '../../sut/wait.ts';
import { webCluster } from '../../sut/web-cluster.test-support.ts';
import { lossSince, watchFibRoute } from './fib-watch.ts';
import { LabBgpPeers } from './lab-bgp-peers.ts';
import { NetnsLab } from './lab.ts';
import type { Netns } from './namespace.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['vtysh', 'gobgpd', 'nft']);

const router = '198.18.0.1';
const nodeAddress: Record<string, string> = { n1: '198.18.0.11', n2: '198.18.0.12' };
const vip = '198.18.200.1';
const holdSec = 3;
const bfd = { receiveMs: 100, transmitMs: 100, multiplier: 3 };

const metallb = `
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [198.18.200.0/29] }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab], communities: ['64512:7'] }
---
apiVersion: metallb.io/v1beta1
kind: BFDProfile
metadata: { name: fast, namespace: metallb-system }
spec: { receiveInterval: ${bfd.receiveMs}, transmitInterval: ${bfd.transmitMs}, detectMultiplier: ${bfd.multiplier} }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r1, namespace: metallb-system }
spec:
  myASN: 64513
  peerASN: 64512
  peerAddress: ${router}
  holdTime: ${holdSec}s
  keepaliveTime: 1s
  connectTime: 1s
  bfdProfile: fast
  enableGracefulRestart: true
`;

function loadLabConfig(): LbConfig {
  const loaded = loadConfig([{ path: 'metallb.yaml', text: metallb }]);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.config;
}

/** Two nodes, one ETP=Local Service on 198.18.200.1 with endpoints on `endpointsOn`. */
function cluster(endpointsOn: readonly string[]): ClusterSnapshot {
  const nodes = Object.entries(nodeAddress).map(([name, address]) => ({ name, address }));
  return webCluster({ nodes, ingress: [vip], endpointsOn, externalTrafficPolicy: 'Local' });
}

async function r1NextHops(r1: Netns): Promise<string[]> {
  const route = (await kernelRoutes(r1, 'ipv4')).find((r) => r.prefix === `${vip}/32`);
  return route ? [...route.nextHops].sort() : [];
}

const waitNextHops = (r1: Netns, want: string[], withinMs = 10_000) =>
  waitFor(async () => (JSON.stringify(await r1NextHops(r1)) === JSON.stringify(want) ? true : undefined), {
    what: `r1 forwards ${vip} via ${want.join(', ') || 'nothing'}`,
    withinMs,
  });

const figures: string[] = [];

describe.skipIf(mode === 'skip').each(['frr', 'gobgp'] as const)(
  '%s as the node speaker',
  (impl: NodeSpeakerImpl) => {
    let lab: NetnsLab;
    let r1: FrrRouter | undefined;
    let r1ns: Netns;
    let peers: LabBgpPeers | undefined;
    const hosts = new Map<string, Netns>();
    const timeline: string[] = [];

    beforeAll(async () => {
      lab = await NetnsLab.create();
      const seg = await lab.segment('lan');
      r1ns = await lab.host('r1');
      await lab.attach(r1ns, 'eth0', seg);
      await r1ns.addAddress('eth0', `${router}/24`);
      for (const [name, address] of Object.entries(nodeAddress)) {
        const ns = await lab.host(name);
        await lab.attach(ns, 'eth0', seg);
        await ns.addAddress('eth0', `${address}/24`);
        await ns.addAddress('lo', `${vip}/32`);
        hosts.set(name, ns);
      }
      r1 = await startFrr({
        name: 'r1',
        ns: r1ns,
        asn: 64512,
        routerId: router,
        ecmp: 2,
        // r1 matches the BGPPeer: hold 3 s, BFD when the node speaker runs it; FRR is a GR helper by default.
        neighbors: Object.values(nodeAddress).map((address) => ({
          address,
          asn: 64513,
          holdTimeSec: holdSec,
          keepaliveSec: 1,
          ...(impl === 'frr' && { bfd }),
        })),
      });
      peers = new LabBgpPeers(
        impl,
        (n) => hosts.get(n)!,
        ['n1', 'n2'],
        loadLabConfig(),
        cluster(['n1', 'n2']),
        {
          timeline: (e) => timeline.push(`${e.source}: ${e.message}`),
        },
      );
      await peers.startAll();
    }, 60_000);

    afterAll(async () => {
      const errors: unknown[] = [];
      await peers?.removeAll(errors);
      await r1?.stop().catch((err: unknown) => errors.push(err));
      await lab?.destroy();
      if (impl === 'gobgp') console.log(`LabBgpPeers figures:\n${figures.join('\n')}`);
      if (errors.length > 0) throw new AggregateError(errors, 'teardown failed');
    });

    it('announces the Service address from both nodes: r1 forwards it over ECMP', async () => {
      await waitNextHops(r1ns, [nodeAddress['n1']!, nodeAddress['n2']!]);
      expect(await peers!.announcers(vip)).toEqual(['n1', 'n2']);
      // The BGPAdvertisement's community travels with the route, as lblab would send it.
      const paths = (await r1!.routes('ipv4')).filter((r) => r.prefix === `${vip}/32`);
      expect(paths.map((p) => p.communities)).toEqual([['64512:7'], ['64512:7']]);
      if (impl === 'frr') {
        // BFD runs beside BGP (the sessions need not wait for it) and comes up on its own.
        await waitFor(
          async () =>
            (await r1!.bfdSessions()).filter((s) => s.state === 'up').length === 2 ? true : undefined,
          { what: 'r1 BFD sessions with both nodes up', withinMs: 10_000 },
        );
      } else {
        expect(timeline.some((l) => l.includes('GoBGP has no BFD'))).toBe(true);
      }
    });

    it('follows an endpoint move (ETP=Local): the node without an endpoint withdraws, and announces again', async () => {
      const t0 = performance.now();
      await peers!.setCluster(cluster(['n2']));
      await waitNextHops(r1ns, [nodeAddress['n2']!]);
      const withdrawMs = performance.now() - t0;
      expect(await peers!.announcers(vip)).toEqual(['n2']);
      const t1 = performance.now();
      await peers!.setCluster(cluster(['n1', 'n2']));
      await waitNextHops(r1ns, [nodeAddress['n1']!, nodeAddress['n2']!]);
      figures.push(
        `${impl}: endpoint move withdrawn at r1 after ${withdrawMs.toFixed(0)} ms, re-announced after ${(performance.now() - t1).toFixed(0)} ms`,
      );
    });

    it('restarts gracefully: r1 keeps the route stale while the daemon is down, and takes it back', async () => {
      const n1 = nodeAddress['n1']!;
      const viaN1 = async () => (await r1NextHops(r1ns)).includes(n1);
      // r1's FIB sampled every few ms through the restart: the longest stretch without the n1 leg.
      let sampling = true;
      let gapMs = 0;
      const sampler = (async () => {
        let goneAt: number | undefined;
        while (sampling) {
          const there = await viaN1();
          const now = performance.now();
          if (!there && goneAt === undefined) goneAt = now;
          if (there && goneAt !== undefined) {
            gapMs = Math.max(gapMs, now - goneAt);
            goneAt = undefined;
          }
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (goneAt !== undefined) gapMs = Math.max(gapMs, performance.now() - goneAt);
      })();
      try {
        const t0 = performance.now();
        await peers!.stop('n1', 'SIGTERM');
        expect(peers!.has('n1')).toBe(false);
        expect(await peers!.announcers(vip)).toEqual(['n2']);
        // Graceful restart at the helper: n1's path stays, marked stale, and still forwards.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const held = (await r1!.routes('ipv4')).find((r) => r.prefix === `${vip}/32` && r.from === n1);
        expect(held?.stale).toBe(true);
        expect(await viaN1()).toBe(true);
        await peers!.start('n1');
        await waitFor(async () => ((await peers!.announcers(vip)).includes('n1') ? true : undefined), {
          what: 'n1 announces again',
          withinMs: 10_000,
        });
        await waitNextHops(r1ns, [n1, nodeAddress['n2']!]);
        const backMs = performance.now() - t0;
        // Past the new session's End-of-RIB, the path is a fresh one again.
        await waitFor(
          async () =>
            (await r1!.routes('ipv4')).some((r) => r.prefix === `${vip}/32` && r.from === n1 && !r.stale)
              ? true
              : undefined,
          { what: 'n1 path no longer stale', withinMs: 5000 },
        );
        sampling = false;
        await sampler;
        figures.push(
          `${impl}: graceful restart, both legs again after ${backMs.toFixed(0)} ms; longest time r1 had no n1 leg: ${gapMs.toFixed(0)} ms`,
        );
      } finally {
        sampling = false;
        await sampler;
      }
    });

    it('crashes (wire cut, then SIGKILL): r1 drops the node by BFD (FRR) or the hold timer (GoBGP)', async () => {
      const n1 = hosts.get('n1')!;
      const watch = watchFibRoute(r1ns, `${vip}/32`, { via: nodeAddress['n1']!, withinMs: 15_000 });
      try {
        await watch.present;
        const t0 = performance.now();
        await n1.linkDown('eth0');
        await peers!.stop('n1', 'SIGKILL');
        const { ms, resolutionMs } = lossSince(await watch.lost, t0);
        expect(peers!.has('n1')).toBe(false);
        expect(await r1NextHops(r1ns)).toEqual([nodeAddress['n2']!]);
        const detectMs = bfd.receiveMs * bfd.multiplier;
        if (impl === 'frr') {
          // BFD's detection time, far inside the hold time. The detection timer last restarted on n1's
          // last packet, at most one transmit interval before the cut (RFC 5880 §6.8.4).
          expect(ms).toBeGreaterThanOrEqual(detectMs - bfd.transmitMs - resolutionMs);
          expect(ms).toBeLessThan((holdSec * 1000) / 2);
        } else {
          // No BFD: only the hold timer, which last restarted at most one keepalive before the cut.
          expect(ms).toBeGreaterThan((holdSec - 1) * 1000 - resolutionMs);
          expect(ms).toBeLessThan(holdSec * 1000 + 500);
        }
        figures.push(
          `${impl}: crash removed at r1 after ${ms.toFixed(0)} ms (±${resolutionMs.toFixed(0)} ms)`,
        );
      } finally {
        watch.stop();
      }
      // The node comes back as a reboot would: wire up, a fresh speaker.
      await n1.linkUp('eth0');
      await peers!.start('n1');
      await waitNextHops(r1ns, [nodeAddress['n1']!, nodeAddress['n2']!]);
    });
  },
);
