/**
 * KubeConfigSource against the API test server with real client-node: a good configuration is loaded; a
 * refused edit or a missing Secret keeps the last good one and is reported as a user would look for it
 * (a Warning Event on the object, the ConfigurationState, onRejected); the fix is picked up; Secrets the
 * configuration does not name, binary or not, change nothing; a cluster without the ConfigurationState
 * CRD is not asked again.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { formatIssue, objectLabel, type ConfigIssue, type NodeLabels } from '../../config/index.ts';
import { Random } from '../../runtime/random.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { kubeEventRecorder } from '../events/event-recorder.ts';
import { judge } from '../webhooks/judge.ts';
import {
  eventually,
  lblabResourceTypes,
  sleep,
  startServer,
  type KubeApiTestServer,
} from '../kube-api-server.test-support.ts';
import { KubeConfigSource, type KubeConfigSourceOptions } from './kube-config-source.ts';

const clock = new RealClock();
const ns = 'metallb-system';

const pool = (addresses: string[]) => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  metadata: { name: 'pool1', namespace: ns },
  spec: { addresses },
});
const l2 = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'L2Advertisement',
  metadata: { name: 'l2', namespace: ns },
  spec: { ipAddressPools: ['pool1'] },
};
const peer = {
  apiVersion: 'metallb.io/v1beta2',
  kind: 'BGPPeer',
  metadata: { name: 'r1', namespace: ns },
  spec: {
    myASN: 64512,
    peerASN: 64513,
    peerAddress: '198.18.0.1',
    passwordSecret: { name: 'bgp-pass', namespace: ns },
  },
};
const basicAuth = (name: string, password: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns },
  type: 'kubernetes.io/basic-auth',
  data: { password: Buffer.from(password).toString('base64') },
});
/** A Secret that is not UTF-8 text (a key file, say): the loader must never see it. */
const binary = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'blob', namespace: ns },
  type: 'Opaque',
  data: { key: Buffer.from([0xff, 0xfe, 0x00, 0x80]).toString('base64') },
};

async function setup(
  seed: (s: KubeApiTestServer) => Promise<void>,
  options: Partial<KubeConfigSourceOptions> & { serverTypes?: typeof lblabResourceTypes } = {},
) {
  const server = await startServer({
    namespaces: ['default', ns],
    ...(options.serverTypes === undefined ? {} : { types: options.serverTypes }),
  });
  await seed(server);
  const log: string[] = [];
  const kc = server.kubeConfig();
  const recorder = kubeEventRecorder({ kc, component: 'metallb-speaker', host: 'n1', clock, log: () => {} });
  onTestFinished(() => recorder.close());
  const source = await KubeConfigSource.start({
    kc,
    namespace: ns,
    component: { agent: 'speaker', node: 'n1' },
    clock,
    random: new Random(3),
    log: (l) => log.push(l),
    recorder,
    watchdogMs: 3000,
    ...options,
  });
  onTestFinished(() => source.close());
  const changes: string[][] = [];
  source.onChange((c) => changes.push(c.pools.flatMap((p) => p.addresses.map((a) => a.text))));
  const rejections: (readonly ConfigIssue[])[] = [];
  source.onRejected((e) => rejections.push(e));
  const state = () =>
    server.get({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'ConfigurationState',
      namespace: ns,
      name: 'speaker-n1',
    });
  const warnings = async () => {
    await recorder.flush();
    return (await server.list('v1', 'Event', ns)).filter((e) => e['type'] === 'Warning');
  };
  return { server, source, log, changes, rejections, state, warnings };
}

