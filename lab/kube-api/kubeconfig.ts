import { stringify } from 'yaml';

export interface KubeconfigFields {
  /** The server URL, http:// or https://. */
  readonly server: string;
  readonly user: string;
  readonly token: string;
  /** The context's default namespace, if any. */
  readonly namespace?: string;
  /** PEM of the CA that signed an https server's certificate. */
  readonly certificateAuthority?: string;
}

/** Name of the cluster and context entries the test server's kubeconfigs carry. */
export const contextName = 'lblab-api-test-server';

/**
 * A kubeconfig with one cluster, one bearer-token user and one context, for `--kubeconfig` and
 * `KubeConfig.loadFromFile`. client-node 1.4.0 refuses plain http unless the cluster says
 * `insecure-skip-tls-verify: true`, so an http server's kubeconfig says it.
 */
export function kubeconfigYaml(fields: KubeconfigFields): string {
  const cluster =
    fields.certificateAuthority === undefined
      ? { server: fields.server, 'insecure-skip-tls-verify': true }
      : {
          server: fields.server,
          'certificate-authority-data': Buffer.from(fields.certificateAuthority).toString('base64'),
        };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: contextName, cluster }],
    users: [{ name: fields.user, user: { token: fields.token } }],
    contexts: [
      {
        name: contextName,
        context: {
          cluster: contextName,
          user: fields.user,
          ...(fields.namespace === undefined ? {} : { namespace: fields.namespace }),
        },
      },
    ],
    'current-context': contextName,
  });
}
