/**
 * MetalLB's BGP and BFD metrics as a dashboard reads them, scraped from a real BGP speaker whose BFD
 * sessions run on a real BFD engine, against a router (a BGP session and a BFD engine of its own) on
 * in-memory networks in virtual time.
 */
import { describe, expect, it } from 'vitest';
import { lab, peer as bfdPeer } from '../bfd/engine/pair.test-support.ts';
import { advanceWithPromises } from '../bgp/session/memory-transport.test-support.ts';
import { bgpWorld, NODE, ROUTER, twoServiceCluster } from '../speaker/bgp-router.test-support.ts';
import { EngineBfdWatcher } from '../speaker/engine-bfd-watcher.ts';
import { scrape, valueOf } from './prometheus-text.test-support.ts';
import { SpeakerMetrics } from './speaker-metrics.ts';

const PEER = `${ROUTER}:179`;

function setup() {
  const bfdLab = lab();
  const { clock } = bfdLab;
  const ours = bfdLab.engine(NODE);
  const theirs = bfdLab.engine(ROUTER);
  const bfd = new EngineBfdWatcher(ours, () => undefined);
  const { router, speaker } = bgpWorld({ clock, bfd, cluster: twoServiceCluster });
  const metrics = new SpeakerMetrics({ node: 'n1', clock, bgp: speaker, bfd });
  return {
    clock,
    theirs,
    router,
    speaker,
    read: () => scrape(clock, metrics),
    run: (ms: number) => advanceWithPromises(clock, ms),
  };
}

describe('SpeakerMetrics: BGP and BFD', () => {
  it('shows the session up, its UPDATEs and prefixes, BFD up with its packets, and both services announced', async () => {
    const t = setup();
    await t.theirs.add(bfdPeer(ROUTER, NODE));
    await t.run(3000);
    expect(t.router.state).toBe('established');
    const f = await t.read();
    expect(valueOf(f, 'metallb_bgp_session_up', { peer: PEER })).toBe(1);
    expect(valueOf(f, 'metallb_bgp_announced_prefixes_total', { peer: PEER })).toBe(2);
    expect(valueOf(f, 'metallb_bgp_pending_prefixes_total', { peer: PEER })).toBe(2);
    // The routes (one UPDATE: both prefixes share their attributes) and End-of-RIB.
    expect(valueOf(f, 'metallb_bgp_updates_total', { peer: PEER })).toBe(2);
    for (const [svc, ip] of [
      ['default/api', '198.18.100.1'],
      ['default/web', '198.18.100.2'],
    ] as const)
      expect(valueOf(f, 'metallb_speaker_announced', { service: svc, protocol: 'bgp', node: 'n1', ip })).toBe(
        1,
      );
    const bfd = { peer: ROUTER, vrf: 'default' };
    expect(valueOf(f, 'metallb_bfd_session_up', bfd)).toBe(1);
    expect(valueOf(f, 'metallb_bfd_session_up_events', bfd)).toBe(1);
    expect(valueOf(f, 'metallb_bfd_session_down_events', bfd)).toBe(0);
    expect(valueOf(f, 'metallb_bfd_control_packet_output', bfd)).toBeGreaterThan(10);
    expect(valueOf(f, 'metallb_bfd_control_packet_input', bfd)).toBeGreaterThan(10);
    expect(valueOf(f, 'metallb_bfd_echo_packet_output', bfd)).toBe(0);
    expect(valueOf(f, 'lblab_bfd_transitions_total', { peer: ROUTER, from: 'init', to: 'up' })).toBe(1);
  });

  it("the router's BFD going silent: BFD and BGP down, a down event, and no prefixes advertised (still pending)", async () => {
    const t = setup();
    const key = await t.theirs.add(bfdPeer(ROUTER, NODE));
    await t.run(3000);
    // The router's BFD stops without a word (no AdminDown): a path failure for us after 3 × 100 ms.
    await t.theirs.remove(key);
    await t.run(1000);
    const f = await t.read();
    const bfd = { peer: ROUTER, vrf: 'default' };
    expect(valueOf(f, 'metallb_bfd_session_up', bfd)).toBe(0);
    expect(valueOf(f, 'metallb_bfd_session_down_events', bfd)).toBe(1);
    expect(valueOf(f, 'metallb_bgp_session_up', { peer: PEER })).toBe(0);
    expect(valueOf(f, 'metallb_bgp_announced_prefixes_total', { peer: PEER })).toBe(0);
    expect(valueOf(f, 'metallb_bgp_pending_prefixes_total', { peer: PEER })).toBe(2);
  });
});
