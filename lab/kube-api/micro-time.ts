import { isJsonObject } from './objects.ts';
import type { KubeObject } from './objects.ts';
import type { ResourceType } from './resource-types.ts';
import { badRequest } from './status.ts';

/**
 * metav1.MicroTime fields (Lease acquireTime/renewTime, Event eventTime). kube-apiserver decodes them
 * with Go's time.Parse and the layout below, which takes exactly six fraction digits: a JavaScript Date
 * serialised as-is ("...00.000Z") fails, and the request is refused with 400 BadRequest before anything
 * is stored (krustlet/krustlet#5 shows the message). Accepted values are stored in UTC, as upstream
 * writes them back.
 */
export const microTimeLayout = '2006-01-02T15:04:05.000000Z07:00';

const microTimeRe = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})(Z|[+-]\d{2}:\d{2})$/;

/** The value in UTC with six fraction digits, or undefined when upstream would refuse it. */
export function normaliseMicroTime(value: string): string | undefined {
  const m = microTimeRe.exec(value);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const micros = m[7] ?? '';
  const zone = m[8] ?? 'Z';
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  // Go refuses out-of-range fields (month 13, February 30th, hour 24) instead of rolling them over.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  )
    return undefined;
  const offsetMinutes =
    zone === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const utc = new Date(local - offsetMinutes * 60_000).toISOString();
  return `${utc.slice(0, 19)}.${micros}Z`;
}

/**
 * Checks and normalises every MicroTime field of the type in place; throws the 400 the real server
 * answers with for the first field it cannot decode.
 */
export function decodeMicroTimes(type: ResourceType, version: string, obj: KubeObject): void {
  for (const path of type.microTimeFields) {
    const steps = path.split('.');
    const field = steps.pop() ?? '';
    let parent: unknown = obj;
    for (const step of steps) parent = isJsonObject(parent) ? parent[step] : undefined;
    if (!isJsonObject(parent) || parent[field] === undefined || parent[field] === null) continue;
    const value = parent[field];
    const normalised = typeof value === 'string' ? normaliseMicroTime(value) : undefined;
    if (normalised === undefined)
      throw badRequest(
        `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: ${path}: parsing time ` +
          `${JSON.stringify(value)} as "${microTimeLayout}": cannot parse`,
      );
    parent[field] = normalised;
  }
}
