/**
 * Speakers in Kubernetes mode on the real kernel: three `lblab speaker` processes read Nodes, the
 * Service, the MetalLB configuration and the membership key from the API test server (a process in a
 * lab namespace on the nodes' segment, as kube-apiserver would be on the node network), while a client
 * probes the service address at 100/s. Until the configuration is valid nothing is announced (membership
 * runs); then the address is served. The API server going away costs no probe and moves nothing; a
 * dead owner still fails over in well under a second (membership, not the API, decides); the
 * ServiceL2Status objects name whoever announces.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonLinesChild } from '../../../core/runtime/json-lines-child.test-support.ts';
import {
  expectedOwner,
  L2Lab,
  nodeNames,
  vip4,
  type NodeName,
  type SpeakerSpawner,
} from './l2-lab.test-support.ts';
import { lines } from './program-output.ts';
import type { SpeakerProcess } from './speaker-process.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lblabCli = fileURLToPath(new URL('../../cli/lblab.mjs', import.meta.url));
const kubeApiMain = fileURLToPath(new URL('../../kube-api/kube-api-main.ts', import.meta.url));
const apiAddress = '198.18.0.50';
const ns = 'metallb-system';
const speakerUser = `system:serviceaccount:${ns}:speaker`;

interface ApiLine {
  id?: number;
  event?: string;
  ok?: boolean;
  message?: string;
  items?: {
    metadata: { name: string; labels?: Record<string, string> };
    status?: { node?: string };
    reason?: string;
    message?: string;
    count?: number;
  }[];
}

/** `lblab speaker` as the DaemonSet runs it: no files, the node and Pod from the environment. */
const kubeSpeaker: SpeakerSpawner = (netns, name, dir, args) => {
  const child = netns.spawn(
    ['node', lblabCli, 'speaker', '--kubeconfig', join(dir, 'kubeconfig'), '--namespace', ns, ...args],
    { env: { ...process.env, METALLB_NODE_NAME: name, METALLB_POD_NAME: `speaker-${name}` } },
  ) as SpeakerProcess;
  child.log = [];
  lines(child.stdout!, (l) => child.log.push(l));
  lines(child.stderr!, (l) => child.log.push(l));
  return child;
};

const pool = (addresses: string[]) => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  metadata: { name: 'lab', namespace: ns },
  spec: { addresses },
});

/**
 * What the controller and the install would have put in the cluster for the lab, but with a pool the
 * validator refuses (a typo in an address): the speakers start with no valid configuration.
 */
function seed(l2: L2Lab): object[] {
  const meta = (name: string, namespace?: string) => ({ name, ...(namespace && { namespace }) });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: meta(ns) },
    { apiVersion: 'v1', kind: 'Namespace', metadata: meta('lab') },
    ...nodeNames.map((n) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: n, labels: { 'kubernetes.io/hostname': n } },
      status: { addresses: [{ type: 'InternalIP', address: l2.address(n) }] },
    })),
    ...nodeNames.map((n) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(`speaker-${n}`, ns) })),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('web', 'lab'),
      spec: {
        type: 'LoadBalancer',
        selector: { app: 'web' },
        ports: [{ port: 7777, protocol: 'UDP' }],
      },
      status: { loadBalancer: { ingress: [{ ip: vip4 }] } },
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-1', namespace: 'lab', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: nodeNames.map((n, i) => ({
        addresses: [`198.18.64.${i + 1}`],
        conditions: { ready: true },
        nodeName: n,
      })),
    },
    pool(['198.18.0.300/29']),
    {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'L2Advertisement',
      metadata: meta('lab', ns),
      spec: { ipAddressPools: ['lab'] },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('memberlist', ns),
      data: { secretkey: Buffer.from('a membership key from the cluster, 32+ bytes').toString('base64') },
    },
  ];
}

