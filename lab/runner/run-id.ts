import { randomBytes } from 'node:crypto';

/**
 * A lab run's id: six lower-case hex digits. Every backend names what it creates with it (namespaces,
 * containers, report folders), so it lives with the runner rather than with one backend.
 */
export function newRunId(): string {
  return randomBytes(3).toString('hex');
}
