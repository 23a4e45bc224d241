import { scenario } from '../../lab/runner/scenario.ts';
import { untilServed } from '../served.ts';

export default scenario('l2: partition and heal', { needs: ['l2', 'partition'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const owner = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const others = lab.nodes().filter((n) => n !== owner);
  await lab.partition([owner], others);
  await lab.step('each side of the partition elects its own announcer', () =>
    lab.eventually('two announcers', async () => (await lab.announcers(vip)).length === 2, {
      withinMs: 2000,
    }),
  );
  await lab.heal();
  const convergenceMs = await lab.step('one announcer remains after the heal', () =>
    lab.eventually('a single announcer', async () => (await lab.announcers(vip)).length === 1, {
      withinMs: 3000,
      everyMs: 10,
    }),
  );
  // To 0.1 ms, like outageMs: wall-clock backends measure in fractions no reader needs.
  lab.measure('convergenceMs', Math.round(convergenceMs * 10) / 10);
  const probe = await lab.client('c1').probe(vip, { ratePps: 1000, seconds: 1 });
  lab.measure('lostProbes', probe.lost);
  lab.gate('convergenceMs', { below: 1000 });
});
