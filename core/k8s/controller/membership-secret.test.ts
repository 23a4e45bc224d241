import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { ensureMembershipSecret } from './membership-secret.ts';

const namespace = 'metallb-system';
const ref = { apiVersion: 'v1', kind: 'Secret', namespace, name: 'memberlist' };

async function cluster(): Promise<KubeApiTestServer> {
  const server = await startServer();
  await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  return server;
}

const writes = (server: KubeApiTestServer) =>
  server.requests().filter((r) => r.resource === 'secrets' && ['create', 'update', 'patch'].includes(r.verb));

describe('the membership key Secret', () => {
  it('is created when missing: Secret memberlist, data secretkey, 32 random bytes', async () => {
    const server = await cluster();
    expect(await ensureMembershipSecret({ kc: server.kubeConfig(), namespace })).toBe('created');
    const secret = (await server.get(ref)) as V1Secret;
    const key = Buffer.from(secret.data?.secretkey ?? '', 'base64');
    expect(key).toHaveLength(32);
    expect(new Set(key).size).toBeGreaterThan(8); // random, not a constant fill
    // A second start finds it and writes nothing.
    expect(await ensureMembershipSecret({ kc: server.kubeConfig(), namespace })).toBe('exists');
    expect(writes(server)).toHaveLength(1);
    expect((await server.get(ref))?.data).toEqual(secret.data);
  });

  it('never overwrites an existing Secret, even one without the key', async () => {
    const server = await cluster();
    await server.apply({ ...ref, metadata: { name: 'memberlist', namespace }, data: { other: 'eA==' } });
    expect(await ensureMembershipSecret({ kc: server.kubeConfig(), namespace })).toBe('exists-without-key');
    expect(writes(server)).toEqual([]);
    expect((await server.get(ref))?.data).toEqual({ other: 'eA==' });
  });

  it('lets two replicas race: one creates it, the other accepts the 409 and both see one key', async () => {
    const server = await cluster();
    // Both reads are answered together, so both replicas go on to create.
    server.delayResponses({ ms: 50, count: 2, match: { verb: 'get', resource: 'secrets' } });
    const results = await Promise.all([
      ensureMembershipSecret({
        kc: server.kubeConfig(),
        namespace,
        newKey: () => new Uint8Array(32).fill(1),
      }),
      ensureMembershipSecret({
        kc: server.kubeConfig(),
        namespace,
        newKey: () => new Uint8Array(32).fill(2),
      }),
    ]);
    expect(results.sort()).toEqual(['created', 'created-by-another']);
    expect(
      writes(server)
        .map((r) => r.code)
        .sort(),
    ).toEqual([201, 409]);
    const key = Buffer.from(((await server.get(ref)) as V1Secret).data?.secretkey ?? '', 'base64');
    expect([1, 2]).toContain(key[0]);
  });

  it('throws what the API server refused, for the caller to retry', async () => {
    const server = await cluster();
    server.failRequests({ status: 403, count: 1 });
    await expect(ensureMembershipSecret({ kc: server.kubeConfig(), namespace })).rejects.toMatchObject({
      code: 403,
    });
  });
});
