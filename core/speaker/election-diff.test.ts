import { describe, expect, it } from 'vitest';
import type { L2Assignment } from '../l2/election/index.ts';
import { IpAddress } from '../net/index.ts';
import { toEnd } from '../runtime/time-slice.ts';
import {
  electionDiff as diffInSteps,
  ownedBy,
  ownedInSteps,
  stepsConcerning as concerningInSteps,
} from './election-diff.ts';

const electionDiff = (before: readonly L2Assignment[], after: readonly L2Assignment[]) =>
  toEnd(diffInSteps(before, after));
const stepsConcerning = (diff: ReturnType<typeof electionDiff>, node: string) =>
  toEnd(concerningInSteps(diff, node));

const at = (service: string, owner: string | undefined, ip = '198.18.0.100'): L2Assignment => ({
  service,
  ips: [IpAddress.parse(ip)],
  pool: 'lan',
  result:
    owner === undefined
      ? { owner: undefined, cause: 'no-candidates', reason: 'nobody' }
      : ({ owner, interfaces: ['eth0'], reason: 'elected', candidates: [owner] } as never),
});

describe('electionDiff', () => {
  const before = [at('a/gone', 'n1'), at('a/moved', 'n1'), at('a/renumbered', 'n2'), at('a/same', 'n2')];
  const after = [
    at('a/moved', 'n3'),
    at('a/new', 'n1'),
    at('a/renumbered', 'n2', '198.18.0.101'),
    at('a/same', 'n2'),
  ];

  it('names each service whose owner or addresses changed, in service order, and nothing else', () => {
    const steps = electionDiff(before, after).map((s) =>
      s.kind === 'gone' ? ['gone', s.was.service] : ['owner', s.now.service, s.was, s.now.result.owner],
    );
    expect(steps).toEqual([
      ['gone', 'a/gone'],
      ['owner', 'a/moved', 'n1', 'n3'],
      ['owner', 'a/new', undefined, 'n1'],
      ['gone', 'a/renumbered'],
      ['owner', 'a/renumbered', undefined, 'n2'],
    ]);
  });

  it('works a pair out once: every speaker holding the same two elections reads the same steps', () => {
    expect(electionDiff(before, after)).toBe(electionDiff(before, after));
    expect(electionDiff(after, before)).not.toBe(electionDiff(before, after));
  });

  it('gives each node what it won, the same array for the same election', () => {
    expect(ownedBy(after, 'n2').map((a) => a.service)).toEqual(['a/renumbered', 'a/same']);
    expect(ownedBy(after, 'n2')).toBe(ownedBy(after, 'n2'));
    expect(ownedBy(after, 'n9')).toEqual([]);
  });

  it('finds the steps that concern a node (it owns or owned the service), in order, once per diff', () => {
    const diff = electionDiff(before, after);
    // n1 lost a/gone and a/moved and won a/new; n2 lost and won a/renumbered; n3 won a/moved.
    expect(stepsConcerning(diff, 'n1')).toEqual([0, 1, 2]);
    expect(stepsConcerning(diff, 'n2')).toEqual([3, 4]);
    expect(stepsConcerning(diff, 'n3')).toEqual([1]);
    expect(stepsConcerning(diff, 'n9')).toEqual([]);
    expect(stepsConcerning(diff, 'n1')).toBe(stepsConcerning(diff, 'n1'));
  });

  it('walks 10,000 services in steps of a few hundred, and remembers only a walk that ended', () => {
    const many = (owner: string) =>
      Array.from({ length: 10_000 }, (_, k) => at(`b/s${String(k).padStart(5, '0')}`, k % 3 ? owner : 'n1'));
    const [was, now] = [many('n2'), many('n3')];
    const stepsOf = (walk: Generator<void, unknown>) => {
      let yields = 0;
      while (!walk.next().done) yields++;
      return yields;
    };
    // An abandoned walk (its job dropped after one step) leaves nothing half-done behind.
    diffInSteps(was, now).next();
    expect(stepsOf(diffInSteps(was, now))).toBe(20);
    const diff = electionDiff(was, now);
    expect(diff).toHaveLength(6666);
    expect(stepsOf(diffInSteps(was, now))).toBe(0);
    expect(stepsOf(concerningInSteps(diff, 'n2'))).toBe(13);
    expect(stepsOf(concerningInSteps(diff, 'n3'))).toBe(0);
    expect(stepsOf(ownedInSteps(now, 'n3'))).toBe(20);
    expect(ownedBy(now, 'n3')).toHaveLength(6666);
  });
});
