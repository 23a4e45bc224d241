import { describe, expect, it } from 'vitest';
import { runCapturing } from './run.test-support.ts';

describe('lblab run --repeat', () => {
  it.each(['0', '1001', '2.5', 'many', ''])(
    'refuses %j before running anything, saying what it takes',
    async (repeat) => {
      const { code, lines } = await runCapturing({ out: '/nonexistent', repeat });
      expect(code).toBe(2);
      expect(lines).toEqual([
        `lblab run: --repeat must be a whole number 1..1000, not ${JSON.stringify(repeat)}`,
      ]);
    },
  );
});
