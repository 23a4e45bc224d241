import type { V1Lease, V1Service } from '@kubernetes/client-node';
import { controllerCliCalls } from '../../../core/k8s/bundle/agent-calls.test-support.ts';
import { callsMade, refusedRequests } from '../../../core/k8s/bundle/authorize.test-support.ts';
import { customResourceDefinitions } from '../../../core/k8s/bundle/crds.ts';
import { agentRbac } from '../../../core/k8s/bundle/rbac.ts';
import { validatingWebhookConfiguration } from '../../../core/k8s/bundle/webhooks.ts';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, sleep } from '../../kube-api/kube-api.test-support.ts';
import type { KubeApiTestServer } from '../../kube-api/server.ts';
import type { Output } from '../output.ts';
import { admissionReview, post, responseOf } from '../../../core/k8s/webhooks/webhooks.test-support.ts';
import { runLblab, startLblab } from '../run-lblab.test-support.ts';
import { runControllerCommand } from './controller.ts';
import type { KubeControllerArgs } from './controller-kube-args.ts';
import { runKubeController } from './controller-kube.ts';
import {
  addLoadBalancer,
  addressesByName,
  clusterWithPool,
  namespace,
} from '../../../core/k8s/controller/services.test-support.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-controller-kube-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

interface Started {
  done: Promise<number>;
  stop: () => Promise<number>;
  lines: string[];
}

