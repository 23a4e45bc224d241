import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

export default scenario('l2: node crash', { needs: ['l2', 'kill'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const victim = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 4 });
  await lab.sleep(1000);
  await lab.step(`${victim} dies (speaker gone, links down)`, () => lab.node(victim).kill());
  const summary = await probe;
  measureProbe(lab, summary, 1000);
  await lab.step('another node serves c1', async () => {
    const now = await lab.client('c1').carrier(vip);
    if (now === victim) throw new Error(`${victim} still carries the traffic`);
  });
  lab.gate('outageMs', { below: 1000 });
});
