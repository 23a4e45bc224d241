/**
 * The status objects' API calls, made as the speaker's ServiceAccount against the API test server through
 * every path (adopting an earlier life's object, create, PUT of /status, a conflict re-read, delete, its
 * Pod): all allowed by the install bundle's RBAC (permissions.ts), and exactly these.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { statusObjectCalls } from '../bundle/agent-calls.test-support.ts';
import { callsMade, refusedRequests } from '../bundle/authorize.test-support.ts';
import { agentRbac } from '../bundle/rbac.ts';
import { startServer } from '../kube-api-server.test-support.ts';
import type { DesiredStatus } from './announcements.ts';
import { StatusObjects } from './status-objects.ts';

const ns = 'metallb-system';
const user = `system:serviceaccount:${ns}:speaker`;
/** The Service announced in Layer 2 on `iface` and over BGP to `peer`. */
const both = (serviceName: string, iface: string, peer: string): DesiredStatus[] => [
  { protocol: 'layer2', serviceNamespace: 'shop', serviceName, interfaces: [iface] },
  { protocol: 'bgp', serviceNamespace: 'shop', serviceName, peers: [peer] },
];

describe('the status objects’ API calls', () => {
  it('are all allowed to the speaker by the bundle’s RBAC, and are exactly these', async () => {
    const server = await startServer({ namespaces: ['default', ns] });
    await server.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'speaker-1', namespace: ns } });
    // An earlier life's objects for web, owned by nobody: adopted (update) at start.
    for (const kind of ['ServiceL2Status', 'ServiceBGPStatus'])
      await server.apply({
        apiVersion: 'metallb.io/v1beta1',
        kind,
        metadata: {
          name: `old-${kind.toLowerCase()}`,
          namespace: ns,
          labels: {
            'metallb.io/node': 'n1',
            'metallb.io/service-name': 'web',
            'metallb.io/service-namespace': 'shop',
          },
        },
      });
    const writer = new StatusObjects({
      kc: server.kubeConfig({ user }),
      namespace: ns,
      node: 'n1',
      podName: 'speaker-1',
      clock: new RealClock(),
      random: new Random(1),
      log: () => {},
    });
    writer.start();
    // web's objects are adopted, api's created.
    writer.set([...both('web', 'eth0', 'r1'), ...both('api', 'eth0', 'r1')]);
    await writer.settled();
    // Someone else changes every object: the next writes meet 409 and read them again.
    for (const kind of ['ServiceL2Status', 'ServiceBGPStatus'])
      for (const obj of await server.list('metallb.io/v1beta1', kind, ns))
        await server.apply({ ...obj, metadata: { ...obj.metadata, annotations: { touched: 'yes' } } });
    writer.set([...both('web', 'eth1', 'r2'), ...both('api', 'eth1', 'r2')]);
    await writer.settled();
    writer.set([]);
    await writer.settled();
    writer.close();

    const requests = server.requests().filter((r) => r.isResourceRequest && r.user === user);
    const rbac = agentRbac('speaker', { namespace: ns, webhooks: false });
    const refused = refusedRequests(rbac, { namespace: ns, name: 'speaker' }, requests);
    expect(refused).toEqual([]);
    expect(callsMade(requests)).toEqual(statusObjectCalls);
  });
});
