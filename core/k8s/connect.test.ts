/**
 * connectKube with temporary kubeconfigs, a fake environment and a service-account directory: which way
 * it connects, which namespace it takes, and that a failure names what it tried.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './kube-api-server.test-support.ts';
import { connectKube, KubeConnectError } from './connect.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'lblab-connect-'));
}

/** A kubeconfig with one context; `current` null leaves current-context out. */
const kubeconfig = (server: string, context = 'lab', current: string | null = context) =>
  [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{ name: c1, cluster: { server: "${server}" } }]`,
    'users: [{ name: u1, user: { token: t0k3n } }]',
    `contexts: [{ name: ${context}, context: { cluster: c1, user: u1 } }]`,
    ...(current === null ? [] : [`current-context: ${current}`]),
  ].join('\n');

/** A service-account directory as a pod has it mounted. */
function serviceAccount(files: { token?: string; namespace?: string } = {}): string {
  const dir = join(tempDir(), 'serviceaccount');
  mkdirSync(dir, { recursive: true });
  if (files.token !== undefined) writeFileSync(join(dir, 'token'), files.token);
  if (files.namespace !== undefined) writeFileSync(join(dir, 'namespace'), files.namespace);
  writeFileSync(join(dir, 'ca.crt'), '');
  return dir;
}

const error = (f: () => unknown): KubeConnectError => {
  try {
    f();
  } catch (e) {
    if (e instanceof KubeConnectError) return e;
    throw e;
  }
  throw new Error('connectKube succeeded; a KubeConnectError was expected');
};

describe('connectKube', () => {
  it('uses --kubeconfig first, even in a pod, and the kubeconfig really reaches the server', async () => {
    const server = await startServer();
    const file = join(tempDir(), 'kc.yaml');
    await server.writeKubeconfig(file);
    const sa = serviceAccount({ token: 'pod-token', namespace: 'lb-ns' });
    const c = connectKube({
      kubeconfig: file,
      env: { KUBERNETES_SERVICE_HOST: '198.18.0.1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: sa,
    });
    expect(c.describe).toMatch(new RegExp(`^kubeconfig ${file} \\(context .+\\)$`));
    expect(c.namespace).toBe('lb-ns');
    const nodes = await c.kc.makeApiClient(CoreV1Api).listNode();
    expect(nodes.items).toEqual([]);
  });

  it('connects in-cluster from the service account when KUBERNETES_SERVICE_HOST is set', () => {
    const sa = serviceAccount({ token: 'pod-token', namespace: 'lb-ns\n' });
    const c = connectKube({
      env: { KUBERNETES_SERVICE_HOST: '2001:db8::1', KUBERNETES_SERVICE_PORT: '6443', KUBECONFIG: '/x' },
      serviceAccountDir: sa,
    });
    expect(c.describe).toBe('in-cluster https://[2001:db8::1]:6443');
    expect(c.namespace).toBe('lb-ns');
    expect(c.kc.getCurrentCluster()?.caFile).toBe(join(sa, 'ca.crt'));
    expect(c.kc.getCurrentUser()?.authProvider?.config?.tokenFile).toBe(join(sa, 'token'));
  });

  it('sends the service-account token (re-read from its file) to the server', async () => {
    const server = await startServer();
    const token = server.addUser('system:serviceaccount:metallb-system:speaker');
    const port = new URL(server.url).port;
    const sa = serviceAccount({ token });
    const c = connectKube({
      env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port },
      serviceAccountDir: sa,
    });
    // The test server speaks plain HTTP; the in-cluster scheme follows the port (https here).
    expect(c.kc.getCurrentCluster()?.server).toBe(`https://127.0.0.1:${port}`);
    c.kc.clusters[0] = { name: 'inCluster', server: server.url, skipTLSVerify: true };
    await c.kc.makeApiClient(CoreV1Api).listNode();
    expect(server.requests().at(-1)?.user).toBe('system:serviceaccount:metallb-system:speaker');
  });

  it('falls back to $KUBECONFIG, then ~/.kube/config, with the namespace metallb-system', () => {
    const dir = tempDir();
    const a = join(dir, 'a.yaml');
    writeFileSync(a, kubeconfig('https://198.18.0.10:6443', 'ctx-a'));
    const noPod = serviceAccount();
    const fromEnv = connectKube({ env: { KUBECONFIG: a }, serviceAccountDir: noPod });
    expect(fromEnv.describe).toBe(`kubeconfig ${a} (context ctx-a)`);
    expect(fromEnv.namespace).toBe('metallb-system');

    const home = tempDir();
    mkdirSync(join(home, '.kube'));
    writeFileSync(join(home, '.kube', 'config'), kubeconfig('https://198.18.0.11:6443', 'home'));
    const fromHome = connectKube({ env: { HOME: home }, serviceAccountDir: noPod, namespace: 'lb' });
    expect(fromHome.describe).toBe(`kubeconfig ${join(home, '.kube', 'config')} (context home)`);
    expect(fromHome.kc.getCurrentCluster()?.server).toBe('https://198.18.0.11:6443');
    expect(fromHome.namespace).toBe('lb');
  });

  it('says which file is missing or has no current context', () => {
    const dir = tempDir();
    const missing = join(dir, 'nope.yaml');
    expect(error(() => connectKube({ kubeconfig: missing })).message).toBe(
      `kubeconfig ${missing} (--kubeconfig) does not exist`,
    );
    const noContext = join(dir, 'no-context.yaml');
    writeFileSync(noContext, kubeconfig('https://198.18.0.10:6443', 'a', null));
    const e = error(() => connectKube({ kubeconfig: noContext }));
    expect(e.code).toBe('KUBE_CONNECT');
    expect(e.message).toBe(`kubeconfig ${noContext} (--kubeconfig) has no current-context`);
    const wrongContext = join(dir, 'wrong-context.yaml');
    writeFileSync(wrongContext, kubeconfig('https://198.18.0.10:6443', 'a', 'b'));
    expect(error(() => connectKube({ kubeconfig: wrongContext })).message).toBe(
      `kubeconfig ${wrongContext} (--kubeconfig): current-context b is not defined`,
    );
  });

  it('names the three ways it tried when none works', () => {
    const home = tempDir();
    const sa = serviceAccount();
    const e = error(() => connectKube({ env: { HOME: home }, serviceAccountDir: sa }));
    expect(e.message).toBe(
      'cannot find the Kubernetes API server: no --kubeconfig was given; not in a pod ' +
        `(KUBERNETES_SERVICE_HOST is not set); $KUBECONFIG is not set and ${join(home, '.kube', 'config')} does not exist`,
    );
    const inPodNoToken = error(() =>
      connectKube({ env: { HOME: home, KUBERNETES_SERVICE_HOST: '198.18.0.1' }, serviceAccountDir: sa }),
    );
    expect(inPodNoToken.message).toContain(`(${join(sa, 'token')} does not exist)`);
  });
});
