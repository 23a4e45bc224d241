import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

const outageMs = 10_000;

/**
 * The API server goes away (the control plane's container paused) while clients use the Service. The
 * data plane must not depend on it: the speakers keep announcing what they announce, nothing moves and
 * nothing is lost, and they pick up again when it returns.
 */
export default scenario('kubernetes: API server outage', { needs: ['kubernetes', 'l2'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const carrier = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: outageMs / 1000 + 4 });
  await lab.sleep(1000);
  try {
    await lab.step('the API server stops answering', () => lab.kubernetes().apiServerOutage(true));
    await lab.sleep(outageMs);
  } finally {
    await lab.kubernetes().apiServerOutage(false);
  }
  measureProbe(lab, await probe, 1000);
  await lab.step(`${carrier} still serves c1`, async () => {
    const now = await lab.client('c1').carrier(vip);
    if (now !== carrier)
      throw new Error(`the address moved from ${carrier} to ${now} while the API was away`);
  });
  lab.gate('lostProbes', { equals: 0 });
});
