/**
 * The Kubernetes API test server (lab/kube-api) for core/k8s's tests: client-node talking real HTTP to
 * a server with kube-apiserver's semantics is how the adapters here are proven. core/ never imports from
 * lab/ in code that ships; this file is the one door for tests, so the exception stays in one place.
 */
// eslint-disable-next-line no-restricted-imports -- test tooling only (see above)
export { eventually, sleep, startServer } from '../../lab/kube-api/kube-api.test-support.ts';
// eslint-disable-next-line no-restricted-imports -- test tooling only (see above)
export type { KubeApiTestServer } from '../../lab/kube-api/server.ts';
// eslint-disable-next-line no-restricted-imports -- test tooling only (see above)
export { lblabResourceTypes } from '../../lab/kube-api/builtin-types.ts';
// eslint-disable-next-line no-restricted-imports -- test tooling only (see above)
export { failure } from '../../lab/kube-api/status.ts';
