import type { ResourceRegistry, ResourceType } from './resource-types.ts';
import { apiVersionOf } from './resource-types.ts';

/**
 * Discovery documents (unaggregated, as served without an apidiscovery Accept header): what
 * KubernetesObjectApi reads to map an apiVersion and kind to a resource path.
 */
const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** GET /api */
export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupDocument(group: string, versions: readonly string[]): object {
  const entries = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { name: group, versions: entries, preferredVersion: entries[0] };
}

/** GET /apis */
export function apiGroupList(registry: ResourceRegistry): object {
  const groups = [...registry.groups()].filter(([group]) => group !== '');
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map(([group, versions]) => groupDocument(group, versions)),
  };
}

/** GET /apis/GROUP, or undefined when no such group is served. */
export function apiGroup(registry: ResourceRegistry, group: string): object | undefined {
  const versions = registry.groups().get(group);
  return versions === undefined || group === ''
    ? undefined
    : { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(group, versions) };
}

/** GET /api/v1 or /apis/GROUP/VERSION, or undefined when that group version is not served. */
export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object | undefined {
  const types = registry.all().filter((t) => t.group === group && t.versions.includes(version));
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf(types[0] as ResourceType, version),
    resources: types
      .sort((a, b) => a.plural.localeCompare(b.plural))
      .flatMap((t) => [
        {
          name: t.plural,
          singularName: t.singular,
          namespaced: t.namespaced,
          kind: t.kind,
          verbs,
          ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
        },
        ...(t.hasStatus
          ? [
              {
                name: `${t.plural}/status`,
                singularName: '',
                namespaced: t.namespaced,
                kind: t.kind,
                verbs: ['get', 'patch', 'update'],
              },
            ]
          : []),
      ]),
  };
}

/** GET /version: a version document that says what answered. */
export function versionInfo(): object {
  return {
    major: '1',
    minor: '34',
    gitVersion: 'v1.34.0-lblab-api-test-server',
    platform: `${process.platform}/${process.arch}`,
  };
}
