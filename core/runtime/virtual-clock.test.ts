import { describe, expect, it } from 'vitest';
import { NamedTimers } from './clock.ts';
import { VirtualClock } from './virtual-clock.ts';

describe('VirtualClock', () => {
  it('fires timers in due order, ties in the order they were set, with now() at the due time', () => {
    const clock = new VirtualClock(1000);
    const seen: string[] = [];
    const note = (tag: string) => () => seen.push(`${tag}@${clock.now()}`);
    clock.setTimer('c', 30, note('c'));
    clock.setTimer('a', 10, note('a'));
    clock.setTimer('b1', 20, note('b1'));
    clock.setTimer('b2', 20, note('b2'));
    clock.advance(25);
    expect(seen).toEqual(['a@1010', 'b1@1020', 'b2@1020']);
    expect(clock.now()).toBe(1025);
    clock.advance(100);
    expect(seen.at(-1)).toBe('c@1030');
  });

  it('runs timers that timers set within the same advance, and not cancelled ones', () => {
    const clock = new VirtualClock();
    const seen: number[] = [];
    const cancelled = clock.setTimer('never', 5, () => seen.push(-1));
    clock.setTimer('first', 10, () => {
      seen.push(clock.now());
      clock.setTimer('chained', 10, () => seen.push(clock.now()));
    });
    cancelled.cancel();
    clock.advance(20);
    expect(seen).toEqual([10, 20]);
    expect(clock.nextDue()).toBeUndefined();
  });

  it('lists pending timers by name and bounds a runaway re-arming loop', () => {
    const clock = new VirtualClock();
    const tick = () => clock.setTimer('tick', 1, tick);
    tick();
    clock.setTimer('hold', 90_000, () => {});
    expect(clock.pending()).toEqual([
      { name: 'tick', dueMs: 1 },
      { name: 'hold', dueMs: 90_000 },
    ]);
    expect(clock.runAll(500)).toBe(500);
    expect(clock.now()).toBe(500);
  });

  it('refuses to go back in time', () => {
    const clock = new VirtualClock(10);
    expect(() => clock.advanceTo(5)).toThrowError(RangeError);
  });
});

describe('NamedTimers', () => {
  it('re-arming a name replaces the earlier timer; disarm stops it', () => {
    const clock = new VirtualClock();
    const timers = new NamedTimers<'hold' | 'keepalive'>(clock, 'peer1:');
    const fired: string[] = [];
    timers.arm('hold', 100, () => fired.push(`hold@${clock.now()}`));
    timers.arm('keepalive', 30, () => fired.push(`keepalive@${clock.now()}`));
    clock.advance(50);
    timers.arm('hold', 100, () => fired.push(`hold@${clock.now()}`));
    expect(clock.pending().map((p) => p.name)).toEqual(['peer1:hold']);
    clock.advance(200);
    expect(fired).toEqual(['keepalive@30', 'hold@150']);
    expect(timers.isArmed('hold')).toBe(false);
    timers.arm('keepalive', 10, () => fired.push('late'));
    timers.disarmAll();
    clock.advance(50);
    expect(fired).not.toContain('late');
  });
});
