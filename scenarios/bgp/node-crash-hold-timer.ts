import { scenario } from '../../lab/runner/scenario.ts';
import { crashCarrier } from './routed.ts';

export default scenario(
  'bgp: node crash without BFD (hold timer 3 s)',
  { needs: ['bgp', 'kill'], topology: 'topologies/bgp-hold-timer.yaml' },
  async (lab) => {
    // Only the hold timer notices: 3 s after the last KEEPALIVE (sent every second), so 2–3 s after the
    // crash, depending on where in the keepalive interval the crash falls. This is the figure BFD exists
    // to beat. Without a drawn moment every run of a speaker with unjittered keepalives (FRR, GoBGP)
    // would crash at the same point of its interval, and the comparison would measure the lab's timing.
    await crashCarrier(lab, 'web', { probeSeconds: 7, detectionLimitMs: 4000, landsWithinMs: 1000 });
    lab.gate('outageMs', { below: 4000 });
  },
);
