import { scenario } from '../../lab/runner/scenario.ts';
import { crashCarrier } from './routed.ts';

export default scenario(
  'bgp: node crash without BFD (hold timer 3 s)',
  { needs: ['bgp', 'kill'], topology: 'topologies/bgp-hold-timer.yaml' },
  async (lab) => {
    // Only the hold timer notices: 3 s after the last KEEPALIVE (sent every second), so 2–3 s after the
    // crash. This is the figure BFD exists to beat.
    await crashCarrier(lab, 'web', { probeSeconds: 7, detectionLimitMs: 4000 });
    lab.gate('outageMs', { below: 4000 });
  },
);
