/**
 * ServiceAccounts and least-privilege RBAC for the agents, built from permissions.ts: a ClusterRole and
 * ClusterRoleBinding per agent for what it does cluster-wide (named as MetalLB names them), a Role and
 * RoleBinding in lblab's namespace for the rest.
 */
import type {
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1PolicyRule,
  V1Role,
  V1RoleBinding,
  V1ServiceAccount,
} from '@kubernetes/client-node';
import { agentLabels, type Agent } from './names.ts';
import { permissions, type Permission } from './permissions.ts';

export interface RbacOptions {
  namespace: string;
  /** Without webhooks the controller patches no webhook configuration or CRD, so it may not. */
  webhooks: boolean;
}

export type RbacObject = V1ServiceAccount | V1ClusterRole | V1ClusterRoleBinding | V1Role | V1RoleBinding;

export function serviceAccount(agent: Agent, namespace: string): V1ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: agent, namespace, labels: agentLabels(agent) },
  };
}

/** The ClusterRole, Role and their bindings for one agent's ServiceAccount. */
export function agentRbac(agent: Agent, options: RbacOptions): RbacObject[] {
  const { namespace } = options;
  const granted = permissions[agent].filter((p) => options.webhooks || p.webhooks !== true);
  const rules = (scope: Permission['scope']) => granted.filter((p) => p.scope === scope).map(policyRule);
  const subjects = [{ kind: 'ServiceAccount', name: agent, namespace }];
  const clusterName = `${namespace}:${agent}`;
  const rbac = 'rbac.authorization.k8s.io';
  return [
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: clusterName },
      rules: rules('cluster'),
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: clusterName },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: clusterName },
      subjects,
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: agent, namespace },
      rules: rules('namespace'),
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: agent, namespace },
      roleRef: { apiGroup: rbac, kind: 'Role', name: agent },
      subjects,
    },
  ];
}

function policyRule(p: Permission): V1PolicyRule {
  const rule: V1PolicyRule = { apiGroups: [p.group], resources: [...p.resources], verbs: [...p.verbs] };
  if (p.resourceNames !== undefined) rule.resourceNames = [...p.resourceNames];
  return rule;
}
