/**
 * A speaker with thousands of Services on a machine where work takes time: the election and its log are
 * spread over many short turns of the event loop, the announcer hears the result before the log is
 * written, and a node's death that arrives while the log is written does not take the result back.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../cluster/types.ts';
import { endpoint, node, service, slice } from '../l2/election/test-fixtures.ts';
import type { Change, Member } from '../membership/index.ts';
import { TURN_BUDGET_MS } from '../runtime/time-slice.ts';
import { WorkingLoop } from '../runtime/working-loop.test-support.ts';
import { L2Speaker } from './l2-speaker.ts';
import { l2Config } from './l2-world.test-support.ts';
import { interfacesMeta } from './published-interfaces.ts';
import { Prefix } from '../net/index.ts';

const names = ['n1', 'n2', 'n3'];
const COUNT = 6000;
const pool = '198.18.32.0/19';

function manyServices(): ClusterSnapshot {
  const ip = (k: number) => `198.18.${32 + (k >> 8)}.${k & 255}`;
  return {
    namespaces: [],
    nodes: names.map((n) => node(n)),
    services: Array.from({ length: COUNT }, (_, k) => service(`s${k}`, [ip(k)], { namespace: 'bulk' })),
    endpointSlices: Array.from({ length: COUNT }, (_, k) =>
      slice(
        names.map((n) => endpoint(n)),
        `s${k}`,
        'bulk',
      ),
    ),
  };
}

function speakerOn(loop: WorkingLoop, logOwnership?: 'own-services') {
  const events: string[] = [];
  const alive = new Set(names);
  const meta = interfacesMeta([{ name: 'eth0', prefixes: [Prefix.parse(pool)] }]);
  const members = (): Member[] =>
    [...alive].map((name) => ({ name, address: '198.18.0.1', state: 'alive', incarnation: 0, meta }));
  let changed: (c: Change) => void = () => {};
  let owned = 0;
  const speaker = new L2Speaker({
    node: 'n1',
    clock: loop,
    membership: {
      alive: () => new Set(alive),
      members,
      synced: () => true,
      onChange: (l) => ((changed = l), () => {}),
      onSynced: () => () => {},
      leave: () => {},
      stop: () => {},
    },
    announcer: {
      setOwned: (vips) => {
        owned = vips.length;
        events.push(`owned ${vips.length}`);
      },
      reannounce: () => {},
      close: () => {},
    },
    log: (e) => events.push(`${e.kind}: ${e.message}`),
    ...(logOwnership && { logOwnership }),
  });
  const die = (name: string) => {
    alive.delete(name);
    changed({ node: name, from: 'alive', to: 'dead', reason: 'test' } as Change);
  };
  return { speaker, events, die, owned: () => owned };
}

describe('L2Speaker on a clock that moves with the work', () => {
  it(`elects over ${COUNT} Services in many turns, none much longer than the budget, and announces before it logs`, () => {
    const loop = new WorkingLoop();
    const { speaker, events } = speakerOn(loop);
    speaker.setConfig(l2Config(pool));
    speaker.setCluster(manyServices());
    loop.run();
    expect(speaker.assignments()).toHaveLength(COUNT);
    expect(loop.turns.length).toBeGreaterThan(10);
    // A turn stops once the budget has passed, so it overruns by one step at most: a few log lines here.
    expect(loop.longestTurnMs()).toBeLessThan(1.5 * TURN_BUDGET_MS);
    const firstLine = events.findIndex((e) => e.startsWith('ownership: '));
    expect(events.findIndex((e) => e.startsWith('owned '))).toBeLessThan(firstLine);
    expect(events.filter((e) => e.startsWith('ownership: '))).toHaveLength(101);
  });

  it('a death learned while the log is written: the announcement stands, the log is finished, then the next election runs', () => {
    const loop = new WorkingLoop();
    const { speaker, events, die, owned } = speakerOn(loop);
    speaker.setConfig(l2Config(pool));
    speaker.setCluster(manyServices());
    loop.run(() => events.some((e) => e.startsWith('ownership: ')));
    const before = owned();
    expect(before).toBeGreaterThan(0);
    die('n2');
    loop.run();
    const summaries = events.filter((e) => / more ownership changes after /.test(e));
    // The first election's log ends with its summary; the death's election then moves n2's Services.
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toMatch(
      /after configuration changed, cluster changed; n1 now announces \d+ of 6000/,
    );
    expect(summaries[1]).toMatch(/after n2 dead;/);
    expect(owned()).toBeGreaterThan(before);
    expect(speaker.owned().length).toBe(owned());
  });

  it('logging only its own Services, a speaker logs and counts only the changes that concern it', () => {
    const loop = new WorkingLoop();
    const { speaker, events, die } = speakerOn(loop, 'own-services');
    speaker.setConfig(l2Config(pool));
    speaker.setCluster(manyServices());
    loop.run();
    const ours = speaker.owned().length;
    const lines = () => events.filter((e) => e.startsWith('ownership: ') && !/ more ownership /.test(e));
    expect(lines()).toHaveLength(100);
    expect(lines().every((e) => / n1 after /.test(e))).toBe(true);
    expect(events.at(-1)).toBe(
      `ownership: … and ${ours - 100} more ownership changes after configuration changed, cluster changed; n1 now announces ${ours} of ${COUNT} services`,
    );
    events.length = 0;
    die('n2');
    loop.run();
    // n1 takes some of n2's Services; what n3 takes is not n1's to log.
    const gained = speaker.owned().length - ours;
    expect(gained).toBeGreaterThan(0);
    const after = lines();
    expect(after.length).toBe(Math.min(gained, 100));
    expect(after.every((e) => / n1 \(was n2\) after n2 dead/.test(e))).toBe(true);
  });
});
