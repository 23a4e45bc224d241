import { scenario } from '../../lab/runner/scenario.ts';
import { measureProbe, untilServed } from '../served.ts';

/** Longer than the liveness thread's bound (2 s, `lblab speaker --main-loop-timeout-ms`): stuck, in effect. */
const stuckMs = 8000;

/**
 * The serving node's speaker gets stuck: its main event loop does not run for 8 s (a deadlock, a runaway
 * loop). Its liveness thread stops vouching for it once the bound passes, so another node takes the address
 * over; the stuck node's kernel still delivers what reaches it meanwhile, so the client loses nothing. When
 * the loop runs again the node vouches again and one node announces the address.
 */
export default scenario('l2: speaker main loop stuck', { needs: ['l2', 'stall'] }, async (lab) => {
  const vip = lab.service('web').address();
  await untilServed(lab, 'c1', vip);
  const stuck = await lab.step('find the node serving c1', () => lab.client('c1').carrier(vip));
  const probe = lab.client('c1').probe(vip, { ratePps: 1000, seconds: 5 });
  await lab.sleep(500);
  await lab.step(`${stuck}'s speaker main loop is stuck for ${stuckMs} ms`, () =>
    lab.node(stuck).stall(stuckMs),
  );
  const failoverMs = await lab.step('another node alone announces the address', () =>
    lab.eventually(
      'a single announcer other than the stuck node',
      async () => {
        const now = await lab.announcers(vip);
        return now.length === 1 && now[0] !== stuck;
      },
      { withinMs: 5000, everyMs: 10 },
    ),
  );
  lab.measure('failoverMs', Math.round(failoverMs * 10) / 10);
  measureProbe(lab, await probe, 1000);
  await lab.step(`${stuck}'s main loop runs again and one node announces the address`, () =>
    lab.eventually('a single announcer', async () => (await lab.announcers(vip)).length === 1, {
      withinMs: stuckMs + 3000,
      everyMs: 50,
    }),
  );
  lab.gate('failoverMs', { below: 3000 });
  lab.gate('lostProbes', { equals: 0 });
});
