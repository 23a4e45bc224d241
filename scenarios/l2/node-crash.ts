import type { ScenarioLab } from '../../lab/runner/scenario-lab.ts';
import { scenario } from '../../lab/runner/scenario.ts';
import { expectCutFrom, measureProbe, untilServedByOne } from '../served.ts';

/** The node serving c1 dies; another takes the Service address over (ARP for IPv4, NDP for IPv6). */
export async function crashCarrier(lab: ScenarioLab, family: 4 | 6): Promise<void> {
  const vip = lab.service('web').address(family);
  await untilServedByOne(lab, 'c1', vip);
  const victim = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 4 });
  await lab.sleep(1000);
  await lab.step(`${victim} dies (speaker gone, links down)`, () => lab.node(victim).kill());
  const summary = await probe;
  measureProbe(lab, summary, 1000);
  expectCutFrom(summary, victim, 'c1');
  await lab.step('another node serves c1', async () => {
    const now = await lab.client('c1').carrier(vip);
    if (now === victim) throw new Error(`${victim} still carries the traffic`);
  });
  lab.gate('outageMs', { below: 1000 });
}

export default scenario('l2: node crash', { needs: ['l2', 'kill'] }, (lab) => crashCarrier(lab, 4));
