import { scenario } from '../../lab/runner/scenario.ts';
import { expectCutFrom, measureProbe, untilServedByOne } from '../served.ts';

export default scenario('l2: speaker hang', { needs: ['l2', 'hang'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServedByOne(lab, 'c1', vip);
  const victim = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 4 });
  await lab.sleep(1000);
  await lab.step(`${victim} freezes silently (speaker stopped, its traffic dropped)`, () =>
    lab.node(victim).hang(),
  );
  const summary = await probe;
  measureProbe(lab, summary, 1000);
  expectCutFrom(summary, victim, 'c1');
  await lab.step(`${victim} resumes and one node announces the address`, async () => {
    await lab.node(victim).resume();
    await lab.eventually('a single announcer', async () => (await lab.announcers(vip)).length === 1, {
      withinMs: 2000,
    });
  });
  lab.gate('outageMs', { below: 1000 });
});
