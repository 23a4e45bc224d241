/**
 * A BGP topology on the netns backend, through the backend interface a scenario uses: FRR r1 (zebra,
 * bgpd, bfdd) peering with three `lblab speaker` nodes over BFD 100 ms × 3 with graceful restart, and
 * client c1 behind r1. r1 spreads the API address over all three nodes; a crash is seen by BFD alone
 * (the wire is cut before the kill); a graceful restart loses nothing; moving a Local service's
 * endpoints moves its traffic. Figures are printed for the report.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../../reports/result.ts';
import { readTopology } from '../../model/index.ts';
import type { RunningLab } from '../../runner/backend.ts';
import { newRunId } from '../../runner/run-id.ts';
import { eventually } from './bgp-lab.test-support.ts';
import { labNamespaces, runIdOf } from './index.ts';
import { netnsBackend } from './netns-backend.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['nft', 'tcpdump', 'vtysh']);
const topologyFile = new URL('./testdata/bgp-three-nodes.yaml', import.meta.url).pathname;
/** BFD 100 ms × 3 detects in 300 ms; FRR then reselects and zebra reprograms the FIB. */
const detectionMs = 300;
const slackMs = 400;

describe.skipIf(mode === 'skip')('netns backend with a BGP topology (FRR r1, lblab speakers)', () => {
  let lab: RunningLab | undefined;
  const runId = newRunId();
  afterAll(async () => {
    await lab?.down();
    // Nothing of the run is left: no namespace and so no daemon, speaker or probe.
    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === runId)).toEqual([]);
  });

  it('spreads over every node, survives a crash within BFD time and a restart without loss, and follows Local endpoints', async () => {
    const read = await readTopology(topologyFile);
    if (!read.ok) throw new Error(`${topologyFile} does not read`);
    const timeline: TimelineEvent[] = [];
    const up = performance.now();
    lab = await netnsBackend.up(read.topology, {
      seed: 1,
      runId,
      timeline: (e) => timeline.push({ atMs: e.atMs ?? lab?.now() ?? 0, ...e }),
    });
    const l = lab;
    const [vip] = l.serviceAddresses('kube-apiserver');
    const [localVip] = l.serviceAddresses('local');

    // r1's kernel forwards the API address to all three nodes.
    await eventually('ECMP over three nodes', 20_000, async () =>
      (await l.nexthops('r1', vip!)).length === 3 ? true : undefined,
    );
    console.log(`netns bgp: lab up to ECMP over 3 nodes in ${Math.round(performance.now() - up)} ms`);
    expect(await l.nexthops('r1', vip!)).toEqual(['n1', 'n2', 'n3']);
    // c1 reaches it through r1; one node answers its flow (ECMP hashes on addresses only).
    const victim = await eventually('an answer through r1', 10_000, () => l.carrier('c1', vip!));
    expect(l.nodes()).toContain(victim);

    // A crash: r1 hears nothing (no FIN, no RST) and drops the node when BFD times out.
    const crashProbe = l.probe('c1', vip!, { ratePps: 200, seconds: 4 });
    await l.sleep(1000);
    const killedAt = performance.now();
    const killedAtLab = l.now();
    await l.node(victim).kill();
    const killMs = performance.now() - killedAt;
    await eventually('r1 drops the dead node', 5000, async () =>
      (await l.nexthops('r1', vip!)).includes(victim) ? undefined : true,
    );
    const droppedMs = performance.now() - killedAt;
    const crash = await crashProbe;
    console.log(
      `netns bgp: kill of ${victim} took ${Math.round(killMs)} ms; r1 dropped it after ${Math.round(droppedMs)} ms ` +
        `(polled every 50 ms); c1 outage ${Math.round(crash.outageMs)} ms, ${crash.lost} of ${crash.sent} lost; ` +
        `answered by ${crash.servers.map((s) => `${s.server} ${s.replies}`).join(', ')}`,
    );
    expect(droppedMs).toBeLessThan(detectionMs + slackMs);
    expect(crash.outageMs).toBeLessThan(1000);
    expect(crash.servers.map((s) => s.server)).toContain(victim);
    expect(crash.servers.some((s) => s.server !== victim)).toBe(true);
    await l.node(victim).revive();
    await eventually('the revived node back in ECMP', 20_000, async () =>
      (await l.nexthops('r1', vip!)).length === 3 ? true : undefined,
    );

    // A graceful restart of the node carrying c1's flow: r1 keeps its routes (stale) meanwhile.
    const carrier = await eventually('an answer through r1', 10_000, () => l.carrier('c1', vip!));
    const restartProbe = l.probe('c1', vip!, { ratePps: 200, seconds: 8 });
    await l.sleep(500);
    const restartedAt = performance.now();
    await l.node(carrier).restart();
    const restartMs = performance.now() - restartedAt;
    const restart = await restartProbe;
    console.log(
      `netns bgp: restart of ${carrier} (SIGTERM to start) took ${Math.round(restartMs)} ms; c1 lost ` +
        `${restart.lost} of ${restart.sent}, outage ${Math.round(restart.outageMs)} ms`,
    );
    expect(restart.lost).toBe(0);
    expect(await l.nexthops('r1', vip!)).toContain(carrier);

    // externalTrafficPolicy Local: only n2 has an endpoint, so only n2 announces and delivers; then n3.
    await eventually('the Local service on n2 only', 10_000, async () =>
      (await l.nexthops('r1', localVip!)).join() === 'n2' ? true : undefined,
    );
    expect(await l.carrier('c1', localVip!)).toBe('n2');
    const movedAt = performance.now();
    await l.setEndpoints('local', ['n3']);
    await eventually('the Local service on n3 only', 10_000, async () =>
      (await l.nexthops('r1', localVip!)).join() === 'n3' ? true : undefined,
    );
    const movedMs = performance.now() - movedAt;
    const moved = await l.probe('c1', localVip!, { ratePps: 100, seconds: 0.5 });
    console.log(`netns bgp: Local endpoints n2 → n3: r1 follows in ${Math.round(movedMs)} ms`);
    expect(moved.servers.map((s) => s.server)).toEqual(['n3']);
    expect(moved.lost).toBe(0);

    await l.down();
    lab = undefined;
    // r1 learnt of the crash by BFD, not by a FIN or RST: its capture has its BFD session to the victim
    // timing out, and nothing reached it from the victim in between.
    const victimAddress = read.topology.nodes
      .find((n) => n.name === victim)!
      .attachments[0]!.ipv4.split('/')[0]!;
    const afterKill = timeline.filter((e) => e.atMs >= killedAtLab && e.atMs <= killedAtLab + droppedMs);
    const timedOut = afterKill.find(
      (e) =>
        e.source === 'r1' &&
        e.kind === 'bfd' &&
        e.message.includes(`→ ${victimAddress} `) &&
        /Up→Down .*control-detection-time-expired/.test(e.message),
    );
    console.log(
      `netns bgp: r1's capture: +${Math.round((timedOut?.atMs ?? NaN) - killedAtLab)} ms ${timedOut?.message}`,
    );
    expect(timedOut).toBeDefined();
    expect(afterKill.filter((e) => e.source === victim && /FIN|RST/.test(e.message))).toEqual([]);
  }, 90_000);
});
