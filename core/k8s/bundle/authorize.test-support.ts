/**
 * Kubernetes' RBAC authorizer over the bundle's objects, for tests: would this ServiceAccount be allowed
 * this request? A later test feeds it every request the agents make against the API test server (its
 * request log has the same fields, as Kubernetes authorization sees a request).
 */
import type { V1PolicyRule } from '@kubernetes/client-node';

export interface ApiRequest {
  /** The agent's ServiceAccount. */
  user: { namespace: string; name: string };
  verb: string;
  /** '' for the core group. */
  group: string;
  resource: string;
  subresource?: string;
  /** Absent for cluster-scoped objects (and for requests across all namespaces). */
  namespace?: string;
  /** Absent for list, watch and create. */
  name?: string;
}

type RbacDoc = {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  rules?: V1PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
};

export function authorized(bundle: readonly unknown[], request: ApiRequest): boolean {
  const docs = bundle as RbacDoc[];
  const boundTo = (b: RbacDoc) =>
    (b.subjects ?? []).some(
      (s) =>
        s.kind === 'ServiceAccount' && s.name === request.user.name && s.namespace === request.user.namespace,
    );
  const role = (kind: string, name: string, namespace?: string) =>
    docs.find((d) => d.kind === kind && d.metadata?.name === name && d.metadata.namespace === namespace);
  // A ClusterRoleBinding grants its ClusterRole everywhere; a RoleBinding grants its Role (or a
  // ClusterRole) only in the binding's namespace.
  const ruleSets: V1PolicyRule[][] = [];
  for (const b of docs.filter((d) => d.kind === 'ClusterRoleBinding' && boundTo(d))) {
    ruleSets.push(role('ClusterRole', b.roleRef?.name ?? '')?.rules ?? []);
  }
  for (const b of docs.filter((d) => d.kind === 'RoleBinding' && boundTo(d))) {
    const ns = b.metadata?.namespace;
    if (request.namespace === undefined || request.namespace !== ns) continue;
    const ref = b.roleRef;
    const found = ref?.kind === 'Role' ? role('Role', ref.name, ns) : role('ClusterRole', ref?.name ?? '');
    ruleSets.push(found?.rules ?? []);
  }
  return ruleSets.some((rules) => rules.some((rule) => allows(rule, request)));
}

function allows(rule: V1PolicyRule, r: ApiRequest): boolean {
  const has = (list: string[] | undefined, value: string) =>
    (list ?? []).includes(value) || (list ?? []).includes('*');
  const resource = r.subresource === undefined ? r.resource : `${r.resource}/${r.subresource}`;
  if (!has(rule.apiGroups, r.group) || !has(rule.resources, resource) || !has(rule.verbs, r.verb))
    return false;
  // resourceNames restrict requests that name an object; list, watch and create name none.
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (r.name !== undefined && names.includes(r.name));
}

/** A request as the API test server logs it, with the fields authorization reads. */
export interface LoggedRequest {
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

/** The logged requests the bundle does not allow the ServiceAccount `user`, as "verb path". */
export function refusedRequests(
  bundle: readonly unknown[],
  user: ApiRequest['user'],
  requests: readonly LoggedRequest[],
): string[] {
  return requests
    .filter(
      (r) =>
        !authorized(bundle, {
          user,
          verb: r.verb,
          group: r.apiGroup,
          resource: r.resource,
          ...(r.subresource === '' ? {} : { subresource: r.subresource }),
          ...(r.namespace === '' ? {} : { namespace: r.namespace }),
          ...(r.name === '' ? {} : { name: r.name }),
        }),
    )
    .map((r) => `${r.verb} ${r.path}`);
}

/** Each distinct call as "verb resource[/subresource]", sorted: what a test compares with permissions.ts. */
export function callsMade(requests: readonly LoggedRequest[]): string[] {
  const made = new Set(
    requests.map((r) => `${r.verb} ${r.resource}${r.subresource === '' ? '' : `/${r.subresource}`}`),
  );
  return [...made].sort();
}
