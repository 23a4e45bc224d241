import { describe, expect, it } from 'vitest';
import { agentCalls } from './agent-calls.test-support.ts';
import { authorized, type ApiRequest } from './authorize.test-support.ts';
import { permissions } from './permissions.ts';
import { agentRbac } from './rbac.ts';

const ns = 'metallb-system';
const metallbConfig = [
  'ipaddresspools',
  'bgppeers',
  'bfdprofiles',
  'communities',
  'l2advertisements',
  'bgpadvertisements',
];

/**
 * Issue 14's list of the calls lblab's agents make, written out as grants "agent scope group resource
 * verb [name]" (scope: cluster, or ns for lblab's namespace only). The source of truth must say the same.
 */
const expected = [
  ...['get', 'list', 'watch'].map((v) => `controller cluster core services ${v}`),
  ...['list', 'watch'].map((v) => `controller cluster core namespaces ${v}`),
  'controller cluster core nodes list',
  'controller cluster core nodes watch',
  'controller cluster core services/status update',
  'controller cluster core events create',
  'controller cluster core events patch',
  ...metallbConfig.flatMap((r) => ['list', 'watch'].map((v) => `controller ns metallb.io ${r} ${v}`)),
  'controller ns metallb.io ipaddresspools get',
  'controller ns metallb.io ipaddresspools/status update',
  'controller ns metallb.io configurationstates get',
  'controller ns metallb.io configurationstates create',
  'controller ns metallb.io configurationstates/status update',
  ...['get', 'list', 'watch', 'create', 'update'].map((v) => `controller ns core secrets ${v}`),
  ...['get', 'create', 'update'].map((v) => `controller ns coordination.k8s.io leases ${v}`),
  ...['get', 'patch'].map(
    (v) =>
      `controller cluster admissionregistration.k8s.io validatingwebhookconfigurations ${v} metallb-webhook-configuration`,
  ),
  ...['get', 'patch'].map(
    (v) => `controller cluster apiextensions.k8s.io customresourcedefinitions ${v} bgppeers.metallb.io`,
  ),
  ...['services', 'nodes', 'namespaces'].flatMap((r) =>
    ['list', 'watch'].map((v) => `speaker cluster core ${r} ${v}`),
  ),
  ...['list', 'watch'].map((v) => `speaker cluster discovery.k8s.io endpointslices ${v}`),
  ...metallbConfig.flatMap((r) => ['list', 'watch'].map((v) => `speaker ns metallb.io ${r} ${v}`)),
  ...['list', 'watch'].map((v) => `speaker ns core secrets ${v}`),
  'speaker ns core pods get',
  ...['servicel2statuses', 'servicebgpstatuses'].flatMap((r) => [
    ...['get', 'list', 'create', 'update', 'delete'].map((v) => `speaker ns metallb.io ${r} ${v}`),
    `speaker ns metallb.io ${r}/status update`,
  ]),
  'speaker ns metallb.io configurationstates get',
  'speaker ns metallb.io configurationstates create',
  'speaker ns metallb.io configurationstates/status update',
  'speaker cluster core events create',
  'speaker cluster core events patch',
];

/** The source of truth, one grant per line in the same notation. */
const declared = Object.entries(permissions).flatMap(([agent, list]) =>
  list.flatMap((p) =>
    p.resources.flatMap((resource) =>
      p.verbs.flatMap((verb) =>
        (p.resourceNames ?? ['']).map((name) =>
          [agent, p.scope === 'namespace' ? 'ns' : 'cluster', p.group || 'core', resource, verb, name]
            .join(' ')
            .trim(),
        ),
      ),
    ),
  ),
);

const bundle = (webhooks: boolean) => [
  ...agentRbac('controller', { namespace: ns, webhooks }),
  ...agentRbac('speaker', { namespace: ns, webhooks }),
];

function request(agent: string, grant: string[], namespace: string | undefined, name?: string): ApiRequest {
  const [, , group = '', resourcePath = ''] = grant;
  const [resource = '', subresource] = resourcePath.split('/');
  const r: ApiRequest = {
    user: { namespace: ns, name: agent },
    verb: grant[4] ?? '',
    group: group === 'core' ? '' : group,
    resource,
  };
  if (subresource !== undefined) r.subresource = subresource;
  if (namespace !== undefined) r.namespace = namespace;
  if (name !== undefined) r.name = name;
  return r;
}

describe('least-privilege RBAC', () => {
  it('the source of truth lists exactly the calls issue 14 names', () => {
    expect([...declared].sort()).toEqual([...expected].sort());
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('grants nothing the agents were not seen to use: every grant is a call their tests recorded', () => {
    for (const agent of ['controller', 'speaker'] as const) {
      const granted = permissions[agent].flatMap((p) =>
        p.resources.flatMap((r) => p.verbs.map((v) => `${v} ${r}`)),
      );
      expect([...new Set(granted)].sort(), agent).toEqual(agentCalls[agent]);
    }
  });

  it('the bundle allows every one of them, where each is made', () => {
    const rbac = bundle(true);
    for (const grant of expected.map((g) => g.split(' '))) {
      const [agent = '', scope, , , , name] = grant;
      // Namespaced grants are used in lblab's namespace; cluster-wide ones in any namespace too.
      const where = scope === 'ns' ? [ns] : [ns, 'default', undefined];
      for (const namespace of where)
        expect(authorized(rbac, request(agent, grant, namespace, name)), grant.join(' ')).toBe(true);
    }
  });

  it('and nothing else: every other verb, resource, namespace and object name is refused', () => {
    const rbac = bundle(true);
    const allowed = new Set(expected);
    const resources = [
      ...new Set(expected.map((g) => g.split(' ').slice(2, 4).join(' '))),
      'core configmaps',
      'core pods/exec',
      'core serviceaccounts',
      'apps deployments',
      'apps daemonsets',
      'rbac.authorization.k8s.io clusterroles',
      'apps services',
    ];
    const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
    const names = [undefined, 'other', 'metallb-webhook-configuration', 'bgppeers.metallb.io'];
    let checked = 0;
    for (const agent of ['controller', 'speaker', 'default']) {
      for (const resource of resources) {
        for (const verb of verbs) {
          for (const namespace of [ns, 'default', undefined]) {
            for (const name of names) {
              const grant = [agent, '', ...resource.split(' '), verb];
              const scoped = namespace === ns ? ['ns', 'cluster'] : ['cluster'];
              const expectAllowed = scoped.some(
                (scope) =>
                  allowed.has(`${agent} ${scope} ${resource} ${verb}`) ||
                  (name !== undefined && allowed.has(`${agent} ${scope} ${resource} ${verb} ${name}`)),
              );
              expect(
                authorized(rbac, request(agent, grant, namespace, name)),
                `${grant.join(' ')} in ${namespace} of ${name}`,
              ).toBe(expectAllowed);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it('without webhooks the controller may not touch the webhook configuration or the CRDs', () => {
    const grant = (resource: string, name: string) =>
      request(
        'controller',
        ['controller', 'cluster', resource.split(' ')[0] ?? '', resource.split(' ')[1] ?? '', 'patch'],
        undefined,
        name,
      );
    const vwc = grant(
      'admissionregistration.k8s.io validatingwebhookconfigurations',
      'metallb-webhook-configuration',
    );
    const crd = grant('apiextensions.k8s.io customresourcedefinitions', 'bgppeers.metallb.io');
    expect([authorized(bundle(true), vwc), authorized(bundle(true), crd)]).toEqual([true, true]);
    expect([authorized(bundle(false), vwc), authorized(bundle(false), crd)]).toEqual([false, false]);
  });
});
