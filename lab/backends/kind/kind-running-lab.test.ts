import { access, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KubeFaults } from './deploy/index.ts';
import type { KindCluster } from './kind-cluster.ts';
import { KindRunningLab, type KindHosts } from './kind-running-lab.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await tools?.remove();
  tools = undefined;
});

/** What `docker inspect` says of the workers: n1 runs, n2 too (with another MAC than at the start). */
const inspected = JSON.stringify([
  {
    Name: '/lblab-abc123-worker',
    State: { Running: true, Pid: 4242 },
    NetworkSettings: { Networks: { 'lblab-kind-abc123': { MacAddress: '02:42:c6:12:00:03' } } },
  },
  {
    Name: '/lblab-abc123-worker2',
    State: { Running: true, Pid: 4343 },
    NetworkSettings: { Networks: { 'lblab-kind-abc123': { MacAddress: '02:42:c6:12:00:44' } } },
  },
]);
/** `ip -j addr show` in a node's namespace: loopback, the kind network's eth0, a pod's veth. */
const addrs = (address: string) =>
  JSON.stringify([
    { ifname: 'lo', addr_info: [{ local: '127.0.0.1' }] },
    { ifname: 'eth0', addr_info: [{ local: address }, { local: 'fe80::42:c6ff:fe12:3' }] },
    { ifname: 'veth1a2b', addr_info: [{ local: '10.244.1.1' }] },
  ]);

async function lab(): Promise<{ lab: KindRunningLab; t: StandIns; runDir: string }> {
  tools = await standIns({
    docker: [
      { when: 'network ls*', stdout: 'f00d\n' },
      { when: 'inspect*', stdout: inspected },
    ],
    nsenter: [
      { when: '--target 4242 --net -- ip -j addr show', stdout: addrs('198.18.0.3') },
      { when: '--target 4343 --net -- ip -j addr show', stdout: addrs('198.18.0.4') },
    ],
  });
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
        mac: '02:42:c6:12:00:03',
      },
      {
        lab: 'n2',
        role: 'worker',
        container: 'lblab-abc123-worker2',
        id: 'c',
        ipv4: '198.18.0.4',
        mac: '02:42:c6:12:00:04',
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
    moveEndpoints: (service: string, nodes: readonly string[], kubeNode: (n: string) => string) => (
      faultCalls.push(`moveEndpoints ${service} ${nodes.map(kubeNode).join(',')}`),
      Promise.resolve()
    ),
  };
  const t = tools;
  const hosts: KindHosts = {
    probe: (client, target) => {
      hostCalls.push(`probe ${client} ${target}`);
      return Promise.resolve(summary);
    },
    carrier: (client, address) => (hostCalls.push(`carrier ${client} ${address}`), Promise.resolve('n1')),
    nexthops: (router, address) => (hostCalls.push(`nexthops ${router} ${address}`), Promise.resolve(['n1'])),
    announcers: (address) => (hostCalls.push(`announcers ${address}`), Promise.resolve(['n1', 'n2'])),
    impair: (host, impairment, iface) => (
      hostCalls.push(`impair ${host} ${iface} ${impairment?.delayMs}`),
      Promise.resolve()
    ),
    rejoined: (node) => (hostCalls.push(`rejoined ${node}`), Promise.resolve()),
    // The client c1 runs nft as the fabric's containers do; what it was given is kept.
    wires: {
      hosts: new Map([
        ['c1', { exec: async (argv) => (c1Rulesets.push(await readFile(argv[2]!, 'utf8')), '') }],
      ]),
      interfaces: new Map([['c1', ['lan0']]]),
      macs: new Map([['02:42:c6:12:00:0e', 'c1']]),
    },
    // What the cluster side did by then: the routers and clients must go before the cluster.
    destroy: async () => void hostCalls.push(`destroy after ${(await t.calls()).length} kind/docker calls`),
  };
  const images = { deployed: 'lblab-lab:abc', upgrade: 'lblab-lab:abc-upgrade' };
  return { lab: new KindRunningLab(tools, 'abc123', cluster, deployed, hosts, images), t: tools, runDir };
}

const summary = { sent: 1, received: 1, lost: 0, outageMs: 0, gaps: [], servers: [], runs: [] };
let hostCalls: string[] = [];
let faultCalls: string[] = [];
let c1Rulesets: string[] = [];
beforeEach(() => {
  hostCalls = [];
  faultCalls = [];
  c1Rulesets = [];
});

