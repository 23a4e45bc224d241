import { describe, expect, it } from 'vitest';
import { IpAddress } from '../../net/index.ts';
import { BurstSchedule } from './burst-schedule.ts';

const vip = (k: number) => IpAddress.parse(`198.18.1.${k}`);

/** Takes every step due by `nowMs`, as "address step" strings. */
function drain(s: BurstSchedule, nowMs: number): string[] {
  const out: string[] = [];
  for (let step = s.takeDue(nowMs); step !== undefined; step = s.takeDue(nowMs))
    out.push(`${step.vip} ${step.step}@${step.dueMs}`);
  return out;
}

describe('BurstSchedule', () => {
  it('gives each burst its steps at its start plus each offset, earliest first across bursts', () => {
    const s = new BurstSchedule([100, 300, 1000]);
    s.start(vip(1), 'eth0', 0);
    s.start(vip(2), 'eth0', 250);
    expect(s.nextDueMs()).toBe(100);
    expect(drain(s, 99)).toEqual([]);
    expect(drain(s, 350)).toEqual(['198.18.1.1 0@100', '198.18.1.1 1@300', '198.18.1.2 0@350']);
    expect(drain(s, 5000)).toEqual(['198.18.1.2 1@550', '198.18.1.1 2@1000', '198.18.1.2 2@1250']);
    expect(s.nextDueMs()).toBeUndefined();
  });

  it('a stopped burst sends no more steps, and when none is under way nothing is due', () => {
    const s = new BurstSchedule([100, 300]);
    s.start(vip(1), 'eth0', 0);
    s.start(vip(1), 'eth1', 0);
    s.stop(vip(1), 'eth0');
    expect(drain(s, 1000).map((x) => x.split(' ')[1])).toEqual(['0@100', '1@300']);
    s.start(vip(2), 'eth0', 0);
    s.stop(vip(2), 'eth0');
    expect(s.nextDueMs()).toBeUndefined();
  });

  it('starting a burst under way starts it over, once', () => {
    const s = new BurstSchedule([100, 300]);
    s.start(vip(1), 'eth0', 0);
    expect(drain(s, 100)).toEqual(['198.18.1.1 0@100']);
    s.start(vip(1), 'eth0', 200);
    expect(drain(s, 10_000)).toEqual(['198.18.1.1 0@300', '198.18.1.1 1@500']);
  });

  it('keeps working through many thousands of bursts started and taken in waves', () => {
    const s = new BurstSchedule([10]);
    let taken = 0;
    for (let wave = 0; wave < 5; wave++) {
      for (let k = 0; k < 3000; k++)
        s.start(IpAddress.parse(`198.18.${wave}.${k % 250}`), `e${k}`, wave * 100);
      taken += drain(s, wave * 100 + 10).length;
    }
    expect(taken).toBe(15_000);
    expect(s.nextDueMs()).toBeUndefined();
  });
});