/** Runs the CLI's Kubernetes controller in this process, as `user`, until stop(). */
async function controller(
  server: KubeApiTestServer,
  more: Partial<KubeControllerArgs> & { user?: string; pod?: string } = {},
): Promise<Started> {
  const kubeconfig = join(dir, `${more.user ?? 'admin'}.kubeconfig`);
  await server.writeKubeconfig(kubeconfig, more.user === undefined ? {} : { user: more.user });
  const lines: string[] = [];
  const out: Output = { stdout: (l) => lines.push(l), stderr: (l) => lines.push(`ERR ${l}`) };
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const done = runKubeController(
    {
      kubeconfig,
      namespace,
      leaderElect: false,
      leaseDurationMs: '15000',
      leaseRenewMs: '2000',
      webhookMode: 'disabled',
      webhookPort: '9443',
      metricsPort: '0',
      ...more,
    },
    out,
    { env: more.pod === undefined ? {} : { METALLB_POD_NAME: more.pod }, stop: stopped },
  );
  return {
    done,
    lines,
    stop: () => {
      stop();
      return done;
    },
  };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const allAddressed = (server: KubeApiTestServer, n: number) =>
  eventually(
    `${n} Services with an address`,
    async () => [...(await addressesByName(server)).values()].filter((ip) => ip !== '').length === n,
    10_000,
  );

describe('lblab controller in Kubernetes mode, against the API test server', () => {
  it('a restart keeps every address: 50 Services, then new ones that sort first, listed in another order', async () => {
    const server = await clusterWithPool(['198.18.100.0/26']);
    // Created in a shuffled order: the informers' order is not the names' order.
    const names = Array.from({ length: 50 }, (_, i) => `svc-${String(i).padStart(2, '0')}`);
    const shuffled = names.map((_, i) => names[(i * 17) % 50]!);
    expect(new Set(shuffled).size).toBe(50);
    for (const name of shuffled) await addLoadBalancer(server, name);
    const first = await controller(server);
    await allAddressed(server, 50);
    expect(await first.stop()).toBe(0);
    const before = await addressesByName(server);

    for (let i = 9; i >= 0; i--) await addLoadBalancer(server, `a-new-${i}`);
    const second = await controller(server);
    await allAddressed(server, 60);
    const after = await addressesByName(server);
    for (const [name, ip] of before) expect({ name, ip: after.get(name) }).toEqual({ name, ip });
    expect(new Set(after.values()).size).toBe(60);
    expect(await second.stop()).toBe(0);
    expect(second.lines.at(-1)).toBe('lblab controller: stopped');
  });

  it('creates the membership key, tells Events as metallb-controller, and counts the pool', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'web');
    const run = await controller(server);
    await allAddressed(server, 1);
    const secret = await eventually('the memberlist Secret', () =>
      server.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'memberlist' }),
    );
    expect(Buffer.from(String((secret.data as Record<string, string>).secretkey), 'base64')).toHaveLength(32);
    const events = await eventually('the IPAllocated Event', async () => {
      const found = (await server.list('v1', 'Event', 'apps')) as unknown as {
        reason: string;
        source?: { component?: string };
        involvedObject: { name: string; uid?: string };
      }[];
      return found.some((e) => e.reason === 'IPAllocated') && found;
    });
    const web = (await server.get({
      apiVersion: 'v1',
      kind: 'Service',
      namespace: 'apps',
      name: 'web',
    })) as V1Service;
    expect(events.find((e) => e.reason === 'IPAllocated')).toMatchObject({
      source: { component: 'metallb-controller' },
      involvedObject: { name: 'web', uid: web.metadata?.uid },
    });
    const pool = await eventually('the pool counters', async () => {
      const p = await server.get({
        apiVersion: 'metallb.io/v1beta1',
        kind: 'IPAddressPool',
        namespace,
        name: 'lab',
      });
      return p?.status !== undefined && p;
    });
    expect(pool.status).toEqual({ assignedIPv4: 1, assignedIPv6: 0, availableIPv4: 3, availableIPv6: 0 });
    expect(await run.stop()).toBe(0);
  });

  it('serves MetalLB’s metrics; a refused configuration keeps the last good one and flips config_stale', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'web');
    const port = await freePort();
    const run = await controller(server, { metricsPort: String(port) });
    await allAddressed(server, 1);
    const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const metric = (text: string, name: string) => new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    await eventually('the pool in use', async () =>
      (await scrape()).includes('metallb_allocator_addresses_in_use_total{pool="lab"} 1'),
    );
    expect(metric(await scrape(), 'metallb_k8s_client_config_loaded_bool')).toBe('1');
    expect(metric(await scrape(), 'metallb_k8s_client_config_stale_bool')).toBe('0');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    await server.apply({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      metadata: { name: 'lab', namespace },
      spec: { addresses: ['198.18.100.300/30'] },
    });
    await eventually(
      'config_stale 1',
      async () => metric(await scrape(), 'metallb_k8s_client_config_stale_bool') === '1',
    );
    expect((await addressesByName(server)).get('web')).toBe('198.18.100.0');
    expect(metric(await scrape(), 'metallb_k8s_client_config_loaded_bool')).toBe('1');
    expect(await run.stop()).toBe(0);
  });

  it('--leader-elect: one replica allocates; on stop it releases the Lease and the standby takes over at once', async () => {
    const server = await clusterWithPool(['198.18.100.0/27']);
    for (let i = 0; i < 10; i++) await addLoadBalancer(server, `svc-${i}`);
    const lease = { leaderElect: true, leaseDurationMs: '3000', leaseRenewMs: '200' };
    const a = await controller(server, { ...lease, user: 'replica-a', pod: 'controller-a' });
    await allAddressed(server, 10);
    const b = await controller(server, { ...lease, user: 'replica-b', pod: 'controller-b' });
    await eventually('replica-b running as a standby', () =>
      b.lines.some((l) => l.includes('leader election on')),
    );
    const before = await addressesByName(server);

    expect(await a.stop()).toBe(0);
    const released = (await server.get({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace,
      name: 'metallb-controller',
    })) as V1Lease;
    expect(released.spec?.holderIdentity).toBe('');
    const t0 = performance.now();
    await eventually('controller-b leads', () => b.lines.some((l) => l.includes('controller-b leads')), 3000);
    const ms = Math.round(performance.now() - t0);
    console.log(
      `controller failover with --leader-elect after SIGTERM (Lease released): ${ms} ms (renew 200 ms)`,
    );
    expect(ms).toBeLessThan(1000);

    await addLoadBalancer(server, 'after-failover');
    await allAddressed(server, 11);
    const after = await addressesByName(server);
    for (const [name, ip] of before) expect(after.get(name)).toBe(ip);
    const writers = new Set(
      server
        .requests()
        .filter((r) => r.resource === 'services' && r.subresource === 'status' && r.verb === 'update')
        .map((r) => r.user),
    );
    expect(writers).toEqual(new Set(['replica-a', 'replica-b']));
    expect(await b.stop()).toBe(0);
  });

  it('serves the webhooks beside the controller, judging a BGPPeer against the namespace’s Secrets', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await server.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bgp-pass', namespace },
      type: 'kubernetes.io/basic-auth',
      data: { password: Buffer.from('s3cret').toString('base64') },
    });
    const run = await controller(server, { webhookMode: 'enabled', webhookPort: '0' });
    const line = await eventually('the webhooks', () =>
      run.lines.find((l) => l.includes("serving MetalLB's webhooks")),
    );
    const port = Number(/on port (\d+)/.exec(line)?.[1]);
    const cert = await server.get({
      apiVersion: 'v1',
      kind: 'Secret',
      namespace,
      name: 'metallb-webhook-cert',
    });
    const ca = Buffer.from(String((cert?.data as Record<string, string>)['ca.crt']), 'base64').toString();
    const peer = (secret: string) => ({
      apiVersion: 'metallb.io/v1beta2',
      kind: 'BGPPeer',
      metadata: { name: 'r1', namespace },
      spec: { myASN: 64512, peerASN: 64513, peerAddress: '198.18.0.1', passwordSecret: { name: secret } },
    });
    const judged = async (secret: string) =>
      responseOf(
        await post(
          port,
          '/validate-metallb-io-v1beta2-bgppeer',
          admissionReview('CREATE', { object: peer(secret) }),
          {
            ca,
          },
        ),
      );
    expect(await judged('bgp-pass')).toMatchObject({ allowed: true });
    expect(await judged('no-such-secret')).toMatchObject({
      allowed: false,
      status: { message: expect.stringContaining('no Secret "no-such-secret"') as string },
    });
    expect(await run.stop()).toBe(0);
  });
  it('--webhook-mode onlywebhook serves the webhooks and allocates nothing', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'web');
    const run = await controller(server, { webhookMode: 'onlywebhook', webhookPort: '0' });
    await eventually('the webhooks', () => run.lines.find((l) => l.includes("serving MetalLB's webhooks")));
    expect(run.lines[0]).toContain('webhooks only');
    expect(await run.stop()).toBe(0);
    expect((await addressesByName(server)).get('web')).toBe('');
    const writes = server
      .requests()
      .filter((r) => ['services', 'ipaddresspools', 'leases'].includes(r.resource));
    expect(writes.filter((r) => r.verb !== 'list' && r.verb !== 'watch')).toEqual([]);
    expect(
      await server.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'memberlist' }),
    ).toBeUndefined();
  });
  it('as a process: SIGTERM stops it with exit 0 and releases the Lease', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'web');
    const kubeconfig = join(dir, 'process.kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const child = startLblab(
      'controller',
      ...['--kubeconfig', kubeconfig, '--namespace', namespace, '--leader-elect'],
      ...['--webhook-mode', 'disabled', '--metrics-port', '0'],
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await eventually(
      'an address for web',
      async () => (await addressesByName(server)).get('web') !== '',
      15_000,
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(child.output()).toContain('lblab controller: stopped');
    const lease = (await server.get({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace,
      name: 'metallb-controller',
    })) as V1Lease;
    expect(lease.spec?.holderIdentity).toBe('');
  }, 20_000);
});

