/**
 * The speaker against the real kernel: three nodes and a client on one bridge. Checks what a client
 * sees: its neighbour entry for the service address points at the elected node; after the owner's
 * speaker is killed and its link goes down, traffic resumes within a second; a graceful stop (SIGTERM)
 * loses no probe. IPv4 (ARP) and IPv6 (NDP) alike. Figures are printed for the release notes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireNetns } from './test-support.ts';
import { expectedOwner, L2Lab, nodeNames, vip4, vip6, type NodeName } from './l2-lab.test-support.ts';

const mode = await requireNetns();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(mode === 'skip')('lblab speaker on the real kernel (Layer 2)', () => {
  let l2: L2Lab;
  beforeAll(async () => {
    l2 = await L2Lab.create();
  }, 60_000);
  afterAll(async () => {
    await l2?.destroy();
  });

  const serving = (target: string, withinMs: number) => l2.serving(target, withinMs);

  it('points the client at the elected node for IPv4 and IPv6', async () => {
    await serving(vip4, 15_000);
    await serving(vip6, 5_000);
    const owner = expectedOwner(nodeNames, vip4);
    expect(await l2.clientNeighbour(vip4)).toBe(l2.macs.get(owner));
    // Dual-stack services land on one node: the election hashes the first address for both.
    expect(await l2.clientNeighbour(vip6)).toBe(l2.macs.get(owner));
  }, 30_000);

  /** Kill -9 of the owner's speaker plus its link down, while probing at 200/s; then bring it back. */
  async function crashOwner(target: string): Promise<{ owner: NodeName; outageMs: number; lost: number }> {
    const owner = expectedOwner(nodeNames, vip4);
    const ns = l2.nodes.get(owner)!;
    const probing = l2.probe(target, 200, 3);
    await sleep(1000);
    await l2.stopSpeaker(owner, 'SIGKILL');
    await ns.linkDown('eth0');
    const summary = await probing;
    expect(summary.servers.map((s) => s.server)[0]).toBe(owner);
    expect(summary.servers.at(-1)?.server).not.toBe(owner);
    await ns.linkUp('eth0');
    l2.startSpeaker(owner);
    await sleep(2500);
    await serving(target, 5_000);
    return { owner, outageMs: summary.outageMs, lost: summary.lost };
  }

  /** Repeats the crash `runs` times, prints the outages and returns them sorted. */
  async function failovers(target: string, family: string, runs: number): Promise<number[]> {
    const outages: number[] = [];
    for (let i = 0; i < runs; i++) outages.push(Math.round((await crashOwner(target)).outageMs));
    outages.sort((a, b) => a - b);
    const median = outages[Math.floor(runs / 2)];
    console.log(
      `L2 failover ${family}, outage ms over ${runs} runs: ${outages.join(', ')} (median ${median}, max ${outages.at(-1)})`,
    );
    return outages;
  }

  it('IPv4: after the owner crashes and its link drops, clients reach the address again within 1 s (5 runs)', async () => {
    for (const o of await failovers(vip4, 'IPv4', 5)) expect(o).toBeLessThan(1000);
  }, 120_000);

  it('IPv6: the same failover through NDP within 1 s', async () => {
    for (const o of await failovers(vip6, 'IPv6', 3)) expect(o).toBeLessThan(1000);
  }, 90_000);

  /** SIGTERM of the owner's speaker while probing at 200/s: the handoff must lose nothing. */
  async function gracefulHandoff(target: string): Promise<{ lost: number; servers: string[] }> {
    const owner = expectedOwner(nodeNames, vip4);
    const probing = l2.probe(target, 200, 4);
    await sleep(1000);
    expect(await l2.stopSpeaker(owner, 'SIGTERM')).toBe(0);
    const summary = await probing;
    l2.startSpeaker(owner);
    await sleep(2500);
    await serving(target, 5_000);
    return { lost: summary.lost, servers: summary.servers.map((s) => s.server) };
  }

  it('IPv4 and IPv6: a graceful stop of the owner hands over without losing a probe', async () => {
    for (const target of [vip4, vip6]) {
      const { lost, servers } = await gracefulHandoff(target);
      console.log(
        `L2 graceful handoff ${target}: lost ${lost} of 800 probes, served by ${servers.join(' → ')}`,
      );
      expect(servers.length).toBe(2);
      expect(lost).toBe(0);
    }
  }, 60_000);
});
