import { describe, expect, it } from 'vitest';
import { run } from './run.ts';

describe('lblab run --repeat', () => {
  it.each(['0', '1001', '2.5', 'many', ''])(
    'refuses %j before running anything, saying what it takes',
    async (repeat) => {
      const lines: string[] = [];
      const sink = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
      const code = await run(
        {
          backend: 'emulated',
          topology: 'topologies/l2-three-nodes.yaml',
          gates: 'reports/gates.yaml',
          out: '/nonexistent',
          repeat,
        },
        sink,
      );
      expect(code).toBe(2);
      expect(lines).toEqual([
        `lblab run: --repeat must be a whole number 1..1000, not ${JSON.stringify(repeat)}`,
      ]);
    },
  );
});
