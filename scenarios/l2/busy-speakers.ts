import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

/** How long each speaker's main loop is busy: what digesting 4000 new Services at once once cost. */
const stallMs = 1500;
/** The speakers get the change one after another, as each notices it: staggered, not all at once. */
const staggerMs = 400;

/**
 * Every speaker's main event loop is busy for 1.5 s in turn (a huge change being digested). Membership
 * and the ARP/NDP answers run on each speaker's liveness thread, so nobody is declared dead, the address
 * stays where it is, and the client notices nothing.
 */
export default scenario('l2: busy speakers', { needs: ['l2', 'stall'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const owner = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const seconds = (lab.nodes().length * staggerMs + stallMs + 1500) / 1000;
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds });
  await lab.sleep(500);
  let changes = 0;
  await lab.step(`each speaker's main loop is busy for ${stallMs} ms, ${staggerMs} ms apart`, async () => {
    for (const n of lab.nodes()) {
      await lab.node(n).stall(stallMs);
      await lab.sleep(staggerMs);
    }
  });
  await lab.step(`${owner} alone announces the address throughout`, async () => {
    // Polled until the last stall is over and a detection time more has passed.
    const until = lab.now() + stallMs + 500;
    while (lab.now() < until) {
      const now = await lab.announcers(vip);
      if (now.length !== 1 || now[0] !== owner) changes++;
      await lab.sleep(20);
    }
  });
  lab.measure('announcerChanges', changes);
  measureProbe(lab, await probe, 1000);
  lab.gate('announcerChanges', { equals: 0 });
  lab.gate('lostProbes', { equals: 0 });
});
