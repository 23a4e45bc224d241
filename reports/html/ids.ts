/**
 * Stable anchors: a scenario's id is its position and a slug of its name (names repeat across SUTs and
 * backends, positions do not), so the same result always gives the same links.
 */
import type { ScenarioResult } from '../result.ts';

export function scenarioId(s: ScenarioResult, index: number): string {
  const slug = `${s.name} ${s.sut} ${s.backend ?? ''}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `s${index + 1}-${slug}`;
}

export function eventId(scenarioAnchor: string, n: number): string {
  return `${scenarioAnchor}-e${n}`;
}

export function scenarioTitle(s: ScenarioResult): string {
  return `${s.name} [${s.sut}${s.backend === undefined ? '' : `, ${s.backend}`}]`;
}
