/**
 * Every namespace the lab creates is named `lblab-<runId>-<role>`, so a sweep can find what a crashed run
 * left and never touches anything else. Interface names live inside lab namespaces only, so they need no
 * run id (and keep under the kernel's 15-character limit).
 */
export const labPrefix = 'lblab-';

export function namespaceName(runId: string, role: string): string {
  if (!/^[a-z0-9]+$/.test(runId))
    throw new Error(`run id ${JSON.stringify(runId)} must be lower-case letters and digits`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(role))
    throw new Error(`role ${JSON.stringify(role)} must be lower-case letters, digits, "-"`);
  return `${labPrefix}${runId}-${role}`;
}

/** The run id of a lab namespace, or undefined for any other namespace. */
export function runIdOf(namespace: string): string | undefined {
  const m = /^lblab-([a-z0-9]+)-/.exec(namespace);
  return m?.[1];
}

export function checkInterfaceName(name: string): string {
  if (!/^[a-zA-Z0-9_.-]{1,15}$/.test(name))
    throw new Error(`interface name ${JSON.stringify(name)} must be 1-15 characters`);
  return name;
}