describe('KubeConfigSource', () => {
  it('loads a valid configuration and says so in its ConfigurationState', async () => {
    const t = await setup(async (s) => {
      await s.apply(pool(['198.18.10.0/28']));
      await s.apply(l2);
    });
    expect(t.source.state()).toBe('loaded');
    expect(t.source.current()?.pools.map((p) => p.meta.name)).toEqual(['pool1']);
    expect(t.source.resources().map((o) => (o as { kind: string }).kind)).toEqual([
      'IPAddressPool',
      'L2Advertisement',
    ]);
    await t.source.idle();
    const state = await t.state();
    expect(state?.metadata.labels).toEqual({
      'metallb.io/component-type': 'speaker',
      'metallb.io/node-name': 'n1',
    });
    expect(state?.['status']).toMatchObject({
      result: 'Valid',
      errorSummary: '',
      conditions: [{ type: 'configReconcilerValid', status: 'True', reason: 'ConfigValid' }],
    });
  });

  it('keeps the last good configuration when an edit is refused, reports it, and takes the fix', async () => {
    const t = await setup(async (s) => {
      await s.apply(pool(['198.18.10.0/28']));
      await s.apply(l2);
    });
    const good = t.source.current();
    await t.server.apply(pool(['198.18.10.300/28']));
    await eventually('the rejection', () => t.rejections.length === 1);
    expect(t.source.current()).toBe(good);
    expect(t.source.state()).toBe('stale');
    const text = t.rejections[0]!.map((e) => `${e.file}: ${e.path}`);
    expect(text).toEqual(['IPAddressPool metallb-system/pool1: spec.addresses[0]']);
    const [warning] = await eventually('the Warning Event', async () => {
      const w = await t.warnings();
      return w.length > 0 && w;
    });
    expect(warning).toMatchObject({
      reason: 'ConfigurationRejected',
      involvedObject: {
        apiVersion: 'metallb.io/v1beta1',
        kind: 'IPAddressPool',
        namespace: ns,
        name: 'pool1',
      },
      source: { component: 'metallb-speaker', host: 'n1' },
    });
    expect(warning!['message']).toMatch(
      /^IPAddressPool metallb-system\/pool1: spec\.addresses\[0\]: .+ \(the last good one stays\)$/,
    );
    await t.source.idle();
    const invalid = (await t.state())?.['status'] as { result: string; errorSummary: string };
    expect(invalid.result).toBe('Invalid');
    expect(invalid.errorSummary).toMatch(/^IPAddressPool metallb-system\/pool1: spec\.addresses\[0\]: /);

    // The same refused configuration judged again (another object changes) is not reported again.
    await t.server.apply({ ...l2, metadata: { ...l2.metadata, labels: { touched: 'yes' } } });
    await sleep(100);
    expect(t.rejections).toHaveLength(1);
    expect(await t.warnings()).toHaveLength(1);

    await t.server.apply(pool(['198.18.10.16/28']));
    await eventually('the fix', () => t.source.state() === 'loaded');
    expect(t.changes.at(-1)).toEqual(['198.18.10.16/28']);
    await t.source.idle();
    expect(((await t.state())?.['status'] as { result: string }).result).toBe('Valid');
  });

  it('refuses a peer whose Secret is missing, naming both, and accepts it once the Secret exists', async () => {
    const t = await setup(async (s) => {
      await s.apply(peer);
      await s.apply(binary);
    });
    expect(t.source.state()).toBe('none');
    expect(t.source.current()).toBeUndefined();
    expect(t.log.join('\n')).toContain(
      'BGPPeer metallb-system/r1: spec.passwordSecret.name: no Secret "bgp-pass" is defined in namespace "metallb-system"',
    );
    const [warning] = await eventually('the Warning Event', async () => {
      const w = await t.warnings();
      return w.length > 0 && w;
    });
    expect(warning).toMatchObject({ involvedObject: { kind: 'BGPPeer', name: 'r1' } });
    expect(warning!['message']).toContain('(no configuration is in force yet)');

    await t.server.apply(basicAuth('bgp-pass', 's3cret'));
    await eventually('the peer', () => t.source.state() === 'loaded');
    expect(t.source.current()?.peers.map((p) => [p.meta.name, p.password])).toEqual([['r1', 's3cret']]);
  });

  it('is not disturbed by Secrets the configuration does not name, and tells of the one it watches', async () => {
    const t = await setup(async (s) => {
      await s.apply(pool(['198.18.10.0/28']));
      await s.apply(binary);
    });
    expect(t.source.state()).toBe('loaded');
    const seen: (string | undefined)[] = [];
    t.source.onSecret('memberlist', (s) => seen.push(s?.data?.['secretkey']));
    expect(t.source.secret('blob')?.data?.['key']).toBe(binary.data.key);
    await t.server.apply({
      ...binary,
      metadata: { name: 'memberlist', namespace: ns },
      data: { secretkey: 'a2V5MQ==' },
    });
    await eventually('the new Secret', () => seen.length === 1);
    await t.server.apply({
      ...binary,
      metadata: { name: 'memberlist', namespace: ns },
      data: { secretkey: 'a2V5Mg==' },
    });
    await eventually('the rotated Secret', () => seen.length === 2);
    t.server.remove({ apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'memberlist' });
    await eventually('the deleted Secret', () => seen.length === 3);
    expect(seen).toEqual(['a2V5MQ==', 'a2V5Mg==', undefined]);
    expect(t.rejections).toEqual([]);
    expect(t.changes).toEqual([]);
  });

  it('gives the webhooks the objects and every Secret reduced to what the loader reads', async () => {
    const t = await setup(async (s) => {
      await s.apply(pool(['198.18.10.0/28']));
      await s.apply(binary);
      await s.apply(basicAuth('bgp-pass', 's3cret'));
    });
    const resources = t.source.resources();
    expect(resources.map((o) => objectLabel(o))).toEqual([
      'IPAddressPool metallb-system/pool1',
      'Secret metallb-system/bgp-pass',
      'Secret metallb-system/blob',
    ]);
    expect(resources[2]).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'blob', namespace: ns },
      type: 'Opaque',
    });
    // A new BGPPeer naming the existing Secret is admitted; one naming a Secret that is not there is not.
    const create = (object: unknown) =>
      judge({ operation: 'CREATE', subject: objectLabel(object), object }, resources, { namespace: ns });
    expect(create(peer).errors).toEqual([]);
    const other = {
      ...peer,
      metadata: { name: 'r2', namespace: ns },
      spec: { ...peer.spec, peerAddress: '198.18.0.2', passwordSecret: { name: 'nope', namespace: ns } },
    };
    expect(create(other).errors.map(formatIssue)).toEqual([
      'BGPPeer metallb-system/r2: spec.passwordSecret.name: no Secret "nope" is defined in namespace "metallb-system"',
    ]);
  });

  it('revalidate() judges again with the current nodes: a label can make two peers meet on one node', async () => {
    let nodes: NodeLabels[] = [
      { name: 'n1', labels: { rack: 'r1' } },
      { name: 'n2', labels: { zone: 'z1' } },
    ];
    const selecting = (name: string, matchLabels: Record<string, string>) => ({
      apiVersion: 'metallb.io/v1beta2',
      kind: 'BGPPeer',
      metadata: { name, namespace: ns },
      spec: { myASN: 64512, peerASN: 64513, peerAddress: '198.18.0.1', nodeSelectors: [{ matchLabels }] },
    });
    const t = await setup(
      async (s) => {
        await s.apply(selecting('by-rack', { rack: 'r1' }));
        await s.apply(selecting('by-zone', { zone: 'z1' }));
      },
      { nodes: () => nodes },
    );
    // The two sessions to one address run on different nodes.
    expect(t.source.state()).toBe('loaded');
    nodes = [{ name: 'n1', labels: { rack: 'r1', zone: 'z1' } }, nodes[1]!];
    t.source.revalidate();
    expect(t.source.state()).toBe('stale');
    expect(t.rejections.at(-1)?.map((e) => `${e.file}: ${e.path}`)).toEqual([
      'BGPPeer metallb-system/by-zone: spec.peerAddress',
    ]);
  });

  it('without the ConfigurationState CRD, asks for it once and never again', async () => {
    const t = await setup(
      async (s) => {
        await s.apply(pool(['198.18.10.0/28']));
      },
      { serverTypes: lblabResourceTypes.filter((r) => r.plural !== 'configurationstates') },
    );
    await t.source.idle();
    await t.server.apply(pool(['198.18.10.300/28']));
    await eventually('the rejection', () => t.rejections.length === 1);
    await t.server.apply(pool(['198.18.10.16/28']));
    await eventually('the fix', () => t.changes.length === 1);
    await t.source.idle();
    const asked = t.server.requests().filter((r) => r.resource === 'configurationstates');
    expect(asked.map((r) => `${r.verb} ${r.code}`)).toEqual(['create 404']);
    expect(t.log).toContain(
      "ConfigurationState: the type is not served (MetalLB's CRDs before 0.15.3?); not writing it",
    );
  });
});
