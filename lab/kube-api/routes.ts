import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.ts';
import type { ResourceOperations } from './operations.ts';
import { isJsonObject } from './objects.ts';
import type { RequestInfo } from './request-info.ts';
import { isTrue } from './request-info.ts';
import type { ResourceRegistry, ResourceType } from './resource-types.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import type { Status } from './status.ts';
import { badRequest, methodNotAllowed, pathNotFound } from './status.ts';
import type { WatchRequest } from './watch-stream.ts';

/** What the routes need from the server. */
export interface RouteContext {
  readonly registry: ResourceRegistry;
  readonly operations: ResourceOperations;
  /** host:port as discovery reports it. */
  readonly serverAddress: string;
  readonly openWatch: (request: WatchRequest, res: ServerResponse) => void;
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendStatus(res: ServerResponse, status: Status, headers: Record<string, string> = {}): void {
  sendJson(res, status.code ?? 200, status, headers);
}

/** Answers one authenticated request: discovery and other non-resource URLs, or a resource verb. */
export async function route(
  context: RouteContext,
  info: RequestInfo,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!info.isResourceRequest) return nonResource(context, info, res);
  const type = context.registry.byResource(info.apiGroup, info.apiVersion, info.resource);
  const subresource = info.subresource;
  if (
    type === undefined ||
    info.extraParts.length > 0 ||
    (subresource !== '' && (subresource !== 'status' || !type.hasStatus)) ||
    // A cluster-scoped type has no namespaced paths; a namespaced one has cluster-wide list and watch only.
    (!type.namespaced &&
      info.namespace !== '' &&
      !(type.plural === 'namespaces' && info.namespace === info.pathName)) ||
    (type.namespaced && info.namespace === '' && info.pathName !== '')
  )
    throw pathNotFound();
  const ops = context.operations;
  const version = info.apiVersion;
  const namespace = type.namespaced ? info.namespace : '';
  const query = url.searchParams;
  const onStatus = subresource === 'status' ? ('status' as const) : undefined;
  const pathName = info.pathName;
  switch (info.verb) {
    case 'list':
    case 'watch':
    case 'deletecollection': {
      if (pathName !== '') throw methodNotAllowed();
      const filter = selectors(type, query);
      const scope = type.namespaced && info.namespace !== '' ? info.namespace : undefined;
      if (info.verb === 'watch')
        return context.openWatch(watchRequest(type, version, scope, filter, query), res);
      if (info.verb === 'list') return sendJson(res, 200, await ops.list(type, version, scope, filter));
      return sendJson(res, 200, await ops.deleteCollection(type, version, scope, filter));
    }
    case 'create':
      if (pathName !== '' || (type.namespaced && namespace === '')) throw methodNotAllowed();
      return sendJson(res, 201, await ops.create(type, version, namespace, jsonBody(await readBody(req))));
    case 'get':
      return sendJson(res, 200, await ops.get(type, version, namespace, pathName));
    case 'update':
      return sendJson(
        res,
        200,
        await ops.update(type, version, namespace, pathName, jsonBody(await readBody(req)), onStatus),
      );
    case 'patch': {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const force = query.get('force');
      const { object, created } = await ops.patch(
        type,
        version,
        namespace,
        pathName,
        contentType,
        await readBody(req),
        {
          ...(onStatus === undefined ? {} : { subresource: onStatus }),
          ...(query.get('fieldManager') === null ? {} : { fieldManager: query.get('fieldManager') ?? '' }),
          ...(force === null ? {} : { force: isTrue(force) }),
        },
      );
      return sendJson(res, created ? 201 : 200, object);
    }
    case 'delete': {
      const raw = await readBody(req);
      const body = raw === '' ? {} : jsonBody(raw);
      // client-node sends propagationPolicy as a query parameter; DeleteOptions in the body may carry it too.
      const policy = query.get('propagationPolicy');
      const options = policy === null || !isJsonObject(body) ? body : { ...body, propagationPolicy: policy };
      return sendJson(res, 200, await ops.delete(type, version, namespace, pathName, options));
    }
    default:
      throw methodNotAllowed();
  }
}

function nonResource(context: RouteContext, info: RequestInfo, res: ServerResponse): void {
  if (info.verb !== 'get') throw methodNotAllowed();
  const parts = info.path.split('/').filter((p) => p !== '');
  const { registry } = context;
  let doc: object | undefined;
  if (parts.length === 1 && parts[0] === 'api') doc = apiVersions(context.serverAddress);
  else if (parts.length === 2 && parts[0] === 'api') doc = apiResourceList(registry, '', parts[1] ?? '');
  else if (parts.length === 1 && parts[0] === 'apis') doc = apiGroupList(registry);
  else if (parts.length === 2 && parts[0] === 'apis') doc = apiGroup(registry, parts[1] ?? '');
  else if (parts.length === 3 && parts[0] === 'apis')
    doc = apiResourceList(registry, parts[1] ?? '', parts[2] ?? '');
  else if (parts.length === 1 && parts[0] === 'version') doc = versionInfo();
  else if (parts.length === 1 && ['healthz', 'livez', 'readyz'].includes(parts[0] ?? '')) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  if (doc === undefined) throw pathNotFound();
  sendJson(res, 200, doc);
}

function selectors(type: ResourceType, query: URLSearchParams) {
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '', type.fieldSelectors);
  return (o: Parameters<typeof labels>[0]) => labels(o) && fields(o);
}

function watchRequest(
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  filter: WatchRequest['filter'],
  query: URLSearchParams,
): WatchRequest {
  const timeout = query.get('timeoutSeconds');
  if (timeout !== null && !/^\d+$/.test(timeout))
    throw badRequest(`invalid timeoutSeconds ${JSON.stringify(timeout)}`);
  const resourceVersion = query.get('resourceVersion');
  if (resourceVersion !== null && resourceVersion !== '' && !/^\d+$/.test(resourceVersion))
    throw badRequest(`invalid resource version: ${resourceVersion}`);
  return {
    type,
    version,
    namespace,
    filter,
    resourceVersion,
    timeoutSeconds: timeout === null ? undefined : Number(timeout),
    allowBookmarks: isTrue(query.get('allowWatchBookmarks')),
  };
}

function jsonBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw badRequest(`the body of the request is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