describe('lblab controller --leader-elect as processes', () => {
  it('a SIGKILLed leader: the standby allocates a new Service within the lease duration', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'before');
    const kubeconfig = join(dir, 'process.kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const replica = () =>
      startLblab(
        'controller',
        ...['--kubeconfig', kubeconfig, '--namespace', namespace, '--leader-elect'],
        ...['--lease-duration-ms', '2000', '--lease-renew-ms', '200'],
        ...['--webhook-mode', 'disabled', '--metrics-port', '0'],
      );
    const a = replica();
    await eventually(
      'an address for "before"',
      async () => (await addressesByName(server)).get('before') !== '',
      15_000,
    );
    const b = replica();
    try {
      await eventually('the standby running', () => b.output().includes('leader election on'), 15_000);
      await sleep(500); // the standby has seen the Lease
      const killedAt = performance.now();
      a.kill('SIGKILL');
      await addLoadBalancer(server, 'after');
      await eventually(
        'an address for "after"',
        async () => (await addressesByName(server)).get('after') !== '',
        10_000,
      );
      const ms = Math.round(performance.now() - killedAt);
      console.log(
        `controller failover after SIGKILL of the leader: ${ms} ms to a new address (lease 2000 ms, renew 200 ms)`,
      );
      expect(ms).toBeGreaterThan(1500);
      expect(ms).toBeLessThan(2000 + 200 + 1000);
      expect((await addressesByName(server)).get('before')).toBe('198.18.100.0');
    } finally {
      a.kill('SIGKILL');
      b.kill('SIGTERM');
      await new Promise((resolve) => (b.exitCode === null ? b.once('exit', resolve) : resolve(undefined)));
    }
  }, 45_000);
});

