/**
 * Client-visible failover, lblab against the peers users run today, as medians rather than single runs:
 * each catalog scenario below runs RUNS times on each real backend (netns and docker) for lblab and for
 * each peer (keepalived for Layer 2; FRR with bgpd+bfdd and GoBGP as the node speaker for BGP), on a
 * fresh lab each time, and RUNS times on the emulator with different seeds. Printed: min / median / max
 * outage per system and backend, the median ratio lblab/peer, docker's median against netns's (the same
 * programs, in containers on Docker's bridges) and the emulator's against netns's (emulator fidelity).
 * Needs root, the Debian daemons and a Docker engine, as the netns and docker tests do; about twenty
 * minutes at 5 runs (FAILOVER_BENCH_RUNS); FAILOVER_BENCH_SCENARIO picks the cases whose scenario name
 * contains it, FAILOVER_BENCH_BACKENDS the real backends (default "netns,docker").
 */
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import { backendNamed } from '../../lab/backends/index.ts';
import { readTopology } from '../../lab/model/index.ts';
import type { Topology } from '../../lab/model/topology.ts';
import type { Backend } from '../../lab/runner/backend.ts';
import { newRunId } from '../../lab/runner/run-id.ts';
import { runSuite } from '../../lab/runner/run-suite.ts';
import type { Scenario } from '../../lab/runner/scenario.ts';
import { catalog } from '../../scenarios/index.ts';
import { phase, result, type BenchResult } from './types.ts';

const RUNS = Number(process.env['FAILOVER_BENCH_RUNS'] ?? 5);
/** Only the cases whose scenario name contains this (all by default). */
const ONLY = process.env['FAILOVER_BENCH_SCENARIO'] ?? '';
const BACKENDS = await Promise.all(
  (process.env['FAILOVER_BENCH_BACKENDS'] ?? 'netns,docker').split(',').map(async (name) => {
    const b = await backendNamed(name.trim());
    if (!b || b.name === 'emulated')
      throw new Error(`FAILOVER_BENCH_BACKENDS: ${name} is not a real backend`);
    return b;
  }),
);
const defaultTopology = 'topologies/l2-three-nodes.yaml';

/** Each scenario with the peers that can serve it (netns-backend.ts says what each serves). */
const cases: { scenario: string; peers: string[] }[] = [
  { scenario: 'l2: node crash', peers: ['keepalived'] },
  { scenario: 'l2: node crash (IPv6)', peers: ['keepalived'] },
  { scenario: 'bgp: node crash with BFD', peers: ['frr'] },
  { scenario: 'bgp: node crash without BFD (hold timer 3 s)', peers: ['frr', 'gobgp'] },
];

const quiet = { scenarioStarted: () => undefined, step: () => undefined, scenarioEnded: () => undefined };

async function topologies(path: string): Promise<Topology> {
  const read = await readTopology(path);
  if (!read.ok) throw new Error(`${path} does not read`);
  return read.topology;
}

/** The outages of RUNS fresh runs of one scenario for one system on one backend. */
async function outages(backend: Backend, s: Scenario, sut: string): Promise<number[]> {
  const out: number[] = [];
  for (let seed = 1; seed <= RUNS; seed++) {
    const run = await runSuite({
      backend,
      topologies,
      defaultTopology,
      scenarios: [{ ...s, sut }],
      seed,
      runId: newRunId(),
      progress: quiet,
    });
    const r = run.scenarios[0]!;
    const outage = r.measurements['outageMs'];
    if (r.status !== 'pass' || outage === undefined)
      throw new Error(`${s.name} [${sut}] on ${backend.name}: ${r.status} (${r.reason ?? 'no outageMs'})`);
    out.push(outage);
  }
  return out;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function rows(label: string, xs: readonly number[]): BenchResult {
  return result(`${label} outage (ms)`, [
    phase('min', 1, Math.min(...xs)),
    phase('median', 1, median(xs)),
    phase('max', 1, Math.max(...xs)),
  ]);
}

export async function benchFailoverPeers(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const c of cases.filter((x) => x.scenario.includes(ONLY))) {
    const s = catalog.find((x) => x.name === c.scenario);
    if (!s) throw new Error(`no scenario ${c.scenario} in the catalog`);
    const emulated = await outages(emulatedBackend, s, 'lblab');
    out.push(rows(`${c.scenario}, emulated, lblab`, emulated));
    const lines: string[] = [];
    let reference: { backend: string; median: number } | undefined;
    for (const backend of BACKENDS) {
      const lblab = await outages(backend, s, 'lblab');
      out.push(rows(`${c.scenario}, ${backend.name}, lblab`, lblab));
      reference ??= { backend: backend.name, median: median(lblab) };
      lines.push(
        `${c.scenario}: ${backend.name} lblab median ${median(lblab).toFixed(1)} ms` +
          (reference.backend === backend.name
            ? `, emulated ${median(emulated).toFixed(1)} ms (emulated/${backend.name} ${(median(emulated) / median(lblab)).toFixed(2)})`
            : ` (${backend.name}/${reference.backend} ${(median(lblab) / reference.median).toFixed(2)})`),
      );
      for (const peer of c.peers) {
        const theirs = await outages(backend, s, peer);
        out.push(rows(`${c.scenario}, ${backend.name}, ${peer}`, theirs));
        lines.push(
          `${c.scenario}: ${backend.name} ${peer} median ${median(theirs).toFixed(1)} ms, lblab/${peer} ${(median(lblab) / median(theirs)).toFixed(2)}`,
        );
      }
    }
    for (const l of lines) process.stderr.write(`${l}\n`);
  }
  return out;
}
