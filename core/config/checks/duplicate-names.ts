/** Kubernetes keeps one object per kind, namespace and name; two documents with the same name would overwrite each other. */
import type { IssueLog } from '../issues.ts';
import type { Declared } from '../resources.ts';

export function checkDuplicateNames(declared: readonly Declared[], log: IssueLog): void {
  const first = new Map<string, Declared>();
  for (const d of declared) {
    const key = `${d.kind}/${d.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, d);
      continue;
    }
    const at = `${earlier.ctx.file} document ${earlier.ctx.document}`;
    log.error(
      d.ctx,
      'metadata.name',
      `duplicate ${d.kind} name ${JSON.stringify(d.name)}: already defined in ${at}`,
    );
  }
}
