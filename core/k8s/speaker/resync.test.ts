/**
 * When the API server comes back after an outage, the informers list again and the sources hand the
 * speakers a snapshot equal to the one they had (a fresh copy). That must move nothing: no ownership
 * change, no gratuitous ARP, no announcer update. Three real speakers in virtual time.
 */
import { describe, expect, it } from 'vitest';
import { cluster, world } from '../../speaker/l2-world.test-support.ts';

describe('resync after an API outage', () => {
  it('an equal snapshot (a fresh copy) changes no ownership and sends no gratuitous ARP', () => {
    const w = world(11);
    w.clock.advance(2000);
    const owners = w.answering();
    expect(owners).toHaveLength(1);
    const logged = w.log.length;
    const gratuitous = w.gratuitous.length;
    const counts = w.nodes.map((n) => n.speaker.ownershipCounts());
    const before = w.nodes.map((n) => n.speaker.assignments());
    for (const n of w.nodes) n.speaker.setCluster(structuredClone(cluster()));
    w.clock.advance(2000);
    expect(w.answering()).toEqual(owners);
    expect(w.log.slice(logged).filter((e) => e.kind === 'ownership' || e.kind === 'announcer')).toEqual([]);
    expect(w.gratuitous.length).toBe(gratuitous);
    expect(w.nodes.map((n) => n.speaker.ownershipCounts())).toEqual(counts);
    // The election ran again (a new result), and said the same.
    w.nodes.forEach((n, i) => {
      expect(n.speaker.assignments()).not.toBe(before[i]);
      expect(n.speaker.assignments().map((a) => [a.service, a.result.owner])).toEqual(
        before[i]!.map((a) => [a.service, a.result.owner]),
      );
    });
  });
});
