/**
 * `lblab run --backend netns` (or docker) through the command's own run(), for the catalog and
 * side-by-side tests of both real backends: what a user would run, with the result, the report and the
 * output kept for checks, and each scenario's figures printed for the release notes.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ratio } from '../../../reports/compare.ts';
import type { RunResult, ScenarioResult } from '../../../reports/result.ts';
import { catalog } from '../../../scenarios/index.ts';
import { run } from '../../cli/commands/run.ts';

/**
 * The catalog run on a backend without a cluster: every scenario passes every gate, except the
 * Kubernetes-only stories, which must say they do not apply and why (they run on the kind tier).
 */
export function expectCatalogOutcome(result: RunResult): void {
  expect(result.scenarios.map((s) => s.name)).toEqual(catalog.map((s) => s.name));
  for (const s of result.scenarios) {
    const clusterOnly = catalog.find((c) => c.name === s.name)!.needs.includes('kubernetes');
    if (clusterOnly) {
      expect(s.status, s.name).toBe('not-applicable');
      expect(s.reason, s.name).toContain('kubernetes');
      continue;
    }
    expect({ name: s.name, status: s.status, reason: s.reason }).toEqual({
      name: s.name,
      status: 'pass',
      reason: undefined,
    });
    expect(s.gates.length, s.name).toBeGreaterThan(0);
    expect(s.gates.filter((g) => !g.pass)).toEqual([]);
  }
}

/** Scenarios a backend without a cluster measures: the catalog less the Kubernetes-only stories. */
export const portableCatalog = catalog.filter((s) => !s.needs.includes('kubernetes'));

export interface NetnsRun {
  code: number;
  runId: string;
  /** The directory the run's report went to; the caller removes `out`. */
  out: string;
  /** `out/<runId>`: result.json, report.md, junit.xml and the captures. */
  dir: string;
  result: RunResult;
  report: string;
  output: string;
}

/** `lblab run --backend netns [--scenario S...] [--peer P...]` with the release gates, seed 1. */
export async function runNetns(
  o: { scenario?: string[]; peer?: string[]; backend?: 'netns' | 'docker' } = {},
): Promise<NetnsRun> {
  const { backend = 'netns', ...rest } = o;
  const out = await mkdtemp(join(tmpdir(), `lblab-${backend}-run-`));
  const lines: string[] = [];
  const code = await run(
    {
      backend,
      topology: 'topologies/l2-three-nodes.yaml',
      gates: 'reports/gates.yaml',
      out,
      seed: '1',
      ...rest,
    },
    { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) },
  );
  const output = lines.join('\n');
  const runId = /^lblab run ([0-9a-f]+):/.exec(lines[0] ?? '')?.[1];
  expect(runId, output).toBeDefined();
  const dir = join(out, runId!);
  const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as RunResult;
  for (const s of result.scenarios)
    console.log(
      `${backend} ${s.name} [${s.sut}]: ${s.status}${s.reason ? ` (${s.reason})` : ''}; ` +
        Object.entries(s.measurements)
          .map(([k, v]) => `${k} ${Math.round(v * 10) / 10}`)
          .join(', '),
    );
  const report = await readFile(join(dir, 'report.md'), 'utf8');
  return { code, runId: runId!, out, dir, result, report, output };
}

export interface SideBySide extends NetnsRun {
  /** lblab's run of the scenario and the peer's. */
  lblab: ScenarioResult;
  peer: ScenarioResult;
}

/** `lblab run --backend netns --scenario S --peer P`: lblab's run of the scenario, then the peer's. */
export async function runSideBySide(
  scenario: string,
  peer: string,
  backend: 'netns' | 'docker' = 'netns',
): Promise<SideBySide> {
  const r = await runNetns({ scenario: [scenario], peer: [peer], backend });
  expect(r.result.scenarios.map((s) => [s.name, s.sut])).toEqual([
    [scenario, 'lblab'],
    [scenario, peer],
  ]);
  const by = (sut: string) => r.result.scenarios.find((s) => s.sut === sut)!;
  return { ...r, lblab: by('lblab'), peer: by(peer) };
}

/**
 * Both runs measured an outage and passed, only lblab was gated, and the report's peer table gives the
 * outage ratio lblab/peer (printed for the release notes).
 */
export function expectComparedOutage(r: SideBySide): void {
  for (const s of [r.lblab, r.peer])
    expect({ sut: s.sut, status: s.status, reason: s.reason }).toEqual({
      sut: s.sut,
      status: 'pass',
      reason: undefined,
    });
  expect(r.peer.measurements['outageMs']).toBeGreaterThan(0);
  expect(r.lblab.measurements['outageMs']).toBeGreaterThan(0);
  expect(r.lblab.gates.length).toBeGreaterThan(0);
  expect(r.peer.gates).toEqual([]);
  expect(r.code, r.output).toBe(0);
  const expected = ratio(r.lblab.measurements['outageMs']!, r.peer.measurements['outageMs']!)!;
  console.log(`${r.result.backend} ${r.lblab.name} outageMs lblab/${r.peer.sut}: ${expected}`);
  expect(r.report).toContain('## Compared with peers');
  const row = r.report.split('\n').find((l) => l.includes('outageMs') && l.includes(`| ${r.peer.sut} |`));
  expect(row, r.report).toContain(expected);
}

/**
 * The node-crash scenario's timeline shows, from the client's capture, the new owner claiming the address
 * it took over (a gratuitous ARP, an unsolicited NA or a reply to the client) after the crash, and the
 * capture file is kept next to the report.
 */
export async function expectWireEventsOfTakeover(result: RunResult, reportDir: string): Promise<void> {
  const crash = result.scenarios.find((s) => s.name === 'l2: node crash')!;
  const fault = crash.timeline.find((e) => e.kind === 'fault' && e.message === 'kill')!;
  expect(fault).toBeDefined();
  const takeovers = crash.timeline.filter(
    (e) => e.kind === 'announcer' && e.atMs > fault.atMs && e.message.startsWith('took-over '),
  );
  expect(takeovers.map((e) => e.source)).not.toContain(fault.source);
  const claims = takeovers.flatMap((t) => {
    const address = t.message.split(' ')[1]!;
    return crash.timeline.filter(
      (e) =>
        /^(arp|ndp)( announce)?$/.test(e.kind) &&
        e.source === t.source &&
        e.atMs > fault.atMs &&
        new RegExp(`^(ARP (reply|announcement)|NDP NA) ${address.replace(/[.]/g, '\\.')} is-at`).test(
          e.message,
        ),
    );
  });
  for (const e of claims.slice(0, 4))
    console.log(
      `${result.backend} node crash: +${Math.round(e.atMs - fault.atMs)} ms after the kill: ${e.source} ${e.message}`,
    );
  expect(claims.length, JSON.stringify(crash.timeline.filter((e) => e.atMs > fault.atMs))).toBeGreaterThan(0);
  const capture = crash.timeline.find((e) => e.kind === 'capture')!;
  expect(capture.message).toMatch(/^eth0 captured to l2-node-crash\/c1-eth0\.pcap, [1-9]\d* events/);
  expect((await stat(join(reportDir, 'l2-node-crash', 'c1-eth0.pcap'))).size).toBeGreaterThan(24);
}
