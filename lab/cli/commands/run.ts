/** `lblab run`: runs scenarios on a backend, writes result.json, report.md and junit.xml, gates the result. */
import type { Command } from 'commander';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { applyGates, exitCodeFor, loadGates, writeReports } from '../../../reports/index.ts';
import {
  baselineSummary,
  loadBaseline,
  withBaseline,
  type LoadedBaseline,
} from '../../../reports/baseline/baseline.ts';
import { ownSut } from '../../../reports/compare.ts';
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { catalog, defaultSuite } from '../../../scenarios/index.ts';
import { backendNamed, backendNames } from '../../backends/index.ts';
import { newRunId } from '../../runner/run-id.ts';
import { formatIssue } from '../../../core/config/index.ts';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import { createProgress } from '../../runner/progress.ts';
import { maxRepeats } from '../../runner/repeats.ts';
import { runSuite } from '../../runner/run-suite.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';
import { writePdf } from './report-pdf.ts';
import { warmCharts } from '../../../reports/html/vega-svg.ts';
import { drawScenarioChartsAhead } from '../../../reports/html/scenario-section.ts';

const emulatedName = 'emulated';

export interface RunArgs {
  backend: string;
  topology: string;
  scenario?: string[];
  gates: string;
  out: string;
  seed?: string;
  peer?: string[];
  repeat?: string;
  baseline?: string;
  pdf?: boolean;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description(
      'run lab scenarios on a backend and write a gated report (exit 0 pass, 1 a gate failed, 2 error); ' +
        'on a real-network backend the same scenarios also run on the emulator, and the report compares both',
    )
    .option('--backend <name>', `where to run: ${backendNames().join(', ')}`, 'emulated')
    .option('--topology <file>', 'topology for scenarios that do not name their own', defaultSuite.topology)
    .option(
      '--scenario <name...>',
      `scenarios to run (default: all): ${catalog.map((s) => JSON.stringify(s.name)).join(', ')}`,
    )
    .option('--gates <file>', 'release gates to apply', 'reports/gates.yaml')
    .option('--out <dir>', 'artifacts go to <dir>/<runId>/', 'reports/out')
    .option(
      '--peer <name...>',
      'also run each scenario the peer can serve against it, side by side with lblab (netns, docker: keepalived, frr, gobgp)',
    )
    .option(
      '--seed <n>',
      'seed of the emulated network, printed on every run: replays an emulated run, and the emulated fidelity half of a real-network run',
    )
    .option(
      '--repeat <n>',
      `run each scenario n times (1..${maxRepeats}, default 1) on fresh labs, each repeat with a seed derived from the scenario's and its number (the first keeps the scenario's, so --repeat k with the same --seed replays repeats 1..k); measurements become distributions (median, p95, min, max), gated at the median unless a rule names a statistic`,
    )
    .option(
      '--baseline <file|dir>',
      "compare with an earlier result.json, or the newest run on this backend stored in a directory; lblab figures that regressed beyond the gates file's `regression` tolerances fail",
    )
    .option('--pdf', "also print report.pdf (Debian's chromium: LBLAB_CHROMIUM or /usr/bin/chromium)")
    .action(async (opts: RunArgs) => {
      process.exitCode = await run(opts, processOutput);
    });
}