describe('KindRunningLab', () => {
  it('names the lab nodes (not the control plane) and answers Service addresses from the deploy side', async () => {
    const { lab: l } = await lab();
    expect(l.nodes()).toEqual(['n1', 'n2']);
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
        { name: 'n2', container: 'lblab-abc123-worker2', role: 'worker', ipv4: '198.18.0.4' },
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

  it('asks announcers and impairs through the routers and clients', async () => {
    const { lab: l } = await lab();
    expect(await l.announcers('198.18.0.192')).toEqual(['n1', 'n2']);
    await l.impair('c1', { delayMs: 20, jitterMs: 0, lossPct: 0 }, 'wan0');
    expect(hostCalls).toEqual(['announcers 198.18.0.192', 'impair c1 wan0 20']);
  });

  it('partitions in every host: each node, entered by its PID, drops the other side’s MACs on its lab interface', async () => {
    const { lab: l, t } = await lab();
    vi.stubEnv('PATH', `${t.dir}:${process.env['PATH']}`);
    await l.partition(['n1'], ['n2', 'c1']);
    const calls = (await t.calls()).map((c) => [c.tool, ...c.args].join(' '));
    expect(calls[0]).toBe('docker inspect lblab-abc123-worker lblab-abc123-worker2');
    expect(calls.filter((c) => c.startsWith('nsenter')).map((c) => c.replace(/\/tmp\/\S+/, 'FILE'))).toEqual([
      'nsenter --target 4242 --net -- ip -j addr show',
      'nsenter --target 4343 --net -- ip -j addr show',
      'nsenter --target 4242 --net -- nft -f FILE',
      'nsenter --target 4343 --net -- nft -f FILE',
    ]);
    const [n1, n2] = (await t.stdin()).split(/(?=^table netdev lblab_partition \{\}$)/m);
    // n1 drops n2 (its MAC as docker inspect says now) and c1; each of them drops n1.
    expect(n1).toContain('type filter hook ingress device "eth0"');
    expect(n1).toContain('ether saddr { 02:42:c6:12:00:0e, 02:42:c6:12:00:44 } drop');
    expect(n2).toContain('ether saddr { 02:42:c6:12:00:03 } drop');
    expect(c1Rulesets).toHaveLength(1);
    expect(c1Rulesets[0]).toContain('device "lan0"');
    expect(c1Rulesets[0]).toContain('ether saddr { 02:42:c6:12:00:03 } drop');

    await l.heal();
    const healed = (await t.stdin()).slice(n1!.length + n2!.length);
    expect(healed).toBe('table netdev lblab_partition {}\ndelete table netdev lblab_partition\n'.repeat(2));
    expect(c1Rulesets[1]).toBe('table netdev lblab_partition {}\ndelete table netdev lblab_partition\n');
  });

  it('a node revived or reconnected during a partition gets the partition written again, and so do its peers', async () => {
    const { lab: l, t } = await lab();
    vi.stubEnv('PATH', `${t.dir}:${process.env['PATH']}`);
    await l.partition(['n1'], ['n2']);
    await l.node('n1').kill();
    const before = (await t.calls()).length;
    await l.node('n1').revive();
    const revived = (await t.calls())
      .slice(before)
      .map((c) => [c.tool, ...c.args].join(' ').replace(/\/tmp\/\S+/, 'FILE'));
    expect(revived.slice(0, 3)).toEqual([
      'docker network connect --ip 198.18.0.3 --ip6 2001:db8::3 lblab-kind-abc123 lblab-abc123-worker',
      'docker start lblab-abc123-worker',
      'docker inspect lblab-abc123-worker lblab-abc123-worker2',
    ]);
    expect(revived.filter((c) => c.endsWith('nft -f FILE'))).toHaveLength(2);

    const linked = (await t.calls()).length;
    await l.node('n2').linkDown();
    await l.node('n2').linkUp();
    expect((await t.calls()).slice(linked).filter((c) => c.args.at(-2) === '-f')).toHaveLength(2);

    // Without a partition in force, a revival touches nothing else; each time, the routes came back.
    await l.heal();
    const healed = (await t.calls()).length;
    await l.node('n1').revive();
    expect((await t.calls()).slice(healed).map((c) => c.args[0])).toEqual(['network', 'start']);
    expect(hostCalls).toEqual(['rejoined n1', 'rejoined n2', 'rejoined n1']);
  });

  it('moves endpoints through the deploy side, naming the nodes by their Kubernetes names', async () => {
    const { lab: l } = await lab();
    await l.setEndpoints('local-web', ['n2', 'n1']);
    await l.setEndpoints('local-web', []);
    expect(faultCalls).toEqual([
      'moveEndpoints local-web lblab-abc123-worker2,lblab-abc123-worker',
      'moveEndpoints local-web ',
    ]);
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
