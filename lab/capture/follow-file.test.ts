import { appendFile, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureFileError } from './errors.ts';
import { followFile } from './follow-file.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-follow-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (b: Uint8Array) => Buffer.from(b).toString();

/** Everything followFile yields, as text, and how long it took to end. */
async function collect(path: string, o: Parameters<typeof followFile>[1]) {
  const start = performance.now();
  const pieces: string[] = [];
  for await (const piece of followFile(path, o)) pieces.push(text(piece));
  return { pieces, ms: performance.now() - start };
}

describe('following a file as it grows', () => {
  it('waits for the file, yields each append as it comes, and ends once it stops growing', async () => {
    const path = join(dir, 'grows');
    const seen: string[] = [];
    const follower = (async () => {
      for await (const piece of followFile(path, { idleMs: 400, pollMs: 10 })) seen.push(text(piece));
      return performance.now();
    })();
    await sleep(50);
    await writeFile(path, 'one');
    await until(() => seen.join('') === 'one');
    await appendFile(path, 'two');
    await until(() => seen.join('') === 'onetwo');
    const lastWrite = performance.now();
    const ended = await follower;
    expect(seen).toEqual(['one', 'two']);
    // Ended by the idle timeout, counted from the last growth.
    expect(ended - lastWrite).toBeGreaterThanOrEqual(350);
    expect(ended - lastWrite).toBeLessThan(2000);
  });

  it('names the file that never appears within the timeout', async () => {
    const path = join(dir, 'never');
    await expect(collect(path, { idleMs: 100, pollMs: 10 })).rejects.toThrow(
      new CaptureFileError(path, 'no such file (waited 0.1 s for it to appear)'),
    );
  });

  it('fails when the file shrinks under it (truncated or replaced)', async () => {
    const path = join(dir, 'shrinks');
    await writeFile(path, 'abcdef');
    const pieces: string[] = [];
    const run = (async () => {
      for await (const piece of followFile(path, { idleMs: 2000, pollMs: 10 })) pieces.push(text(piece));
    })();
    await until(() => pieces.length === 1);
    await truncate(path, 2);
    await expect(run).rejects.toThrow(`${path}: cannot read the capture: it shrank from 6 to 2 bytes`);
  });

  it('reads what is there once more and ends when the signal aborts', async () => {
    const path = join(dir, 'stopped');
    await writeFile(path, 'a');
    const stop = new AbortController();
    const pieces: string[] = [];
    const run = (async () => {
      for await (const piece of followFile(path, { signal: stop.signal, pollMs: 5000 }))
        pieces.push(text(piece));
    })();
    await until(() => pieces.length === 1);
    await appendFile(path, 'b');
    const start = performance.now();
    stop.abort();
    await run;
    // Not a poll interval later: the abort cuts the wait short, and the last append is still read.
    expect(performance.now() - start).toBeLessThan(2000);
    expect(pieces).toEqual(['a', 'b']);
  });
});

async function until(done: () => boolean): Promise<void> {
  for (const deadline = performance.now() + 5000; !done(); await sleep(5)) {
    if (performance.now() > deadline) throw new Error('timed out waiting');
  }
}
