import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startLblab } from '../run-lblab.test-support.ts';

let out: string | undefined;
afterEach(() => {
  if (out !== undefined) rmSync(out, { recursive: true, force: true });
});

describe('lblab run | head', () => {
  it('a reader that stops reading ends only the output: the run finishes, writes its report and exits 0', async () => {
    out = mkdtempSync(join(tmpdir(), 'lblab-pipe-'));
    const child = startLblab('run', '--seed', '7', '--scenario', 'l2: partition and heal', '--out', out);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // As `head -1` does: the first chunk read, the pipe closed.
    await once(child.stdout!, 'data');
    child.stdout!.destroy();
    const [code] = (await once(child, 'exit')) as [number];
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
    const [runId] = readdirSync(out);
    expect(existsSync(join(out, runId!, 'result.json'))).toBe(true);
  });
});
