import type { SpeakerLogEntry } from '../speaker/l2-speaker.ts';

/**
 * One line of `lblab speaker`'s log, stamped with the wall clock: "<ISO time> <node> <kind>: <message>".
 * The main thread and the liveness thread write the same format, so the lab reads both alike.
 */
export function speakerLogLine(node: string, e: Pick<SpeakerLogEntry, 'kind' | 'message'>): string {
  return `${new Date().toISOString()} ${node} ${e.kind}: ${e.message}`;
}
