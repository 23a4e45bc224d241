import { access, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeFaults } from './deploy/index.ts';
import type { KindCluster } from './kind-cluster.ts';
import { KindNotWiredError, KindRunningLab, type KindHosts } from './kind-running-lab.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  await tools?.remove();
  tools = undefined;
});

async function lab(): Promise<{ lab: KindRunningLab; t: StandIns; runDir: string }> {
  tools = await standIns({ docker: [{ when: 'network ls*', stdout: 'f00d\n' }] });
  const runDir = join(await mkdtemp(join(tmpdir(), 'lblab-kind-lab-')), 'abc123');
  await mkdir(runDir);
  await writeFile(join(runDir, 'kubeconfig'), 'apiVersion: v1\n');
  const cluster: KindCluster = {
    name: 'lblab-abc123',
    network: 'lblab-kind-abc123',
    kubeconfig: join(runDir, 'kubeconfig'),
    nodes: [
      {
        lab: 'control-plane',
        role: 'control-plane',
        container: 'lblab-abc123-control-plane',
        id: 'a',
        ipv4: '198.18.0.2',
      },
      {
        lab: 'n1',
        role: 'worker',
        container: 'lblab-abc123-worker',
        id: 'b',
        ipv4: '198.18.0.3',
        ipv6: '2001:db8::3',
      },
    ],
  };
  const deployed = {
    serviceAddresses: (s: string) => (s === 'web' ? ['198.18.0.192', '2001:db8::100'] : []),
    faults: {
      ...({} as KubeFaults),
      upgrade: (image: string) => (faultCalls.push(`upgrade ${image}`), Promise.resolve()),
      speakerCrash: (node: string) => (faultCalls.push(`speakerCrash ${node}`), Promise.resolve()),
    },
  };
  const t = tools;
  const hosts: KindHosts = {
    probe: (client, target) => {
      hostCalls.push(`probe ${client} ${target}`);
      return Promise.resolve(summary);
    },
    carrier: (client, address) => (hostCalls.push(`carrier ${client} ${address}`), Promise.resolve('n1')),
    nexthops: (router, address) => (hostCalls.push(`nexthops ${router} ${address}`), Promise.resolve(['n1'])),
    // What the cluster side did by then: the routers and clients must go before the cluster.
    destroy: async () => void hostCalls.push(`destroy after ${(await t.calls()).length} kind/docker calls`),
  };
  const images = { deployed: 'lblab-lab:abc', upgrade: 'lblab-lab:abc-upgrade' };
  return { lab: new KindRunningLab(tools, 'abc123', cluster, deployed, hosts, images), t: tools, runDir };
}

const summary = { sent: 1, received: 1, lost: 0, outageMs: 0, gaps: [], servers: [], runs: [] };
let hostCalls: string[] = [];
let faultCalls: string[] = [];
beforeEach(() => {
  hostCalls = [];
  faultCalls = [];
});

describe('KindRunningLab', () => {
  it('names the lab nodes (not the control plane) and answers Service addresses from the deploy side', async () => {
    const { lab: l } = await lab();
    expect(l.nodes()).toEqual(['n1']);
    expect(l.serviceAddresses('web')).toEqual(['198.18.0.192', '2001:db8::100']);
    expect(() => l.node('n9')).toThrow(/no node n9 in kind cluster lblab-abc123/);
  });

  it('prints a manifest with the cluster, network, kubeconfig and each node’s container and addresses', async () => {
    const { lab: l, runDir } = await lab();
    expect(l.manifest()).toEqual({
      cluster: 'lblab-abc123',
      network: 'lblab-kind-abc123',
      kubeconfig: join(runDir, 'kubeconfig'),
      nodes: [
        {
          name: 'control-plane',
          container: 'lblab-abc123-control-plane',
          role: 'control-plane',
          ipv4: '198.18.0.2',
        },
        {
          name: 'n1',
          container: 'lblab-abc123-worker',
          role: 'worker',
          ipv4: '198.18.0.3',
          ipv6: '2001:db8::3',
        },
      ],
    });
  });

  it('probes, finds carriers and reads next hops through the routers and clients on the kind network', async () => {
    const { lab: l } = await lab();
    expect(await l.probe('c1', '198.18.0.192', { ratePps: 10, seconds: 1 })).toBe(summary);
    expect(await l.carrier('c1', '198.18.0.192')).toBe('n1');
    expect(await l.nexthops('r1', '198.18.0.192')).toEqual(['n1']);
    expect(hostCalls).toEqual([
      'probe c1 198.18.0.192',
      'carrier c1 198.18.0.192',
      'nexthops r1 198.18.0.192',
    ]);
  });

  it('refuses what it does not wire with a stable code and the reason', async () => {
    const { lab: l } = await lab();
    const err = await l.partition().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KindNotWiredError);
    expect((err as KindNotWiredError).code).toBe('KIND_NOT_WIRED');
    expect((err as Error).message).toMatch(/partitioning the lab: the kind backend does not wire this/);
  });

  it('offers Kubernetes faults by topology node name, upgrading between the two loaded tags', async () => {
    const { lab: l } = await lab();
    await l.kubernetes.speakerCrash('n1');
    await l.kubernetes.upgrade();
    await l.kubernetes.upgrade();
    expect(faultCalls).toEqual([
      'speakerCrash lblab-abc123-worker',
      'upgrade lblab-lab:abc-upgrade',
      'upgrade lblab-lab:abc',
    ]);
  });

  it('down removes the routers and clients, then deletes the cluster, its network and the run directory', async () => {
    const { lab: l, t, runDir } = await lab();
    await l.down();
    expect(hostCalls).toEqual(['destroy after 0 kind/docker calls']);
    expect((await t.calls()).map((c) => [c.tool, ...c.args])).toEqual([
      ['kind', 'delete', 'cluster', '--name', 'lblab-abc123'],
      ['docker', 'network', 'ls', '--quiet', '--filter', 'name=^lblab-kind-abc123$'],
      ['docker', 'network', 'rm', 'lblab-kind-abc123'],
    ]);
    await expect(access(runDir)).rejects.toThrow();
  });
});
