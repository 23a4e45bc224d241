import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe } from '../served.ts';
import { client, router, untilRouted } from './routed.ts';

export default scenario(
  'bgp: ETP=Local endpoints move',
  { needs: ['bgp'], topology: 'topologies/bgp-three-nodes.yaml' },
  async (lab) => {
    // externalTrafficPolicy: Local — only nodes with a ready endpoint announce the address, and a node
    // whose endpoint is gone drops the traffic. The workload moves n1 → n2 the way a rollout does: the
    // new endpoint is ready before the old one ends.
    const vip = lab.service('local-web').address();
    await untilRouted(lab, vip, 1);
    const probe = lab.client(client).probe(vip, { ratePps: 1000, seconds: 6 });
    await lab.sleep(1000);
    await lab.step('a second endpoint becomes ready on n2', async () => {
      await lab.service('local-web').moveEndpoints(['n1', 'n2']);
      await lab.router(router).expectEcmp(vip, 2, { withinMs: 2000 });
    });
    await lab.step('the endpoint on n1 ends', () => lab.service('local-web').moveEndpoints(['n2']));
    const summary = await probe;
    measureProbe(lab, summary, 1000);
    await lab.step(`${router} forwards only to n2`, async () => {
      const hops = await lab.router(router).nexthops(vip);
      if (hops.join() !== 'n2') throw new Error(`${router} forwards to ${hops.join(', ') || 'nobody'}`);
    });
    lab.gate('outageMs', { below: 1000 });
  },
);
