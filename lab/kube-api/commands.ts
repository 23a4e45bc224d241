import { KubeApiServerError } from './errors.ts';
import type { KubeObject } from './objects.ts';
import type { RequestMatch } from './request-log.ts';
import type { KubeApiTestServer, ObjectRef } from './server.ts';

/**
 * The JSON-line commands the standalone test server (kube-api-main.ts) takes on stdin: the server
 * object's seeding, reading and fault methods, for tests that run it as a process (in a lab network
 * namespace). `count` may be "Infinity"; a match's `pathPattern` is a regular expression's source.
 */
export type Command =
  | { op: 'apply'; object: KubeObject }
  | ({ op: 'get' | 'remove' } & ObjectRef)
  | { op: 'list'; apiVersion: string; kind: string; namespace?: string }
  | { op: 'addUser'; user: string; token?: string }
  | { op: 'kubeconfig'; user?: string; namespace?: string; path?: string }
  | {
      op: 'failRequests';
      status: 401 | 403 | 429 | 500 | 503 | 504;
      count?: number | string;
      match?: JsonMatch;
    }
  | { op: 'delayResponses'; ms: number; count?: number | string; match?: JsonMatch }
  | { op: 'cutWatches'; midEvent?: boolean }
  | { op: 'endWatches' | 'stallWatches' | 'resumeWatches' | 'clearFaults' | 'compact' | 'down' | 'up' }
  | { op: 'requests' | 'clearRequests' | 'state' };

type JsonMatch = Omit<RequestMatch, 'path'> & { path?: string; pathPattern?: string };

const toMatch = (match: JsonMatch | undefined): RequestMatch | undefined => {
  if (match === undefined) return undefined;
  const { pathPattern, ...rest } = match;
  return pathPattern === undefined ? rest : { ...rest, path: new RegExp(pathPattern) };
};

/** Runs one command; resolves with the reply's fields. */
export async function runCommand(server: KubeApiTestServer, command: Command): Promise<object> {
  switch (command.op) {
    case 'apply':
      return { object: await server.apply(command.object) };
    case 'get':
      return { object: (await server.get(command)) ?? null };
    case 'remove':
      return { removed: server.remove(command) };
    case 'list':
      return { items: await server.list(command.apiVersion, command.kind, command.namespace) };
    case 'addUser':
      return { token: server.addUser(command.user, command.token) };
    case 'kubeconfig': {
      const options = {
        ...(command.user === undefined ? {} : { user: command.user }),
        ...(command.namespace === undefined ? {} : { namespace: command.namespace }),
      };
      if (command.path !== undefined) await server.writeKubeconfig(command.path, options);
      return { kubeconfig: server.kubeconfig(options) };
    }
    case 'failRequests':
      server.failRequests({
        status: command.status,
        count: Number(command.count ?? 1),
        match: toMatch(command.match),
      });
      return {};
    case 'delayResponses':
      server.delayResponses({
        ms: command.ms,
        count: Number(command.count ?? 1),
        match: toMatch(command.match),
      });
      return {};
    case 'cutWatches':
      return { cut: server.cutWatches({ midEvent: command.midEvent ?? false }) };
    case 'endWatches':
      return { ended: server.endWatches() };
    case 'stallWatches':
      server.stallWatches();
      return {};
    case 'resumeWatches':
      server.resumeWatches();
      return {};
    case 'clearFaults':
      server.clearFaults();
      return {};
    case 'compact':
      server.compact();
      return {};
    case 'down':
      await server.down();
      return {};
    case 'up':
      await server.up();
      return {};
    case 'requests':
      return { requests: server.requests() };
    case 'clearRequests':
      server.clearRequests();
      return {};
    case 'state':
      return { resourceVersion: server.resourceVersion, up: server.isUp, openWatches: server.openWatches() };
    default:
      throw new KubeApiServerError(`unknown command ${JSON.stringify((command as { op: unknown }).op)}`);
  }
}
