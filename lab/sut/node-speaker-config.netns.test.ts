/**
 * The node speaker configs derived from MetalLB resources against the daemons' own parsers (FRR
 * `vtysh --dryrun`, `gobgpd --dry-run`), with BFD, graceful restart, communities and dual-stack sessions.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../core/cluster/types.ts';
import { loadConfig } from '../../core/config/index.ts';
import type { Netns } from '../backends/netns/namespace.ts';
import { requireNetns } from '../backends/netns/test-support.ts';
import { runControl } from './command.ts';
import { renderFrrConfig } from './frr-config.ts';
import { renderGobgpConfig } from './gobgp-config.ts';
import { nodeSpeakerSpec, type NodeSpeakerImpl } from './node-speaker-config.ts';
import { resolveSpec } from './spec.ts';
import { webCluster } from './web-cluster.test-support.ts';

const mode = await requireNetns(['vtysh', 'gobgpd']);

const metallb = `
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [198.18.200.0/29, '2001:db8:200::/125'] }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab], communities: ['64512:7', 'large:64512:1:2'] }
---
apiVersion: metallb.io/v1beta1
kind: BFDProfile
metadata: { name: fast, namespace: metallb-system }
spec: { receiveInterval: 100, transmitInterval: 150, detectMultiplier: 4, passiveMode: true }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r1, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, holdTime: 9s, keepaliveTime: 3s, connectTime: 2s, password: s3cret, bfdProfile: fast, enableGracefulRestart: true, dualStackAddressFamily: true }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r2, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64514, peerAddress: 198.18.9.1, ebgpMultiHop: true, sourceAddress: 198.18.0.11, peerPort: 1179, bfdProfile: fast }
`;

const cluster: ClusterSnapshot = webCluster({
  nodes: [{ name: 'n1', address: '198.18.0.11' }],
  ingress: ['198.18.200.1', '2001:db8:200::1'],
  endpointsOn: ['n1'],
});

function rendered(impl: NodeSpeakerImpl): string {
  const loaded = loadConfig([{ path: 'metallb.yaml', text: metallb }]);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  const { omitted: _omitted, ...spec } = nodeSpeakerSpec(impl, loaded.config, cluster, 'n1');
  const resolved = resolveSpec({ ...spec, ns: {} as Netns });
  return impl === 'frr' ? renderFrrConfig(resolved) : renderGobgpConfig(resolved);
}

describe.skipIf(mode === 'skip')('node speaker configs pass the daemons’ own checks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-node-speaker-configs-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('FRR: vtysh --dryrun accepts it (BFD passive, multihop, GR with preserve-fw-state)', async () => {
    const file = join(dir, 'frr.conf');
    const text = rendered('frr');
    expect(text).toContain('bgp graceful-restart preserve-fw-state');
    expect(text).toContain('neighbor 198.18.9.1 ebgp-multihop 255');
    await writeFile(file, text);
    await expect(runControl(['vtysh', '--dryrun', '-f', file])).resolves.toBeDefined();
  });

  it('GoBGP: gobgpd --dry-run reads it', async () => {
    const file = join(dir, 'gobgpd.toml');
    await writeFile(file, rendered('gobgp'));
    const { stdout, stderr } = await runControl(['gobgpd', '--dry-run', '-f', file]);
    expect(`${stdout}${stderr}`).toContain('Finished reading the config file');
  });
});
