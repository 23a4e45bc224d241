/**
 * How an agent reaches the API server, in the order MetalLB's agents and kubectl users expect: an
 * explicit --kubeconfig; else in a pod, the service account; else $KUBECONFIG or ~/.kube/config.
 * client-node's loadFromDefault tries these too, but reads process.env and the fixed service-account
 * path, and when nothing is found it silently points at http://localhost:8080; here the environment and
 * the directory are injectable (tests) and "nothing found" is an error that says what was tried.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { delimiter, join } from 'node:path';
import { defaultNamespace } from '../config/load.ts';
import { LblabError } from '../errors/lblab-error.ts';

export interface KubeConnection {
  kc: KubeConfig;
  /** lblab's namespace: its configuration, Secrets and status objects live there. */
  namespace: string;
  /** For the start-up log line: "in-cluster https://10.96.0.1:443" / "kubeconfig /path (context x)". */
  describe: string;
}

/** No way to reach the API server, or a kubeconfig that cannot be used; the message names the file. */
export class KubeConnectError extends LblabError {
  readonly code = 'KUBE_CONNECT';
}

/** Where a pod's service account is mounted. */
export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export function connectKube(o: {
  kubeconfig?: string;
  namespace?: string;
  env?: NodeJS.ProcessEnv;
  /** Default the pod mount point; tests point it at a temporary directory. */
  serviceAccountDir?: string;
}): KubeConnection {
  const env = o.env ?? process.env;
  const saDir = o.serviceAccountDir ?? serviceAccountDir;
  const namespace = o.namespace ?? serviceAccountNamespace(saDir) ?? defaultNamespace;
  if (o.kubeconfig !== undefined) return { ...fromFiles([o.kubeconfig], '--kubeconfig'), namespace };
  const host = env['KUBERNETES_SERVICE_HOST'];
  const tokenFile = join(saDir, 'token');
  if (host !== undefined && host !== '' && existsSync(tokenFile)) {
    return { ...inCluster(host, env['KUBERNETES_SERVICE_PORT'] ?? '443', saDir), namespace };
  }
  const files = (env['KUBECONFIG'] ?? '').split(delimiter).filter((f) => f !== '');
  if (files.length > 0) return { ...fromFiles(files, '$KUBECONFIG'), namespace };
  const home = env['HOME'];
  const homeConfig = home === undefined || home === '' ? undefined : join(home, '.kube', 'config');
  if (homeConfig !== undefined && existsSync(homeConfig)) {
    return { ...fromFiles([homeConfig], '~/.kube/config'), namespace };
  }
  const inClusterWhy =
    host === undefined || host === '' ? 'KUBERNETES_SERVICE_HOST is not set' : `${tokenFile} does not exist`;
  throw new KubeConnectError(
    'cannot find the Kubernetes API server: no --kubeconfig was given; not in a pod (' +
      `${inClusterWhy}); $KUBECONFIG is not set and ${homeConfig ?? '$HOME/.kube/config'} does not exist`,
  );
}

function serviceAccountNamespace(dir: string): string | undefined {
  const file = join(dir, 'namespace');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8').trim();
  return text === '' ? undefined : text;
}

/** As client-node's loadFromCluster, from `dir`: the token is a tokenFile, re-read as it is rotated. */
function inCluster(host: string, port: string, dir: string): Omit<KubeConnection, 'namespace'> {
  const scheme = ['80', '8080', '8001'].includes(port) ? 'http' : 'https';
  const server = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: 'inCluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false },
    { name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } } },
  );
  return { kc, describe: `in-cluster ${server}` };
}

/** The first file, with later ones merged in as kubectl merges $KUBECONFIG. */
function fromFiles(files: readonly string[], from: string): Omit<KubeConnection, 'namespace'> {
  let kc: KubeConfig | undefined;
  for (const file of files) {
    const one = new KubeConfig();
    if (!existsSync(file)) throw new KubeConnectError(`kubeconfig ${file} (${from}) does not exist`);
    try {
      one.loadFromFile(file);
    } catch (err) {
      throw new KubeConnectError(`kubeconfig ${file} (${from}) cannot be read: ${messageOf(err)}`, {
        cause: err,
      });
    }
    if (kc === undefined) kc = one;
    else kc.mergeConfig(one, true);
  }
  if (kc === undefined) throw new KubeConnectError(`no kubeconfig file given (${from})`);
  const shown = files.join(delimiter);
  const context = kc.getCurrentContext();
  if (context === undefined || context === '') {
    throw new KubeConnectError(`kubeconfig ${shown} (${from}) has no current-context`);
  }
  if (kc.getContextObject(context) === null) {
    throw new KubeConnectError(`kubeconfig ${shown} (${from}): current-context ${context} is not defined`);
  }
  const cluster = kc.getCurrentCluster();
  if (cluster === null) {
    throw new KubeConnectError(`kubeconfig ${shown} (${from}): context ${context} names no known cluster`);
  }
  return { kc, describe: `kubeconfig ${shown} (context ${context})` };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
