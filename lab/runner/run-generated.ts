/**
 * Runs scenarios on a generated topology (lab/model/generate*.ts), which exists only in memory: its
 * MetalLB configuration is written to a temporary file for the run, as a topology's `config` file would
 * be read, and removed after it. The scale benches and their end-to-end tests run this way.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../reports/result.ts';
import type { GeneratedTopology } from '../model/generate.ts';
import type { Backend } from './backend.ts';
import { runSuite } from './run-suite.ts';
import type { Scenario } from './scenario.ts';

const quiet = { scenarioStarted() {}, step() {}, scenarioEnded() {} };

export async function runGenerated(
  generated: GeneratedTopology,
  scenarios: readonly Scenario[],
  o: { backend: Backend; seed?: number },
): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'lblab-generated-'));
  try {
    await writeFile(join(dir, 'metallb.yaml'), generated.metallbYaml);
    const topology = { ...generated.topology, configFiles: [join(dir, 'metallb.yaml')] };
    return await runSuite({
      backend: o.backend,
      topologies: async () => topology,
      defaultTopology: topology.name,
      scenarios,
      seed: o.seed ?? 1,
      runId: 'generated',
      progress: quiet,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
