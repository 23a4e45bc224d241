import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

/**
 * The speaker pod on the node serving c1 crashes (deleted without grace); its DaemonSet starts a new one.
 * The node itself lives on, so the other speakers must take the address over or the node keep it,
 * without clients noticing more than a blip, whichever way lblab's membership decides.
 */
export default scenario('kubernetes: speaker crash', { needs: ['kubernetes', 'l2'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const victim = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  // Long enough to cover the replacement pod's start and readiness (its probe waits 10 s at first).
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 25 });
  await lab.sleep(1000);
  await lab.step(`the speaker pod on ${victim} crashes; its DaemonSet replaces it`, () =>
    lab.kubernetes().speakerCrash(victim),
  );
  measureProbe(lab, await probe, 1000);
  lab.gate('outageMs', { below: 1000 });
});
