/**
 * The sources and the event recorder as each agent runs them, against the API test server as that
 * agent's ServiceAccount: every request they make must be one the install bundle's RBAC allows
 * (permissions.ts), including the paths a refused configuration and a left-over ConfigurationState take.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { sourceCalls } from '../bundle/agent-calls.test-support.ts';
import { callsMade, refusedRequests } from '../bundle/authorize.test-support.ts';
import type { Agent } from '../bundle/names.ts';
import { agentRbac } from '../bundle/rbac.ts';
import { kubeEventRecorder } from '../events/event-recorder.ts';
import { eventually, startServer } from '../kube-api-server.test-support.ts';
import { KubeClusterSource } from './kube-cluster-source.ts';
import { KubeConfigSource } from './kube-config-source.ts';

const ns = 'metallb-system';
const clock = new RealClock();

async function run(agent: Agent) {
  const server = await startServer({ namespaces: ['default', ns] });
  const user = `system:serviceaccount:${ns}:${agent}`;
  const component = agent === 'controller' ? ({ agent } as const) : ({ agent, node: 'n1' } as const);
  // A ConfigurationState an earlier run left: create meets 409, and the source reads it to replace it.
  await server.apply({
    apiVersion: 'metallb.io/v1beta1',
    kind: 'ConfigurationState',
    metadata: { name: agent === 'controller' ? 'controller' : 'speaker-n1', namespace: ns },
  });
  await server.apply({
    apiVersion: 'metallb.io/v1beta1',
    kind: 'IPAddressPool',
    metadata: { name: 'bad', namespace: ns },
    spec: { addresses: ['198.18.10.300/28'] },
  });
  const kc = server.kubeConfig({ user });
  const common = { kc, clock, random: new Random(1), log: () => {} };
  const recorder = kubeEventRecorder({ ...common, component: `metallb-${agent}` });
  const cluster = await KubeClusterSource.start({ ...common, endpointSlices: agent === 'speaker' });
  const config = await KubeConfigSource.start({ ...common, namespace: ns, component, recorder });
  // An Event about a Service, and its repeat: a patch of the first.
  const event = {
    type: 'Normal',
    reason: 'IPAllocated',
    message: 'Assigned IP ["198.18.10.1"]',
    involved: { apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'web' },
  } as const;
  recorder.record(event);
  await recorder.flush();
  recorder.record(event);
  await recorder.flush();
  await server.apply({
    apiVersion: 'metallb.io/v1beta1',
    kind: 'IPAddressPool',
    metadata: { name: 'bad', namespace: ns },
    spec: { addresses: ['198.18.10.0/28'] },
  });
  await eventually('the fix', () => config.state() === 'loaded');
  await config.idle();
  cluster.close();
  config.close();
  await recorder.close();
  return server.requests().filter((r) => r.isResourceRequest && r.user === user);
}

describe('the sources’ API calls', () => {
  for (const agent of ['controller', 'speaker'] as const) {
    it(`are all allowed to the ${agent} by the bundle's RBAC`, async () => {
      const requests = await run(agent);
      const rbac = agentRbac(agent, { namespace: ns, webhooks: false });
      const refused = refusedRequests(rbac, { namespace: ns, name: agent }, requests);
      expect(refused).toEqual([]);
      expect(callsMade(requests)).toEqual(sourceCalls(agent));
    });
  }
});
