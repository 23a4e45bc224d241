import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../result.ts';
import { sampleRun, scenario } from '../sample-result.test-support.ts';
import { loadBaseline, withBaseline } from './baseline.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-baseline-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function run(runId: string, startedAt: string, outageMs: number, backend = 'emulated'): RunResult {
  return {
    ...sampleRun(),
    runId,
    backend,
    startedAt,
    scenarios: [scenario({ name: 'l2: node crash', measurements: { outageMs } })],
  };
}
async function store(path: string, content: RunResult | string): Promise<string> {
  const file = join(dir, path);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('--baseline DIR', () => {
  it('compares with the newest stored run on the same backend and keeps every run as history, oldest first', async () => {
    await store('a/result.json', run('a', '2024-05-01T10:00:00Z', 200));
    await store('b/result.json', run('b', '2024-05-03T10:00:00Z', 210));
    await store('nightly/c/result.json', run('c', '2024-05-02T10:00:00Z', 190));
    await store('d/result.json', run('d', '2024-05-04T10:00:00Z', 150, 'netns'));
    await store('e/f/g/result.json', run('g', '2024-05-05T10:00:00Z', 100)); // three levels: not searched
    const loaded = await loadBaseline(dir, 'emulated');
    const out = withBaseline(run('now', '2024-05-06T10:00:00Z', 220), loaded, undefined);
    expect(out.baseline).toMatchObject({ runId: 'b', file: join(dir, 'b/result.json') });
    expect(out.history!.map((h) => [h.runId, h.backend, h.value])).toEqual([
      ['a', 'emulated', 200],
      ['c', 'emulated', 190],
      ['b', 'emulated', 210],
      ['d', 'netns', 150],
      ['now', 'emulated', 220],
    ]);
  });

  it('is not the run itself when the run is stored there already (re-rendering)', async () => {
    await store('a/result.json', run('a', '2024-05-01T10:00:00Z', 200));
    const now = run('now', '2024-05-06T10:00:00Z', 220);
    await store('now/result.json', now);
    const out = withBaseline(now, await loadBaseline(dir, 'emulated', 'now'), undefined);
    expect(out.baseline!.runId).toBe('a');
    expect(out.history!.filter((h) => h.runId === 'now')).toHaveLength(1);
  });

  it('says when no run on this backend is stored there', async () => {
    await store('d/result.json', run('d', '2024-05-04T10:00:00Z', 150, 'netns'));
    await expect(loadBaseline(dir, 'emulated')).rejects.toThrow(
      `${dir}: no earlier run on backend emulated (1 result.json found one and two levels deep, on netns)`,
    );
  });

  it('names a stored file that is not JSON, or of another schema version', async () => {
    const bad = await store('x/result.json', '{"schemaVersion": 1,');
    await expect(loadBaseline(dir, 'emulated')).rejects.toThrow(new RegExp(`^${bad}: not JSON`));
    await store(
      'x/result.json',
      JSON.stringify({ ...run('x', '2024-05-01T10:00:00Z', 1), schemaVersion: 2 }),
    );
    await expect(loadBaseline(dir, 'emulated')).rejects.toMatchObject({
      code: 'RESULT_FILE_INVALID',
      message: `${bad}: schemaVersion 2; this lblab reads schemaVersion 1`,
    });
  });
});

describe('--baseline FILE', () => {
  it('is the baseline, with no history (not even one kept from an earlier comparison)', async () => {
    const file = await store('base.json', run('a', '2024-05-01T10:00:00Z', 200));
    const out = withBaseline(
      { ...run('now', '2024-05-06T10:00:00Z', 220), history: [] },
      await loadBaseline(file, 'emulated'),
      undefined,
    );
    expect(out.baseline!.runId).toBe('a');
    expect(out.history).toBeUndefined();
  });

  it('must be on the same backend and exist', async () => {
    const file = await store('base.json', run('a', '2024-05-01T10:00:00Z', 200, 'netns'));
    await expect(loadBaseline(file, 'emulated')).rejects.toMatchObject({
      code: 'BASELINE_NOT_FOUND',
      message: `${file}: a run on backend netns; this run is on emulated, and a baseline must be on the same backend`,
    });
    await expect(loadBaseline(join(dir, 'missing.json'), 'emulated')).rejects.toThrow(
      `${join(dir, 'missing.json')}: cannot read it (ENOENT)`,
    );
  });
});
