/**
 * What the docker lab calls and labels its containers and networks: every object carries the run id in a
 * label (the reaper and `lblab lab clean` find a run's objects by it, and touch nothing without it) and
 * in its name, so `docker ps` shows which run and host each container is.
 */
export const RUN_LABEL = 'io.lblab.run';
export const HOST_LABEL = 'io.lblab.host';
export const SEGMENT_LABEL = 'io.lblab.segment';

export function containerName(runId: string, host: string): string {
  return `lblab-${runId}-${host}`;
}

export function networkName(runId: string, segment: string): string {
  return `lblab-${runId}-${segment}`;
}
