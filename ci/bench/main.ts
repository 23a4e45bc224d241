/**
 * Runs every registered benchmark a few times (each says how many) and prints the median and the spread of ops/s per
 * scenario and phase. Not part of the test suite: `npm run bench`, or `npm run bench -- NAME...` for some.
 */
import { benches } from './registry.ts';
import type { BenchResult } from './types.ts';

const defaultRepetitions = 5;

interface Row {
  bench: string;
  scenario: string;
  phase: string;
  opsPerSec: number[];
  durationMs: number[];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function collect(rows: Map<string, Row>, bench: string, results: readonly BenchResult[]): void {
  for (const r of results) {
    const lines = [
      ...r.phases.map((p) => ({ ...p })),
      { name: 'total', opsPerSec: r.opsPerSec, durationMs: NaN },
    ];
    for (const p of lines) {
      const id = `${bench}\u0000${r.name}\u0000${p.name}`;
      const row = rows.get(id) ?? { bench, scenario: r.name, phase: p.name, opsPerSec: [], durationMs: [] };
      row.opsPerSec.push(p.opsPerSec);
      if (!Number.isNaN(p.durationMs)) row.durationMs.push(p.durationMs);
      rows.set(id, row);
    }
  }
}

function table(rows: Iterable<Row>): string {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const header = ['bench', 'scenario', 'phase', 'median ops/s', 'min ops/s', 'max ops/s', 'median ms'];
  const body = [...rows].map((r) => [
    r.bench,
    r.scenario,
    r.phase,
    fmt(median(r.opsPerSec)),
    fmt(Math.min(...r.opsPerSec)),
    fmt(Math.max(...r.opsPerSec)),
    r.durationMs.length > 0 ? median(r.durationMs).toFixed(1) : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const rows = new Map<string, Row>();
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !benches.some((b) => b.name === n));
  if (unknown.length > 0)
    throw new Error(`no bench ${unknown.join(', ')}; known: ${benches.map((b) => b.name).join(', ')}`);
  for (const bench of benches.filter((b) => wanted.length === 0 || wanted.includes(b.name))) {
    const repetitions = bench.repetitions ?? defaultRepetitions;
    for (let i = 0; i < repetitions; i++) {
      process.stderr.write(`${bench.name}: run ${i + 1}/${repetitions}\n`);
      collect(rows, bench.name, await bench.run());
    }
  }
  process.stdout.write(`${table(rows.values())}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
