/**
 * The status objects' API calls, made as the speaker's ServiceAccount against the API test server through
 * every path (adopting an earlier life's object, create, PUT of /status, a conflict re-read, delete, its
 * Pod): all allowed by the install bundle's RBAC (permissions.ts), and exactly these.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { callsMade, refusedRequests } from '../bundle/authorize.test-support.ts';
import { agentRbac } from '../bundle/rbac.ts';
import { startServer } from '../kube-api-server.test-support.ts';
import type { DesiredStatus } from './announcements.ts';
import { StatusObjects } from './status-objects.ts';

const ns = 'metallb-system';
const user = `system:serviceaccount:${ns}:speaker`;
const web = (protocol: 'layer2' | 'bgp', what: string): DesiredStatus =>
  protocol === 'layer2'
    ? { protocol, serviceNamespace: 'shop', serviceName: 'web', interfaces: [what] }
    : { protocol, serviceNamespace: 'shop', serviceName: 'web', peers: [what] };

describe('the status objects’ API calls', () => {
  it('are all allowed to the speaker by the bundle’s RBAC, and are exactly these', async () => {
    const server = await startServer({ namespaces: ['default', ns] });
    await server.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'speaker-1', namespace: ns } });
    // An earlier life's object, owned by nobody: adopted (update) at start.
    await server.apply({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'ServiceL2Status',
      metadata: {
        name: 'l2-old',
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
    writer.set([web('layer2', 'eth0'), web('bgp', 'r1')]);
    await writer.settled();
    // Someone else changes the object: the next write meets 409 and re-reads it.
    const [obj] = await server.list('metallb.io/v1beta1', 'ServiceBGPStatus', ns);
    await server.apply({ ...obj!, metadata: { ...obj!.metadata, annotations: { touched: 'yes' } } });
    writer.set([web('layer2', 'eth0'), web('bgp', 'r2')]);
    await writer.settled();
    writer.set([]);
    await writer.settled();
    writer.close();

    const requests = server.requests().filter((r) => r.isResourceRequest && r.user === user);
    const rbac = agentRbac('speaker', { namespace: ns, webhooks: false });
    const refused = refusedRequests(rbac, { namespace: ns, name: 'speaker' }, requests);
    expect(refused).toEqual([]);
    expect(callsMade(requests)).toEqual(
      [
        'get pods',
        'list servicel2statuses',
        'list servicebgpstatuses',
        'update servicel2statuses',
        'create servicebgpstatuses',
        'update servicel2statuses/status',
        'update servicebgpstatuses/status',
        'get servicebgpstatuses',
        'delete servicel2statuses',
        'delete servicebgpstatuses',
      ].sort(),
    );
  });
});
