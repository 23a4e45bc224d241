/**
 * `lblab report`, `lblab report merge` and `lblab run --baseline` through the CLI a release job runs:
 * crafted result.json files in, exit code and the reports out.
 */
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netnsRun } from '../../../reports/merge.test-support.ts';
import type { RunResult } from '../../../reports/result.ts';
import { sampleRun, scenario } from '../../../reports/sample-result.test-support.ts';
import { runLblab } from '../run-lblab.test-support.ts';
import { renderReports } from './report.ts';
import { runCapturing } from './run.test-support.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-report-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function store(path: string, content: RunResult | string): Promise<string> {
  const file = join(dir, path);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** A run of lblab alone on one scenario, as main's last run or this build's. */
function crashRun(runId: string, outageMs: number, startedAt: string): RunResult {
  return {
    ...sampleRun(),
    runId,
    startedAt,
    scenarios: [scenario({ name: 'l2: node crash', measurements: { outageMs, lostProbes: outageMs - 1 } })],
  };
}

async function report(
  files: string[],
  args: { out?: string; baseline?: string; gates?: string },
  merge = false,
) {
  const lines: string[] = [];
  const sink = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
  const code = await renderReports(files, { gates: 'reports/gates.yaml', ...args }, sink, { merge });
  return { code, text: lines.join('\n') };
}

describe('lblab run --baseline', () => {
  it('fails the run when lblab is slower than a better earlier result, and says by how much', async () => {
    const better = await store('main/result.json', crashRun('r-main', 100, '2024-01-01T00:00:00.000Z'));
    const out = join(dir, 'run');
    const { code, stdout } = await runLblab(
      'run',
      '--scenario',
      'l2: node crash',
      '--seed',
      '42',
      '--out',
      out,
      '--baseline',
      better,
    );
    expect(code).toBe(1);
    // The emulator's node crash at seed 42 loses about 200 ms; the crafted baseline lost 100.
    expect(stdout).toMatch(
      /REGRESSED l2: node crash: outageMs vs baseline: \+\d+ ms, \d\.\d\d× baseline 100 ms from run r-main/,
    );
    expect(stdout).toContain('a gate failed');
    const [runId] = await readdir(out);
    const md = await readFile(join(out, runId!, 'report.md'), 'utf8');
    expect(md).toContain('## Compared with baseline');
    expect(md).toMatch(
      /\| l2: node crash \| lblab \| outageMs \| 100 ms \| \d+ ms \| \+\d+ ms \| \d\.\d\d× \| \*\*yes\*\* \|/,
    );
  }, 60_000);

  it('refuses an unusable baseline before running anything', async () => {
    const out = join(dir, 'run-bad');
    const { code, lines } = await runCapturing({ out, baseline: join(dir, 'nothing-here') });
    expect(code).toBe(2);
    expect(lines).toEqual([`lblab run: ${join(dir, 'nothing-here')}: cannot read it (ENOENT)`]);
    await expect(access(out)).rejects.toThrow();
  });
});

