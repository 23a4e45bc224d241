/** A status as a coloured word: the word carries the meaning, the colour only helps the eye. */
import { statusMarker } from '../format.ts';
import type { ScenarioStatus } from '../result.ts';
import { esc } from './escape.ts';

export function statusBadge(status: ScenarioStatus | 'PASS' | 'FAIL' | 'ERROR'): string {
  const s = status.toLowerCase() as ScenarioStatus;
  return `<span class="status status-${s}">${esc(statusMarker(s))}</span>`;
}
