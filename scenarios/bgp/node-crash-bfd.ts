import { scenario } from '../../lab/runner/scenario.ts';
import { crashCarrier } from './routed.ts';

export default scenario(
  'bgp: node crash with BFD',
  { needs: ['bgp', 'bfd', 'kill'], topology: 'topologies/bgp-three-nodes.yaml' },
  async (lab) => {
    // BFD at 100 ms × 3 declares the node down in 300 ms; r1 then withdraws it from the ECMP set.
    await crashCarrier(lab, 'web', { probeSeconds: 4, detectionLimitMs: 1000 });
    lab.gate('outageMs', { below: 1000 });
  },
);
