import { describe, expect, it } from 'vitest';
import { allDone } from './all-done.ts';

const after = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) =>
    setTimeout(() => (fail ? reject(new Error(String(value))) : resolve(value)), ms),
  );

describe('allDone', () => {
  it('gives every result in order', async () => {
    expect(await allDone([after(20, 'a'), after(5, 'b')])).toEqual(['a', 'b']);
  });

  it('throws the first failure only once the rest have ended', async () => {
    let slowEnded = false;
    const slow = after(40, 'slow').then((v) => ((slowEnded = true), v));
    await expect(allDone([after(5, 'broken', true), slow])).rejects.toThrow('broken');
    expect(slowEnded).toBe(true);
  });
});
