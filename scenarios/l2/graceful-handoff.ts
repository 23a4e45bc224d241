import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

const pauseMs = 2000;

export default scenario(
  'l2: graceful handoff (rolling restart)',
  { needs: ['l2', 'restart'] },
  async (lab) => {
    const vip = lab.service('web').address();
    await untilServed(lab, 'c1', vip);
    // Probe across the whole rolling restart: every speaker leaves, hands over, and comes back.
    const seconds = 1 + (lab.nodes().length * (pauseMs + 2500)) / 1000;
    const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds });
    await lab.sleep(500);
    await lab.step('restart every speaker, one at a time', () => lab.rollingRestart(pauseMs));
    const summary = await probe;
    measureProbe(lab, summary, 1000);
    lab.gate('lostProbes', { equals: 0 });
  },
);
