/**
 * A request as Kubernetes authorization sees it (apiserver's RequestInfoFactory): the verb (get, list,
 * watch, create, update, patch, delete, deletecollection), API group and version, resource,
 * subresource, namespace and name; or a non-resource URL (discovery, /version) with the HTTP method as
 * verb. The request log records this, so a test can check every call against RBAC rules.
 */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The name in the path; `name` may instead come from a metadata.name field selector on a list or watch. */
  readonly pathName: string;
  /** Path segments after the resource, name and subresource (only a request to nothing served has any). */
  readonly extraParts: readonly string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);

/** Go's strconv.ParseBool, as the query parameter codec reads `watch`. */
export const isTrue = (value: string | null): boolean =>
  value !== null && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);

export function requestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const base = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    pathName: '',
    extraParts: [],
  };
  const [prefix, ...rest] = parts;
  if ((prefix !== 'api' && prefix !== 'apis') || parts.length < 3) return base;
  let remaining = rest;
  let apiGroup = '';
  if (prefix === 'apis') {
    if (remaining.length < 3) return base;
    apiGroup = remaining[0] ?? '';
    remaining = remaining.slice(1);
  }
  const apiVersion = remaining[0] ?? '';
  remaining = remaining.slice(1);

  let verb =
    { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }[method] ??
    '';
  let namespace = '';
  if (remaining[0] === 'namespaces' && remaining.length > 1) {
    namespace = remaining[1] ?? '';
    // /namespaces/NS/RESOURCE/...: the resource is what follows, unless it is the namespace's own subresource.
    if (remaining.length > 2 && !namespaceSubresources.has(remaining[2] ?? ''))
      remaining = remaining.slice(2);
  }
  const [resource = '', pathName = '', subresource = '', ...extraParts] = remaining;
  let name = pathName;
  if (name === '' && verb === 'get') {
    verb = isTrue(url.searchParams.get('watch')) ? 'watch' : 'list';
    // A list or watch of one object by field selector is authorized as access to that name.
    const exact = /(?:^|,)\s*metadata\.name\s*==?\s*([^,\s]+)\s*(?:,|$)/.exec(
      url.searchParams.get('fieldSelector') ?? '',
    );
    if (exact?.[1] !== undefined) name = exact[1];
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    ...base,
    isResourceRequest: true,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    pathName,
    extraParts,
  };
}
