import type { ScenarioLab } from '../../lab/runner/scenario-lab.ts';
import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

/**
 * A node the cluster says must not announce (an operator's label, or a NetworkUnavailable condition)
 * stops being a candidate: the address moves to another node, as MetalLB moves it, and clients follow
 * within an unplanned failover's budget. The node is put back afterwards.
 */
export async function moveOffNode(
  lab: ScenarioLab,
  what: string,
  set: (node: string, on: boolean) => Promise<void>,
): Promise<void> {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const node = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 8 });
  await lab.sleep(1000);
  try {
    await lab.step(`${node}: ${what}`, () => set(node, true));
    await lab.step('another node serves c1', () =>
      lab.eventually(
        `c1's traffic for ${vip} leaves ${node}`,
        async () => (await lab.client('c1').carrier(vip)) !== node,
        { withinMs: 5000, everyMs: 100 },
      ),
    );
    measureProbe(lab, await probe, 1000);
  } finally {
    await set(node, false);
  }
  lab.gate('outageMs', { below: 1000 });
}

export default scenario('kubernetes: node excluded (label)', { needs: ['kubernetes', 'l2'] }, (lab) =>
  moveOffNode(lab, 'excluded from external load balancers', (node, on) => lab.kubernetes().exclude(node, on)),
);
