import { describe, expect, test } from 'vitest';
import { requestInfo } from './request-info.ts';

const info = (method: string, path: string) => {
  const { verb, apiGroup, apiVersion, namespace, resource, subresource, name, isResourceRequest } =
    requestInfo(method, new URL(path, 'http://x'));
  return { isResourceRequest, verb, apiGroup, apiVersion, namespace, resource, subresource, name };
};

describe('RequestInfo as apiserver derives it', () => {
  test.each([
    ['GET', '/api/v1/namespaces/ns/services', 'list', '', 'ns', 'services', '', ''],
    ['GET', '/api/v1/namespaces/ns/services?watch=1', 'watch', '', 'ns', 'services', '', ''],
    [
      'GET',
      '/api/v1/services?watch=true&fieldSelector=metadata.name%3Dweb',
      'watch',
      '',
      '',
      'services',
      '',
      'web',
    ],
    ['GET', '/api/v1/namespaces/ns/services/web', 'get', '', 'ns', 'services', '', 'web'],
    ['PUT', '/api/v1/namespaces/ns/services/web/status', 'update', '', 'ns', 'services', 'status', 'web'],
    [
      'POST',
      '/apis/metallb.io/v1beta1/namespaces/ns/ipaddresspools',
      'create',
      'metallb.io',
      'ns',
      'ipaddresspools',
      '',
      '',
    ],
    [
      'PATCH',
      '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l',
      'patch',
      'coordination.k8s.io',
      'ns',
      'leases',
      '',
      'l',
    ],
    ['DELETE', '/api/v1/namespaces/ns/configmaps', 'deletecollection', '', 'ns', 'configmaps', '', ''],
    ['DELETE', '/api/v1/nodes/n1', 'delete', '', '', 'nodes', '', 'n1'],
    // A namespace is its own namespace; status and finalize are its subresources.
    ['GET', '/api/v1/namespaces/ns', 'get', '', 'ns', 'namespaces', '', 'ns'],
    ['PUT', '/api/v1/namespaces/ns/finalize', 'update', '', 'ns', 'namespaces', 'finalize', 'ns'],
    ['GET', '/api/v1/namespaces', 'list', '', '', 'namespaces', '', ''],
  ])('%s %s is %s', (method, path, verb, apiGroup, namespace, resource, subresource, name) => {
    expect(info(method, path)).toMatchObject({
      isResourceRequest: true,
      verb,
      apiGroup,
      namespace,
      resource,
      subresource,
      name,
    });
  });

  test.each([
    '/api',
    '/api/v1',
    '/apis',
    '/apis/metallb.io',
    '/apis/metallb.io/v1beta1',
    '/version',
    '/healthz',
  ])('%s is a non-resource request', (path) => {
    expect(info('GET', path)).toMatchObject({ isResourceRequest: false, verb: 'get' });
  });
});
