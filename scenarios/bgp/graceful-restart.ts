import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe } from '../served.ts';
import { client, router, untilRouted } from './routed.ts';

const pauseMs = 3000;

export default scenario(
  'bgp: graceful restart rolling upgrade',
  { needs: ['bgp', 'restart'], topology: 'topologies/bgp-three-nodes.yaml' },
  async (lab) => {
    const vip = lab.service('web').address();
    const nodes = lab.nodes();
    await untilRouted(lab, vip, nodes.length);
    // Each speaker stops the graceful-restart way (RFC 4724: no NOTIFICATION, routes left at r1 as
    // stale, forwarding untouched) and comes back with the R bit; r1 keeps forwarding throughout.
    const seconds = 1 + (nodes.length * (pauseMs + 2500)) / 1000;
    const probe = lab.client(client).probe(vip, { ratePps: 1000, seconds });
    await lab.sleep(500);
    await lab.step('restart every speaker, one at a time', () => lab.rollingRestart(pauseMs));
    const summary = await probe;
    measureProbe(lab, summary, 1000);
    await lab.step(`${router} still forwards to every node`, () =>
      lab.router(router).expectEcmp(vip, nodes.length, { withinMs: 10_000 }),
    );
    lab.gate('lostProbes', { equals: 0 });
  },
);
