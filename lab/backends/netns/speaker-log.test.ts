import { describe, expect, it } from 'vitest';
import { describeStall } from '../../../core/runtime/loop-stalls.ts';
import { loopStall, speakerLine } from './speaker-log.ts';

describe('loopStall', () => {
  it('reads back the stall a speaker logged, with its wait for a CPU', () => {
    const line = `2026-11-28T04:15:31.674Z n2 lifecycle: ${describeStall({ ms: 169, ranMs: 40, gcMs: 25, waitedMs: 120 })}`;
    expect(loopStall(line)).toEqual({ ms: 169, waitedMs: 120 });
    expect(loopStall(speakerLine(line).message)).toEqual({ ms: 169, waitedMs: 120 });
  });

  it('counts no wait where the speaker could not tell, and reads nothing from other lines', () => {
    expect(loopStall(describeStall({ ms: 120, gcMs: 0 }))).toEqual({ ms: 120, waitedMs: 0 });
    expect(
      loopStall('2026-11-28T04:15:31.674Z n2 membership: n3: alive → dead (no heartbeat)'),
    ).toBeUndefined();
  });
});
