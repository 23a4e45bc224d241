/**
 * What a MetalLB dashboard reads from lblab speakers, scraped after driving the real speakers (three of
 * them in virtual time: election, membership on its liveness thread, the announcer answering a client on
 * the segment), parsed as Prometheus text by a parser that is not ours.
 */
import { describe, expect, it } from 'vitest';
import { timeUntil, vip, world } from '../speaker/l2-world.test-support.ts';
import { scrape, valueOf } from './prometheus-text.test-support.ts';
import { SpeakerMetrics, THREAD_ANSWER_MS } from './speaker-metrics.ts';

function metered(seed: number) {
  const w = world(seed);
  const metrics = new Map(
    w.nodes.map((n) => [
      n.name,
      new SpeakerMetrics({ node: n.name, clock: n.main, l2: n.speaker, liveness: n.liveness }),
    ]),
  );
  const read = (node: string) => scrape(w.clock, metrics.get(node)!);
  return { ...w, metrics, read };
}

describe('SpeakerMetrics on three speakers', () => {
  it('the owner says it announces the address, counts the ARP requests it answered and its gratuitous ARPs', async () => {
    const w = metered(1);
    w.clock.advance(2000);
    const [owner] = w.answering();
    w.answering();
    w.answering();
    for (const n of w.nodes) {
      const f = await w.read(n.name);
      const announced = valueOf(f, 'metallb_speaker_announced', {
        service: 'lab/web',
        protocol: 'layer2',
        node: n.name,
        ip: vip,
      });
      if (n.name !== owner) {
        expect(announced).toBeUndefined();
        expect(f.get('metallb_layer2_requests_received')?.samples).toEqual([]);
        continue;
      }
      expect(announced).toBe(1);
      expect(f.get('metallb_speaker_announced')?.samples).toHaveLength(1);
      expect(valueOf(f, 'metallb_layer2_requests_received', { ip: vip })).toBe(3);
      expect(valueOf(f, 'metallb_layer2_responses_sent', { ip: vip })).toBe(3);
      // One announcement at once and three in the burst, each a request and a reply.
      expect(valueOf(f, 'metallb_layer2_gratuitous_sent', { ip: vip })).toBe(8);
      expect(valueOf(f, 'lblab_l2_ownership_changes_total', { change: 'gained', reason: 'start' })).toBe(1);
    }
  });

  it('a dead owner: its successor shows the failover, the detection and the dead member; nobody else gains', async () => {
    const w = metered(1);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const victim = w.nodes.find((n) => n.name === owner)!;
    w.cut(victim, true);
    timeUntil(w.clock, () => w.answering().some((n) => n !== owner), 1000);
    w.clock.advance(500);
    const [successor] = w.answering();
    const f = await w.read(successor!);
    expect(valueOf(f, 'metallb_speaker_announced', { node: successor!, ip: vip })).toBe(1);
    expect(valueOf(f, 'lblab_l2_ownership_changes_total', { change: 'gained', reason: 'node-dead' })).toBe(1);
    expect(valueOf(f, 'lblab_membership_detections_total', { kind: 'silence' })).toBe(1);
    expect(valueOf(f, 'lblab_membership_detections_total', { kind: 'left' })).toBe(0);
    expect(valueOf(f, 'lblab_membership_members', { state: 'dead' })).toBe(1);
    expect(valueOf(f, 'lblab_membership_members', { state: 'alive' })).toBe(2);
    expect(valueOf(f, 'lblab_membership_synced')).toBe(1);
    expect(valueOf(f, 'lblab_liveness_vouching_lost_total')).toBe(0);
    expect(valueOf(f, 'lblab_membership_datagrams_received_total')).toBeGreaterThan(0);
    expect(valueOf(f, 'lblab_membership_datagrams_refused_total', { reason: 'forged' })).toBe(0);
    const third = w.nodes.find((n) => n.name !== owner && n.name !== successor)!;
    const g = await w.read(third.name);
    expect(valueOf(g, 'lblab_l2_ownership_changes_total', { change: 'gained', reason: 'node-dead' })).toBe(
      undefined,
    );
  });

  it('a main loop stuck past its bound: the owner counts the stall and the time its liveness thread stopped vouching', async () => {
    const w = metered(5);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const stuck = w.nodes.find((n) => n.name === owner)!;
    stuck.main.busy(Infinity);
    timeUntil(w.clock, () => w.answering()[0] !== owner, 5000);
    stuck.main.free();
    // A stuck loop serves no scrape either: what it shows is read once the loop runs again.
    w.metrics.get(owner!)!.mainLoopStalled(2600);
    const f = await w.read(owner!);
    expect(valueOf(f, 'lblab_liveness_vouching_lost_total')).toBe(1);
    expect(valueOf(f, 'lblab_main_loop_stall_seconds_count')).toBe(1);
    expect(valueOf(f, 'lblab_main_loop_stall_seconds_bucket', { le: '2' })).toBe(0);
    expect(valueOf(f, 'lblab_main_loop_stall_seconds_bucket', { le: '5' })).toBe(1);
  });

  it('every family has MetalLB’s type and help; the liveness thread silent, a scrape still answers', async () => {
    const w = metered(2);
    w.clock.advance(2000);
    const node = w.nodes[0]!;
    const f = await w.read(node.name);
    expect(f.get('metallb_speaker_announced')).toMatchObject({
      type: 'gauge',
      help: 'Services being announced from this node. This is desired state, it does not guarantee that the routing protocols have converged.',
    });
    expect(f.get('metallb_layer2_gratuitous_sent')).toMatchObject({
      type: 'counter',
      help: 'Number of gratuitous layer2 packets sent for owned IPs as a result of failovers',
    });
    expect(f.get('metallb_k8s_client_config_stale_bool')).toMatchObject({
      type: 'gauge',
      help: '1 if running on a stale configuration, because the latest config failed to load.',
    });
    // A liveness thread that stops answering costs a scrape a second, and its last values stay shown.
    let frozen = false;
    const m = new SpeakerMetrics({
      node: node.name,
      clock: node.main,
      liveness: { stats: () => (frozen ? new Promise(() => undefined) : node.liveness.stats()) },
    });
    const sent = valueOf(await scrape(w.clock, m), 'lblab_membership_datagrams_sent_total');
    expect(sent).toBeGreaterThan(0);
    frozen = true;
    w.clock.advance(1000);
    const t0 = w.clock.now();
    const g = await scrape(w.clock, m);
    // The wait, then a turn of the loop per family rendered.
    expect(w.clock.now() - t0).toBeGreaterThanOrEqual(THREAD_ANSWER_MS);
    expect(w.clock.now() - t0).toBeLessThan(THREAD_ANSWER_MS + 100);
    expect(valueOf(g, 'lblab_membership_datagrams_sent_total')).toBe(sent);
  });
});
