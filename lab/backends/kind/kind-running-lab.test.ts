import { access, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KindCluster } from './kind-cluster.ts';
import { KindNotWiredError, KindRunningLab } from './kind-running-lab.ts';
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
  };
  return { lab: new KindRunningLab(tools, 'abc123', cluster, deployed), t: tools, runDir };
}

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

  it('refuses what needs clients on the kind network with a stable code and the reason', async () => {
    const { lab: l } = await lab();
    const err = await l.probe('c1', '198.18.0.192', { ratePps: 10, seconds: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KindNotWiredError);
    expect((err as KindNotWiredError).code).toBe('KIND_NOT_WIRED');
    expect((err as Error).message).toMatch(
      /probing 198\.18\.0\.192 from c1: .*clients and routers on the kind network/,
    );
  });

  it('down deletes the cluster, then its network, and the run directory with the kubeconfig', async () => {
    const { lab: l, t, runDir } = await lab();
    await l.down();
    expect((await t.calls()).map((c) => [c.tool, ...c.args])).toEqual([
      ['kind', 'delete', 'cluster', '--name', 'lblab-abc123'],
      ['docker', 'network', 'ls', '--quiet', '--filter', 'name=^lblab-kind-abc123$'],
      ['docker', 'network', 'rm', 'lblab-kind-abc123'],
    ]);
    await expect(access(runDir)).rejects.toThrow();
  });
});
