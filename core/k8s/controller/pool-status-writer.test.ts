import { describe, expect, it } from 'vitest';
import { startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { ApiProxy } from './api-proxy.test-support.ts';
import { PoolStatusWriter } from './pool-status-writer.ts';

const namespace = 'metallb-system';
const poolRef = (name: string) => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  namespace,
  name,
});

async function withPools(
  pools: Record<string, string[]>,
): Promise<{ server: KubeApiTestServer; proxy: ApiProxy }> {
  const server = await startServer();
  await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const [name, addresses] of Object.entries(pools))
    await server.apply({ ...poolRef(name), metadata: { name, namespace }, spec: { addresses } });
  return { server, proxy: await ApiProxy.start(server) };
}

const puts = (proxy: ApiProxy) => proxy.requests.filter((r) => r.method === 'PUT');

describe('PoolStatusWriter against the API test server', () => {
  it('sends IPv6 counts beyond 2^53 as exact integers, and MaxInt64 for a count beyond int64', async () => {
    // A /72 holds 2^56 addresses: 2^56 - 1 is no JS number (it would round to 2^56). A /64 holds 2^64.
    const { server, proxy } = await withPools({ mid: ['2001:db8:1::/72'], big: ['2001:db8:2::/64'] });
    const writer = new PoolStatusWriter({ kc: proxy.kubeConfig(), namespace, clock: new RealClock() });
    const report = await writer.apply([
      {
        name: 'mid',
        counters: { assignedIPv4: 0n, assignedIPv6: 1n, availableIPv4: 0n, availableIPv6: 2n ** 56n - 1n },
      },
      {
        name: 'big',
        counters: { assignedIPv4: 0n, assignedIPv6: 3n, availableIPv4: 0n, availableIPv6: 2n ** 64n - 3n },
      },
    ]);
    expect(report).toMatchObject({ written: [`${namespace}/mid`, `${namespace}/big`], failed: [] });
    const [mid, big] = puts(proxy);
    expect(mid?.path).toBe(`/apis/metallb.io/v1beta1/namespaces/${namespace}/ipaddresspools/mid/status`);
    expect(mid?.body).toContain(
      '"status":{"assignedIPv4":0,"assignedIPv6":1,"availableIPv4":0,"availableIPv6":72057594037927935}',
    );
    expect(big?.body).toContain('"availableIPv6":9223372036854775807}');
    expect(big?.body).not.toMatch(/e\+|\d\.\d/); // no float notation anywhere
    expect(
      server
        .requests()
        .filter((r) => r.verb === 'update')
        .map((r) => `${r.resource}/${r.subresource}`),
    ).toEqual(['ipaddresspools/status', 'ipaddresspools/status']);
    const stored = await server.get(poolRef('mid'));
    expect(stored?.status).toMatchObject({ assignedIPv6: 1, availableIPv4: 0, assignedIPv4: 0 });
    expect(stored?.spec).toEqual({ addresses: ['2001:db8:1::/72'] });
  });

  it('writes only when the counters changed', async () => {
    const { server, proxy } = await withPools({ lab: ['198.18.100.0/30'] });
    const writer = new PoolStatusWriter({ kc: proxy.kubeConfig(), namespace, clock: new RealClock() });
    const counters = (used: bigint) => ({
      assignedIPv4: used,
      assignedIPv6: 0n,
      availableIPv4: 4n - used,
      availableIPv6: 0n,
    });
    const known = async () => (await server.get(poolRef('lab'))) as unknown;
    const k1 = await known();
    expect((await writer.apply([{ name: 'lab', counters: counters(1n) }], () => k1)).written).toHaveLength(1);
    const k2 = await known();
    expect((await writer.apply([{ name: 'lab', counters: counters(1n) }], () => k2)).unchanged).toHaveLength(
      1,
    );
    // A fresh writer (a restarted controller) sees the stored counters and sends nothing either.
    const fresh = new PoolStatusWriter({ kc: proxy.kubeConfig(), namespace, clock: new RealClock() });
    expect((await fresh.apply([{ name: 'lab', counters: counters(1n) }])).unchanged).toHaveLength(1);
    expect(puts(proxy)).toHaveLength(1);
    expect((await writer.apply([{ name: 'lab', counters: counters(2n) }], () => k2)).written).toHaveLength(1);
    expect(puts(proxy)).toHaveLength(2);
    expect((await server.get(poolRef('lab')))?.status).toEqual({
      assignedIPv4: 2,
      assignedIPv6: 0,
      availableIPv4: 2,
      availableIPv6: 0,
    });
  });

  it('skips a pool deleted meanwhile and reports an API error as failed', async () => {
    const { server, proxy } = await withPools({ lab: ['198.18.100.0/30'] });
    const stale = await server.get(poolRef('lab'));
    server.remove(poolRef('lab'));
    const writer = new PoolStatusWriter({ kc: proxy.kubeConfig(), namespace, clock: new RealClock() });
    const counters = { assignedIPv4: 1n, assignedIPv6: 0n, availableIPv4: 3n, availableIPv6: 0n };
    expect(await writer.apply([{ name: 'lab', counters }], () => stale)).toMatchObject({
      gone: [`${namespace}/lab`],
    });
    server.failRequests({ status: 503, count: 1 });
    const failed = await writer.apply([{ name: 'other', counters }]);
    expect(failed.failed.map((f) => f.key)).toEqual([`${namespace}/other`]);
  });
});
