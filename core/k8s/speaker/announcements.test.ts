/**
 * What the speaker tells the cluster it announces, read from a real BGP speaker (with BFD, against a
 * router on in-memory networks in virtual time) and from Layer-2 election results.
 */
import { describe, expect, it } from 'vitest';
import { lab, peer as bfdPeer } from '../../bfd/engine/pair.test-support.ts';
import { advanceWithPromises } from '../../bgp/session/memory-transport.test-support.ts';
import type { L2Assignment } from '../../l2/election/index.ts';
import { IpAddress } from '../../net/index.ts';
import { bgpWorld, NODE, ROUTER, twoServiceCluster } from '../../speaker/bgp-router.test-support.ts';
import { EngineBfdWatcher } from '../../speaker/engine-bfd-watcher.ts';
import { announcements } from './announcements.ts';

const assignment = (service: string, result: L2Assignment['result']): L2Assignment => ({
  service,
  ips: [IpAddress.parse('198.18.0.200')],
  pool: 'p',
  result,
});

describe('announcements', () => {
  it('Layer 2: a status per service this node won (interfaces sorted); a failure only when no node can announce', () => {
    const out = announcements('n1', [
      assignment('shop/web', { owner: 'n1', interfaces: ['eth1', 'eth0'], candidates: ['n1'], reason: 'r' }),
      assignment('shop/db', { owner: 'n2', interfaces: ['eth0'], candidates: ['n2', 'n1'], reason: 'r' }),
      assignment('shop/nope', { owner: undefined, cause: 'no-candidates', reason: 'no node has eth9' }),
      assignment('shop/idle', { owner: undefined, cause: 'no-endpoints', reason: 'no endpoints' }),
    ]);
    expect(out.statuses).toEqual([
      { protocol: 'layer2', serviceNamespace: 'shop', serviceName: 'web', interfaces: ['eth0', 'eth1'] },
    ]);
    expect([...out.failures]).toEqual([['shop/nope', 'no node can announce it in layer2: no node has eth9']]);
  });

  it('BGP: a status per advertised service naming its BGPPeers; failing while no session is up, not once it is', async () => {
    const bfdLab = lab();
    const { clock } = bfdLab;
    const bfd = new EngineBfdWatcher(bfdLab.engine(NODE), () => undefined);
    const theirs = bfdLab.engine(ROUTER);
    const { speaker } = bgpWorld({ clock, bfd, cluster: twoServiceCluster });
    let changes = 0;
    speaker.onChange(() => changes++);
    const before = announcements('n1', [], speaker);
    expect(before.statuses).toEqual([
      { protocol: 'bgp', serviceNamespace: 'default', serviceName: 'api', peers: ['r1'] },
      { protocol: 'bgp', serviceNamespace: 'default', serviceName: 'web', peers: ['r1'] },
    ]);
    expect(before.failures.get('default/api')).toBe('no BGP session is up to advertise it over (BGPPeer r1)');
    await theirs.add(bfdPeer(ROUTER, NODE));
    const seen = changes;
    await advanceWithPromises(clock, 3000);
    expect(speaker.sessionUp('r1')).toBe(true);
    expect(changes).toBeGreaterThan(seen);
    const after = announcements('n1', [], speaker);
    expect(after.statuses).toEqual(before.statuses);
    expect(after.failures.size).toBe(0);
  });
});