describe.skipIf(mode === 'skip')('speakers on the Kubernetes API (netns)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('nothing announced before a valid configuration; an API outage costs no probe and moves nothing; a dead owner fails over by membership; the status objects follow', async () => {
    const l2 = await L2Lab.create({ startSpeakers: false, spawn: kubeSpeaker });
    cleanup.push(() => l2.destroy());
    const host = await l2.host('k1', apiAddress);
    const api = new JsonLinesChild<ApiLine>(
      host.spawn(['node', '--import', 'tsx', kubeApiMain, '--listen', apiAddress, '--port', '6443']),
      15_000,
    );
    cleanup.push(() => api.stop());
    await api.until('the API server listening', () => api.events.find((e) => e.event === 'listening'));
    const ok = async (op: string, fields: object = {}) => {
      const reply = await api.request(op, fields);
      if (!reply.ok) throw new Error(`${op}: ${reply.message}`);
      return reply;
    };
    for (const object of seed(l2)) await ok('apply', { object });
    await ok('kubeconfig', { user: speakerUser, namespace: ns, path: join(l2.dir, 'kubeconfig') });
    const statuses = async () =>
      (await ok('list', { apiVersion: 'metallb.io/v1beta1', kind: 'ServiceL2Status', namespace: ns }))
        .items ?? [];
    const owners = async () => (await statuses()).map((o) => o.status?.node).sort();
    /** Until the ServiceL2Status objects name exactly `node`, each polled 10 times a second. */
    const onlyOwner = (node: string, what: string, ms: number) =>
      until(
        what,
        async () => {
          const o = await owners();
          return o.length === 1 && o[0] === node ? o : undefined;
        },
        ms,
      );
    const until = async <T>(what: string, check: () => Promise<T | undefined>, ms: number): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const v = await check();
        if (v !== undefined) return v;
        if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
        await sleep(100);
      }
    };

    // No valid configuration yet: membership runs, nothing is announced.
    for (const n of nodeNames) l2.startSpeaker(n);
    await until(
      'every speaker waiting for a valid configuration',
      async () =>
        [...l2.speakers.values()].every((s) =>
          s.log.some((l) => /no valid MetalLB configuration yet/.test(l)),
        ) || undefined,
      30_000,
    );
    await sleep(1000);
    expect((await l2.probe(vip4, 50, 0.5)).received).toBe(0);
    await ok('apply', { object: pool(['198.18.0.200/29']) });
    await l2.settled(vip4, 30_000);
    const owner = expectedOwner(nodeNames, vip4);
    await onlyOwner(owner, 'the status object naming the owner', 10_000);
    for (const [n, s] of l2.speakers) expect(s.log.join('\n'), n).toMatch(/membership authenticated/);

    // nodeAssigned once per assignment (MetalLB repeats it on every sync).
    const assigned = async () =>
      ((await ok('list', { apiVersion: 'v1', kind: 'Event', namespace: 'lab' })).items ?? [])
        .filter((e) => e.reason === 'nodeAssigned')
        .map((e) => `${e.message} ×${e.count ?? 1}`)
        .sort();
    const beforeOutage = await until(
      'the nodeAssigned Event',
      async () => {
        const a = await assigned();
        return a.some((e) => e.includes(`"${owner}"`)) ? a : undefined;
      },
      5000,
    );
    expect(beforeOutage.filter((e) => e.includes(`"${owner}"`))).toEqual([
      `announcing from node "${owner}" with protocol "layer2" ×1`,
    ]);

    // (a) The API server goes away for 10 s while the client probes.
    const mark = new Map([...l2.speakers].map(([n, s]) => [n, s.log.length]));
    const probing = l2.probe(vip4, 100, 14);
    await sleep(1000);
    await ok('down');
    await sleep(10_000);
    await ok('up');
    const during = await probing;
    const logged = [...l2.speakers].flatMap(([n, s]) => s.log.slice(mark.get(n)).map((l) => `${n} ${l}`));
    console.log(
      `API server down 10 s: ${during.lost} of ${during.sent} probes lost, longest gap ${Math.round(during.outageMs)} ms, ${logged.filter((l) => / ownership: /.test(l)).length} ownership lines`,
    );
    expect(during.lost).toBe(0);
    expect(logged.filter((l) => / (ownership|CONFLICT): /.test(l))).toEqual([]);
    expect(logged.join('\n')).toMatch(/keeping the last good cluster state|retrying|restart/i);
    await onlyOwner(owner, 'the status objects right again after the outage', 10_000);
    // The resync after the outage repeated no Event.
    await sleep(1000);
    expect(await assigned()).toEqual(beforeOutage);

    // (b) The owner dies: its speaker is killed and its link goes down at once. The others fail over by
    // membership alone (the API server plays no part).
    const probe2 = l2.probe(vip4, 100, 4);
    await sleep(1000);
    await Promise.all([l2.stopSpeaker(owner, 'SIGKILL'), l2.nodes.get(owner)!.linkDown('eth0')]);
    const failover = await probe2;
    const successor = expectedOwner(
      nodeNames.filter((n) => n !== owner),
      vip4,
    );
    console.log(
      `owner ${owner} dies (speaker SIGKILL, link down): failover gap ${Math.round(failover.outageMs)} ms, ${failover.lost} probes lost; new owner ${successor}`,
    );
    expect(failover.outageMs).toBeLessThan(1000);
    expect(failover.servers.map((s) => s.server)).toContain(successor);

    // (c) The successor's object appears. The killed speaker's stays (nobody runs for it) until it comes
    // back: then it reconciles at start, and as the address's first choice again it takes it back.
    const afterKill = await until(
      'a status object naming the successor',
      async () => {
        const o = await owners();
        return o.includes(successor) ? o : undefined;
      },
      10_000,
    );
    console.log(`status objects after the failover: ${afterKill.join(', ')}`);
    // The successor's nodeAssigned counts once more (the recorder counts a repeat within 10 minutes on
    // the first Event: the successor may have held the address for a moment while the speakers started).
    const times = (events: string[], node: string) =>
      Number(/×(\d+)$/.exec(events.find((e) => e.includes(`"${node}"`)) ?? '×0')![1]);
    expect(times(await assigned(), successor)).toBe(times(beforeOutage, successor) + 1);
    await l2.nodes.get(owner)!.linkUp('eth0');
    l2.startSpeaker(owner as NodeName);
    await onlyOwner(owner, 'exactly one status object, naming the restarted first choice', 20_000);
  }, 90_000);

  it('file mode is unchanged beside it: speakers on --cluster/--config files settle and serve', async () => {
    const l2 = await L2Lab.create();
    cleanup.push(() => l2.destroy());
    await l2.settled(vip4, 20_000);
    const summary = await l2.probe(vip4, 100, 1);
    expect(summary.servers.map((s) => s.server)).toEqual([expectedOwner(nodeNames, vip4)]);
    for (const [n, s] of l2.speakers) expect(s.log.join('\n'), n).toMatch(/: cluster file .*cluster\.yaml/);
  }, 60_000);
});
