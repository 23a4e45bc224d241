/** What services refer to: `endpointsOn` names lblab-nodes, the only nodes that run workloads. */
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import type { RawService } from './raw.ts';
import type { ResolvedNode } from './resolve-nodes.ts';

export function checkServices(
  services: readonly RawService[],
  nodes: readonly ResolvedNode[],
  log: IssueSink,
): void {
  const kinds = new Map(nodes.map((n) => [n.name, n.kind]));
  for (const { path, spec } of services) {
    (spec.endpointsOn ?? []).forEach((name, i) => {
      const at = joinPath(joinPath(path, 'endpointsOn'), i);
      const kind = kinds.get(name);
      if (kind === undefined) log.error(at, `no node is named ${JSON.stringify(name)}`);
      else if (kind !== 'lblab-node') log.error(at, `${name} is a ${kind}; endpoints run on lblab-nodes`);
    });
  }
}
