import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

const ratePps = 200;
/** A rolling update of three speakers takes about a minute on kind (each pod: handover, start, readiness). */
const probeSeconds = 120;

/**
 * An upgrade as a user does it: the speaker DaemonSet's image changes to a new tag and Kubernetes rolls
 * the pods one by one. Each leaving speaker hands its addresses over before it stops: nothing is lost.
 */
export default scenario(
  'kubernetes: graceful upgrade (image change)',
  { needs: ['kubernetes', 'l2'] },
  async (lab) => {
    const vip = lab.service('web').address();
    await untilServed(lab, 'c1', vip);
    const probe = lab.client('c1').probe(vip, { ratePps, seconds: probeSeconds });
    await lab.sleep(1000);
    const started = lab.now();
    await lab.step('change the speaker image; the DaemonSet rolls every pod', () =>
      lab.kubernetes().upgrade(),
    );
    const upgradeMs = lab.now() - started;
    lab.measure('upgradeMs', Math.round(upgradeMs));
    measureProbe(lab, await probe, ratePps);
    await lab.step('the rolling update ended while the client was probing', () => {
      if (upgradeMs + 1000 > probeSeconds * 1000)
        throw new Error(
          `the upgrade took ${Math.round(upgradeMs)} ms, longer than the ${probeSeconds} s probed`,
        );
    });
    lab.gate('lostProbes', { equals: 0 });
  },
);
