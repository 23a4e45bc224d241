/**
 * The Kubernetes speaker's inputs judge the configuration against the cluster's Nodes, as the controller
 * does: two BGPPeers to one address that select different nodes are a valid configuration, until a
 * label puts both on one node.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { eventually, startServer } from '../../kube-api/kube-api.test-support.ts';
import { kubeInputs } from './speaker-inputs-kube.ts';

const ns = 'metallb-system';
const node = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  status: { addresses: [{ type: 'InternalIP', address: name === 'n1' ? '198.18.0.11' : '198.18.0.12' }] },
});
const peer = (name: string, matchLabels: Record<string, string>) => ({
  apiVersion: 'metallb.io/v1beta2',
  kind: 'BGPPeer',
  metadata: { name, namespace: ns },
  spec: { myASN: 64512, peerASN: 64513, peerAddress: '198.18.0.1', nodeSelectors: [{ matchLabels }] },
});

describe('the Kubernetes speaker’s configuration', () => {
  it('is judged against the Nodes, and again when their labels change', async () => {
    const server = await startServer({ namespaces: ['default', ns] });
    onTestFinished(() => server.close());
    const dir = await mkdtemp(join(tmpdir(), 'lblab-speaker-inputs-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    for (const object of [
      node('n1', { rack: 'r1' }),
      node('n2', { zone: 'z1' }),
      peer('by-rack', { rack: 'r1' }),
      peer('by-zone', { zone: 'z1' }),
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'memberlist', namespace: ns },
        stringData: { secretkey: 'a membership key of 32 bytes....' },
      },
    ])
      await server.apply(object as Parameters<typeof server.apply>[0]);

    const inputs = await kubeInputs({
      node: 'n1',
      kubeconfig,
      namespace: ns,
      env: {},
      clock: new RealClock(),
      log: () => {},
    });
    onTestFinished(() => inputs.close());
    // The two sessions to 198.18.0.1 run on different nodes.
    const peers = inputs.config()?.peers.map((p) => p.meta.name);
    expect(peers?.sort()).toEqual(['by-rack', 'by-zone']);

    let rejected = 0;
    inputs.onRejected(() => rejected++);
    await server.apply(node('n1', { rack: 'r1', zone: 'z1' }) as Parameters<typeof server.apply>[0]);
    await eventually('the refusal', () => rejected > 0);
  });
});
