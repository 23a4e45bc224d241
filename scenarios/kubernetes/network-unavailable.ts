import { scenario } from '../../lab/runner/scenario.ts';
import { moveOffNode } from './node-excluded.ts';

export default scenario('kubernetes: node NetworkUnavailable', { needs: ['kubernetes', 'l2'] }, (lab) =>
  moveOffNode(lab, 'NetworkUnavailable=True', (node, on) => lab.kubernetes().networkUnavailable(node, on)),
);
