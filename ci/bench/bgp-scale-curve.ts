/** The emulated BGP scale curve: both rack stories at each size, their table and growth exponents. */
import { growthExponent, scaleTable, type ScaleColumn, type ScalePoint } from './scale-curve.ts';

/** What one rack story measured at one size (emulated-bgp-scale-run.ts prints it). */
export interface BgpScalePoint extends ScalePoint {
  scenario: 'node crash' | 'leaf failure';
  nodesPerRack: number;
  lostProbes: number | undefined;
  /** Leaf failure: nodes of the client's rack whose BFD session to the failed leaf went down, of `rackNodes`. */
  bfdDown?: number;
  rackNodes: number;
}

const columns: ScaleColumn<BgpScalePoint>[] = [
  { header: 'lost', cell: (p) => (p.lostProbes === undefined ? '' : String(p.lostProbes)) },
  { header: 'BFD down', cell: (p) => (p.bfdDown === undefined ? '' : `${p.bfdDown}/${p.rackNodes}`) },
  { header: 'scenario', cell: (p) => p.scenario, text: true },
];

export function bgpScaleTable(points: readonly BgpScalePoint[]): string {
  return scaleTable(points, columns);
}

/** The growth exponent of wall time in nodes, per scenario (undefined with one size). */
export function bgpGrowth(points: readonly BgpScalePoint[]): Record<string, number | undefined> {
  const scenarios = [...new Set(points.map((p) => p.scenario))];
  return Object.fromEntries(
    scenarios.map((s) => [s, growthExponent(points.filter((p) => p.scenario === s))]),
  );
}