describe('lblab report', () => {
  it('re-renders a result in its own directory and exits with the gates verdict', async () => {
    const file = await store('single/result.json', crashRun('r-1', 1500, '2024-05-01T12:00:00.000Z'));
    const { code, text } = await report([file], {});
    expect(code).toBe(1);
    expect(text).toContain('FAIL l2: node crash [lblab]: gate outageMs < 1000 failed: 1500');
    expect((await readdir(join(dir, 'single'))).sort()).toEqual(
      expect.arrayContaining(['junit.xml', 'report.md', 'result.json']),
    );
    const stored = JSON.parse(await readFile(file, 'utf8')) as RunResult;
    expect(stored.scenarios[0]!.gates).toEqual([
      { name: 'outageMs', threshold: '< 1000', value: 1500, pass: false },
    ]);
  });

  it('compares with the newest earlier run on the backend stored in a directory, and says by how much', async () => {
    await store('history/a/result.json', crashRun('r-a', 208, '2024-05-01T10:00:00.000Z'));
    await store('history/b/result.json', crashRun('r-b', 300, '2024-04-01T10:00:00.000Z'));
    const now = await store('now/result.json', crashRun('r-now', 420, '2024-05-02T10:00:00.000Z'));
    const { code, text } = await report([now], { baseline: join(dir, 'history'), out: join(dir, 'now-out') });
    expect(code).toBe(1);
    expect(text).toContain('outageMs vs baseline: +212 ms, 2.02× baseline 208 ms from run r-a');
    const result = JSON.parse(await readFile(join(dir, 'now-out', 'result.json'), 'utf8')) as RunResult;
    expect(result.history!.filter((h) => h.measurement === 'outageMs').map((h) => h.runId)).toEqual([
      'r-b',
      'r-a',
      'r-now',
    ]);
  });

  it.each([
    ['not JSON', '{"schemaVersion":', /: not JSON/],
    [
      'another schema',
      JSON.stringify({ ...sampleRun(), schemaVersion: 9 }),
      /: schemaVersion 9; this lblab reads schemaVersion 1/,
    ],
  ])('names an input that is %s, and writes nothing', async (name, content, message) => {
    const file = await store(`bad-${name}/result.json`, content);
    const out = join(dir, `bad-out-${name}`);
    const { code, text } = await report([file], { out });
    expect(code).toBe(2);
    expect(text).toMatch(new RegExp(`^lblab report: ${file}${message.source}`));
    await expect(access(out)).rejects.toThrow();
  });

  it('says when a baseline directory holds no run on the backend', async () => {
    await store('netns-only/x/result.json', netnsRun());
    const now = await store('now2/result.json', crashRun('r-now2', 200, '2024-05-02T10:00:00.000Z'));
    const { code, text } = await report([now], { baseline: join(dir, 'netns-only'), out: join(dir, 'x') });
    expect(code).toBe(2);
    expect(text).toContain(
      `${join(dir, 'netns-only')}: no earlier run on backend emulated (1 result.json found one and two levels deep, on netns)`,
    );
  });
});

describe('lblab report merge', () => {
  it('merges an emulated and a netns result into one report with one verdict', async () => {
    const passing = {
      ...sampleRun(),
      scenarios: sampleRun().scenarios.filter((s) => s.status === 'pass' && s.name !== 'l2: node crash'),
    };
    const emulated = await store('m/emulated/result.json', passing);
    const netns = await store('m/netns/result.json', netnsRun());
    const out = join(dir, 'merged');
    const ok = await runLblab('report', 'merge', emulated, netns, '--out', out);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as RunResult;
    expect(result.sources!.map((s) => s.backend)).toEqual(['emulated', 'netns']);
    expect(new Set(result.scenarios.map((s) => s.backend))).toEqual(new Set(['emulated', 'netns']));
    expect(await readFile(join(out, 'report.md'), 'utf8')).toMatch(
      /^# lblab report of 2 runs on emulated, netns: PASS/,
    );
    expect((await readFile(join(out, 'junit.xml'), 'utf8')).match(/<testsuite /g)).toHaveLength(2);

    // One slow netns node crash fails the merged verdict.
    const slow = await store(
      'm/netns-slow/result.json',
      netnsRun({
        runId: 'r-slow',
        scenarios: [scenario({ name: 'l2: node crash', measurements: { outageMs: 1800 } })],
      }),
    );
    const failed = await report([emulated, slow], { out: join(dir, 'merged-2') }, true);
    expect(failed.code).toBe(1);
    expect(failed.text).toContain('FAIL l2: node crash [lblab] on netns: gate outageMs < 1000 failed: 1800');
  }, 60_000);

  it('needs --out', async () => {
    const { code, text } = await report([join(dir, 'x.json')], {}, true);
    expect(code).toBe(2);
    expect(text).toBe('lblab report merge: --out DIR is required: where to write the merged reports');
  });
});