describe('the controller’s API calls', () => {
  it('are all allowed to its ServiceAccount by the bundle’s RBAC, and are exactly its calls (leader election and webhooks on)', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    for (const object of [
      validatingWebhookConfiguration(namespace),
      ...customResourceDefinitions({ namespace, webhooks: true }).filter(
        (c) => c.metadata?.name === 'bgppeers.metallb.io',
      ),
      // MetalLB's manifests ship the webhook Secret empty: the controller fills it in place.
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'metallb-webhook-cert', namespace },
      },
    ])
      await server.apply(object as Parameters<KubeApiTestServer['apply']>[0]);
    await addLoadBalancer(server, 'web');
    // The pool's first status PUT is held while someone else changes the pool: it meets a conflict.
    const poolStatus = { verb: 'update', resource: 'ipaddresspools', subresource: 'status' } as const;
    server.delayResponses({ ms: 500, count: 1, match: poolStatus });
    const user = `system:serviceaccount:${namespace}:controller`;
    const run = await controller(server, {
      user,
      leaderElect: true,
      webhookMode: 'enabled',
      webhookPort: '0',
    });
    const pool = { apiVersion: 'metallb.io/v1beta1', kind: 'IPAddressPool', namespace, name: 'lab' };
    await eventually('the held pool status PUT', () =>
      server.requests().some((r) => r.fault === 'delayed' && r.resource === 'ipaddresspools'),
    );
    const held = await server.get(pool);
    await server.apply({
      ...held!,
      metadata: { ...held!.metadata, labels: { touched: 'yes' } },
    } as Parameters<KubeApiTestServer['apply']>[0]);
    await eventually('the pool counters', async () => (await server.get(pool))?.status !== undefined);
    await eventually('the webhook CA in the configuration', () =>
      run.lines.some((l) => l.includes('ca-bundle-written')),
    );
    expect(await run.stop()).toBe(0);
    const requests = server.requests().filter((r) => r.isResourceRequest && r.user === user);
    const rbac = agentRbac('controller', { namespace, webhooks: true });
    expect(refusedRequests(rbac, { namespace, name: 'controller' }, requests)).toEqual([]);
    expect(callsMade(requests)).toEqual(controllerCliCalls);
  });
});

describe('lblab controller flags', () => {
  const out = () => {
    const lines: string[] = [];
    return { lines, out: { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) } };
  };
  const base = {
    once: false,
    dryRun: false,
    leaderElect: false,
    leaseDurationMs: '15000',
    leaseRenewMs: '2000',
    webhookMode: 'enabled',
    webhookPort: '9443',
    metricsPort: '0',
  };

  it('refuses --cluster without --config, and flags of the other mode', async () => {
    const o = out();
    expect(await runControllerCommand({ ...base, cluster: 'c.yaml' }, () => undefined, o.out)).toBe(2);
    expect(
      await runControllerCommand(
        { ...base, cluster: 'c.yaml', config: ['m.yaml'], leaderElect: true },
        (n) => (n === 'leaderElect' ? 'cli' : 'default'),
        o.out,
      ),
    ).toBe(2);
    expect(
      await runControllerCommand({ ...base, once: true }, (n) => (n === 'once' ? 'cli' : 'default'), o.out),
    ).toBe(2);
    expect(o.lines).toEqual([
      'lblab controller: --cluster and --config go together (file mode); give both or neither',
      'lblab controller: --leader-elect belongs to Kubernetes mode (without --cluster/--config)',
      'lblab controller: --once belongs to file mode (--cluster and --config)',
    ]);
  });

  it('refuses a bad --webhook-mode and lease timings the fence cannot hold, before connecting', async () => {
    const o = out();
    expect(await runKubeController({ ...base, webhookMode: 'sometimes' }, o.out)).toBe(2);
    expect(await runKubeController({ ...base, leaseDurationMs: '3000', leaseRenewMs: '2000' }, o.out)).toBe(
      2,
    );
    expect(o.lines).toEqual([
      'lblab controller: --webhook-mode must be one of enabled, disabled, only, onlywebhook, not "sometimes"',
      'lblab controller: --lease-renew-ms must be a positive whole number below 2/3 of --lease-duration-ms',
    ]);
  });

  it('says which mode each flag belongs to in --help, and names the missing API server', async () => {
    const help = await runLblab('controller', '--help');
    expect(help.stdout).toMatch(/--leader-elect\s+\[Kubernetes\]/);
    expect(help.stdout).toMatch(/--cluster <file>\s+\[file\]/);
    expect(help.stdout).toContain('enabled|disabled|only|onlywebhook');
    const none = await runLblab('controller', '--metrics-port', '0', '--kubeconfig', join(dir, 'missing'));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(join(dir, 'missing'));
  }, 20_000);
});
