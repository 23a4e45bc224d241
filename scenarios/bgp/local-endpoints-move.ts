import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe } from '../served.ts';
import { client, router, untilRouted } from './routed.ts';

export default scenario(
  'bgp: ETP=Local endpoints move',
  { needs: ['bgp'], topology: 'topologies/bgp-three-nodes.yaml' },
  async (lab) => {
    // externalTrafficPolicy: Local — only nodes with a ready endpoint announce the address, and a node
    // whose endpoint is gone drops the traffic. The workload moves the way a rollout moves it: a new
    // endpoint on n2 is ready before the old one ends.
    const vip = lab.service('local-web').address();
    await untilRouted(lab, vip, 1);
    const probe = lab.client(client).probe(vip, { ratePps: 1000, seconds: 6 });
    await lab.sleep(1000);
    await lab.step('a second endpoint becomes ready on n2', async () => {
      await lab.service('local-web').moveEndpoints(['n1', 'n2']);
      await lab.router(router).expectEcmp(vip, 2, { withinMs: 2000 });
    });
    // The endpoint that ends is the one serving c1, so the figure is the withdraw's path (speaker, r1's
    // best path, its FIB) and not the luck of r1's ECMP hash.
    const leaving = await lab.step(`find the node serving ${client}`, () => lab.client(client).carrier(vip));
    const staying = leaving === 'n1' ? 'n2' : 'n1';
    await lab.step(`the endpoint on ${leaving} ends`, () =>
      lab.service('local-web').moveEndpoints([staying]),
    );
    const summary = await probe;
    measureProbe(lab, summary, 1000);
    await lab.step(`${router} forwards only to ${staying}`, async () => {
      const hops = await lab.router(router).nexthops(vip);
      if (hops.join() !== staying) throw new Error(`${router} forwards to ${hops.join(', ') || 'nobody'}`);
    });
    lab.gate('outageMs', { below: 1000 });
  },
);
