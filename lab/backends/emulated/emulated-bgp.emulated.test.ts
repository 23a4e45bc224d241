/**
 * BGP on the emulated backend: real node speakers (BgpSpeaker, BFD engine) and an emulated router (core's
 * sessions and BFD, its FIB in the simulated kernel) on the simulated network, a client behind the router
 * probing. Every figure is virtual time and replays from the seed.
 */
import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../../reports/result.ts';
import { readTopology } from '../../model/index.ts';
import type { RunningLab } from '../../runner/backend.ts';
import { EmulatedLab, clusterWatchDelayMs } from './emulated-lab.ts';
import { FIB_INSTALL_DELAY_MS } from './router-daemon.ts';

const here = 'lab/backends/emulated/testdata';

async function up(file: string, seed = 42) {
  const read = await readTopology(`${here}/${file}`);
  if (!read.ok) throw new Error(`bad test topology ${file}`);
  const timeline: Omit<TimelineEvent, 'atMs'>[] = [];
  const lab = await EmulatedLab.create(read.topology, {
    seed,
    runId: 'test',
    timeline: (e) => timeline.push(e),
  });
  return { lab, timeline };
}

/** Lets virtual time pass until `check` holds (polled every `stepMs`); returns how long it took. */
async function until(lab: RunningLab, check: () => Promise<boolean>, limitMs: number, stepMs = 1) {
  const start = lab.now();
  while (!(await check())) {
    if (lab.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    await lab.drive(lab.sleep(stepMs));
  }
  return lab.now() - start;
}

/** Lets `ms` of virtual time pass in steps of `stepMs`, calling `look` after each. */
async function watch(lab: RunningLab, ms: number, look: () => Promise<void>, stepMs = 10) {
  for (const end = lab.now() + ms; lab.now() < end;) {
    await lab.drive(lab.sleep(stepMs));
    await look();
  }
}

const ecmp = (lab: RunningLab, vip: string, n: number) =>
  until(lab, async () => (await lab.nexthops('r1', vip)).length === n, 30_000, 10);

/** A node dies under 1000 probes/s: returns the outage, the probes lost and how long r1 took to drop it. */
async function crash(lab: RunningLab, vip: string) {
  await ecmp(lab, vip, 3);
  const victim = (await lab.carrier('c1', vip))!;
  const probe = lab.probe('c1', vip, { ratePps: 1000, seconds: 6 });
  await lab.drive(lab.sleep(1000));
  await lab.node(victim).kill();
  const detectionMs = await until(lab, async () => !(await lab.nexthops('r1', vip)).includes(victim), 5000);
  const summary = await lab.drive(probe);
  return { victim, summary, detectionMs, left: await lab.nexthops('r1', vip) };
}

describe('BGP on the emulated backend', () => {
  it('brings up every session: r1 spreads the address over the three nodes, c1 is answered', async () => {
    const { lab, timeline } = await up('bgp-bfd.yaml');
    const vip = lab.serviceAddresses('web')[0]!;
    await ecmp(lab, vip, 3);
    expect(await lab.nexthops('r1', vip)).toEqual(['n1', 'n2', 'n3']);
    const summary = await lab.drive(lab.probe('c1', vip, { ratePps: 100, seconds: 1 }));
    expect(summary.lost).toBe(0);
    expect(timeline.map((e) => e.message)).toContain(
      "r1 (frr) runs as lblab's emulated router: AS 64512, BGP with n1, n2, n3, graceful-restart helper, ECMP",
    );
    const manifest = await lab.manifest();
    expect(manifest).toMatchObject({ routers: [{ name: 'r1', impl: 'frr', asn: 64512 }] });
    await lab.down();
  }, 60_000);

  it('a node loses power: BFD drops it in its detection time, the client loses under a second', async () => {
    const { lab } = await up('bgp-bfd.yaml');
    const vip = lab.serviceAddresses('web')[0]!;
    const { victim, summary, detectionMs, left } = await crash(lab, vip);
    expect(left).toHaveLength(2);
    expect(left).not.toContain(victim);
    // 3 × 100 ms without a packet, counted from the last one before the cut.
    expect(detectionMs).toBeGreaterThan(200);
    expect(detectionMs).toBeLessThan(400);
    expect(summary.outageMs).toBeLessThan(1000);
    await lab.down();
  }, 60_000);

  it('without BFD, r1 drops a dead node only when its 3 s hold timer expires', async () => {
    const { lab } = await up('bgp-hold.yaml');
    const vip = lab.serviceAddresses('web')[0]!;
    const { summary, detectionMs } = await crash(lab, vip);
    // The hold timer restarts at each KEEPALIVE (every second, jittered): it fires 2–3 s after the cut.
    expect(detectionMs).toBeGreaterThan(2000);
    expect(detectionMs).toBeLessThan(3100);
    expect(summary.outageMs).toBeGreaterThan(2000);
    expect(summary.outageMs).toBeLessThan(3200);
    await lab.down();
  }, 60_000);

  it('a graceful restart of every speaker loses no probe; r1 keeps each node stale until End-of-RIB', async () => {
    const { lab, timeline } = await up('bgp-bfd.yaml');
    const vip = lab.serviceAddresses('web')[0]!;
    await ecmp(lab, vip, 3);
    const probe = lab.probe('c1', vip, { ratePps: 1000, seconds: 12 });
    await lab.drive(lab.sleep(500));
    const hops = new Set<string>();
    const look = async () => void hops.add((await lab.nexthops('r1', vip)).join());
    for (const node of lab.nodes()) {
      const restart = lab.node(node).restart();
      await watch(lab, 2000, look);
      await lab.drive(restart);
      await watch(lab, 1500, look);
    }
    const summary = await lab.drive(probe);
    expect(summary.lost).toBe(0);
    expect([...hops]).toEqual(['n1,n2,n3']);
    const r1 = timeline.filter((e) => e.source === 'r1').map((e) => e.message);
    for (const node of lab.nodes()) {
      const held = (m: string) => new RegExp(`^${node}: holding (\\d+) routes \\((\\d+) stale\\)$`).exec(m);
      const stale = r1.findIndex((m) => Number(held(m)?.[2] ?? 0) > 0);
      expect(stale).toBeGreaterThan(-1);
      // Back with the R bit, the new session's End-of-RIB leaves every route fresh.
      const after = r1.slice(stale);
      expect(after.some((m) => m.startsWith(`${node}: BGP established`))).toBe(true);
      expect(after.some((m) => held(m)?.[2] === '0')).toBe(true);
    }
    await lab.down();
  }, 60_000);

  it('moving a Local service’s endpoint moves the route and the traffic', async () => {
    const { lab } = await up('bgp-bfd.yaml');
    const vip = lab.serviceAddresses('local-web')[0]!;
    await ecmp(lab, vip, 1);
    expect(await lab.nexthops('r1', vip)).toEqual(['n1']);
    expect(await lab.carrier('c1', vip)).toBe('n1');
    const probe = lab.probe('c1', vip, { ratePps: 1000, seconds: 4 });
    await lab.drive(lab.sleep(1000));
    await lab.drive(lab.setEndpoints('local-web', ['n1', 'n2']));
    await ecmp(lab, vip, 2);
    await lab.drive(lab.setEndpoints('local-web', ['n2']));
    const movedMs = await until(lab, async () => (await lab.nexthops('r1', vip)).join() === 'n2', 2000);
    // n1 withdraws once its speaker sees the EndpointSlice change; r1 follows after its FIB install delay.
    expect(movedMs).toBeGreaterThanOrEqual(clusterWatchDelayMs);
    expect(movedMs).toBeLessThanOrEqual(clusterWatchDelayMs + FIB_INSTALL_DELAY_MS + 10);
    const summary = await lab.drive(probe);
    expect(await lab.carrier('c1', vip)).toBe('n2');
    expect(summary.outageMs).toBeLessThan(1000);
    await lab.down();
  }, 60_000);

  it('impair changes a link at run time: a lossy link to the client loses probes', async () => {
    const { lab } = await up('bgp-bfd.yaml');
    const vip = lab.serviceAddresses('web')[0]!;
    await ecmp(lab, vip, 3);
    await lab.impair('c1', { delayMs: 0, jitterMs: 0, lossPct: 50 });
    const lossy = await lab.drive(lab.probe('c1', vip, { ratePps: 1000, seconds: 1 }));
    await lab.impair('c1', undefined);
    const clean = await lab.drive(lab.probe('c1', vip, { ratePps: 1000, seconds: 1 }));
    expect(lossy.lost).toBeGreaterThan(500);
    expect(clean.lost).toBe(0);
    await lab.down();
  }, 60_000);
});