export async function run(args: RunArgs, out: Output): Promise<number> {
  const fail = (message: string) => (out.stderr(`lblab run: ${message}`), exitCodes.error);
  const backend = await backendNamed(args.backend);
  if (!backend)
    return fail(
      `unknown backend ${JSON.stringify(args.backend)}; choose one of ${backendNames().join(', ')}`,
    );
  const seed = args.seed === undefined ? randomInt(2 ** 31) : Number(args.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
    return fail(`--seed must be a whole number 0..4294967295`);
  const repeat = args.repeat === undefined ? 1 : Number(args.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > maxRepeats)
    return fail(`--repeat must be a whole number 1..${maxRepeats}, not ${JSON.stringify(args.repeat)}`);
  const wanted = args.scenario ?? catalog.map((s) => s.name);
  const unknown = wanted.filter((n) => !catalog.some((s) => s.name === n));
  if (unknown.length > 0) {
    return fail(
      `unknown scenario ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known: ${catalog.map((s) => JSON.stringify(s.name)).join(', ')}`,
    );
  }
  const peers = args.peer ?? [];
  const unknownPeer = peers.find((p) => !backend.peers?.has(p));
  if (unknownPeer !== undefined) {
    const known = [...(backend.peers?.keys() ?? [])];
    return fail(
      `the ${backend.name} backend cannot run peer ${JSON.stringify(unknownPeer)}; ` +
        (known.length > 0 ? `it runs ${known.join(', ')}` : 'it runs no peers'),
    );
  }
  try {
    await backend.check?.();
  } catch (err) {
    if (err instanceof LblabError) return fail(err.message);
    throw err;
  }
  // Known peers the backend cannot run on this machine (known only once it checked): why, before any lab.
  const unavailable = peers.flatMap((p) => {
    const served = backend.peers!.get(p);
    return typeof served === 'string' ? [`peer ${JSON.stringify(p)} here: ${served}`] : [];
  });
  if (unavailable.length > 0) return fail(`the ${backend.name} backend cannot run ${unavailable.join('; ')}`);
  const gates = await loadGates(args.gates);
  if (!gates.ok) {
    for (const e of gates.errors) out.stderr(formatIssue(e));
    return exitCodes.error;
  }
  // A baseline that cannot be used must not cost a lab run: it is read and checked first.
  let baseline: LoadedBaseline | undefined;
  try {
    if (args.baseline !== undefined) baseline = await loadBaseline(args.baseline, backend.name);
  } catch (err) {
    if (err instanceof LblabError) return fail(err.message);
    throw err;
  }
  // Topologies are read (and rejected with file and field path) before anything starts.
  const topologies = new Map<string, Topology>();
  const chosen = catalog.filter((s) => wanted.includes(s.name));
  // Each scenario a peer can serve runs again right after lblab's, on a fresh lab running the peer.
  const scenarios = chosen.flatMap((s) => [
    s,
    ...peers
      .filter((p) => {
        const served = backend.peers!.get(p)!;
        return typeof served !== 'string' && s.needs.every((n) => served.includes(n));
      })
      .map((p) => ({ ...s, sut: p })),
  ]);
  for (const path of new Set(scenarios.map((s) => s.topology ?? args.topology))) {
    const read = await readTopology(path);
    if (!read.ok) {
      for (const e of read.errors) out.stderr(formatIssue(e));
      return exitCodes.error;
    }
    topologies.set(path, read.topology);
  }

  const runId = newRunId();
  const progress = createProgress();
  out.stdout(
    `lblab run ${runId}: backend ${backend.name}, seed ${seed}, ${scenarios.length} scenario(s)${repeat > 1 ? `, ${repeat} repeats each` : ''}`,
  );
  const dir = join(args.out, runId);
  const suite = {
    topologies: async (path: string) => topologies.get(path)!,
    defaultTopology: args.topology,
    seed,
    runId,
    progress,
    repeat,
  };
  // The report's charts are drawn on the other core while the scenarios run (each as the next one runs).
  warmCharts();
  const raw = await runSuite({
    ...suite,
    backend,
    scenarios,
    artifactsDir: dir,
    scenarioDone: drawScenarioChartsAhead,
  });
  let result = raw;
  if (backend.name !== emulatedName) {
    // Emulator fidelity: lblab's scenarios again in virtual time with the same seed (seconds of wall
    // time), so the report sets the emulator's predictions beside what this backend measured.
    out.stdout('emulator fidelity: the same scenarios for lblab on the emulated backend');
    const own = scenarios.filter((s) => s.sut === ownSut);
    const fidelity = await runSuite({
      ...suite,
      backend: (await backendNamed(emulatedName))!,
      scenarios: own,
    });
    result = { ...raw, emulated: fidelity.scenarios };
  }
  result = applyGates(result, gates.rules);
  if (baseline !== undefined) result = withBaseline(result, baseline, gates.regression);
  await writeReports(dir, result);
  const code = exitCodeFor(result);
  for (const line of baselineSummary(result)) out.stdout(line);
  out.stdout(`report: ${join(dir, 'report.html')} (also report.md, result.json, junit.xml)`);
  const pdf = args.pdf
    ? await writePdf(join(dir, 'report.html'), join(dir, 'report.pdf'), runId, out, 'lblab run')
    : exitCodes.ok;
  out.stdout(
    `${backend.name === emulatedName ? 'replay' : 'rerun'}: lblab run --backend ${backend.name} --seed ${seed}${args.scenario ? args.scenario.map((s) => ` --scenario ${JSON.stringify(s)}`).join('') : ''}${peers.map((p) => ` --peer ${p}`).join('')}${repeat > 1 ? ` --repeat ${repeat}` : ''}`,
  );
  out.stdout(code === 0 ? 'all gates passed' : code === 1 ? 'a gate failed' : 'a scenario errored');
  return pdf === exitCodes.ok ? code : pdf; // the gates' verdict stands; a PDF that could not be printed is an error
}
