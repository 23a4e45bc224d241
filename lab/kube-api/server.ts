import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '../../core/runtime/clock.ts';
import { RealClock } from '../../core/runtime/real-clock.ts';
import { lblabResourceTypes } from './builtin-types.ts';
import type { Converter } from './conversion.ts';
import { ApiStatusError, KubeApiServerError } from './errors.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import type { KubeObject } from './objects.ts';
import { ResourceOperations } from './operations.ts';
import { requestInfo } from './request-info.ts';
import type { RequestMatch, RequestRecord } from './request-log.ts';
import { FaultRules } from './request-log.ts';
import type { ResourceTypeSpec } from './resource-types.ts';
import { ResourceRegistry } from './resource-types.ts';
import { route, sendStatus } from './routes.ts';
import { failure, injectedFailure, internalError } from './status.ts';
import { eventStrategy } from './event-strategy.ts';
import { secretStrategy } from './secret-strategy.ts';
import { ServiceStrategy, singleStackServiceRange } from './service-strategy.ts';
import { ObjectStore } from './store.ts';
import type { WatchRequest } from './watch-stream.ts';
import { WatchStream } from './watch-stream.ts';

export interface KubeApiTestServerOptions {
  /** Address to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 0 (any free port). down()/up() keep the port it got. */
  readonly port?: number;
  /** Timers (watch timeouts, bookmarks, injected delays); default the wall clock. */
  readonly clock?: Clock;
  /** Wall-clock time for creationTimestamp; default `new Date()`. */
  readonly now?: () => Date;
  /** Randomness for generateName; default Math.random. */
  readonly random?: () => number;
  /** How often a watch that allows bookmarks gets one; default 1000 ms (kube-apiserver: about a minute). */
  readonly bookmarkIntervalMs?: number;
  /** Changes kept for watches to resume across; default 10000. Older resume points get 410 Gone. */
  readonly historyLimit?: number;
  /** Resource types served; default lblab's (builtin-types.ts). More can be registered later. */
  readonly types?: readonly ResourceTypeSpec[];
  /** Namespaces that exist from the start; default those of a new cluster. */
  readonly namespaces?: readonly string[];
  /** The admin user's bearer token; default random. */
  readonly token?: string;
  /**
   * Service cluster IP ranges, as kube-apiserver's --service-cluster-ip-range: one CIDR (single-stack)
   * or two of different families (dual-stack, primary first). They decide how Services' ipFamilies and
   * clusterIPs are defaulted. Default single-stack IPv4 (singleStackServiceRange).
   */
  readonly serviceClusterIpRange?: string;
  /**
   * Serve HTTPS with this certificate and key (PEM) instead of plain HTTP; `ca` (default the certificate
   * itself) goes into kubeconfigs as certificate-authority-data, so clients verify the server.
   */
  readonly tls?: { readonly cert: string; readonly key: string; readonly ca?: string };
}

export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** The user the default token authenticates as. */
export const adminUser = 'lblab-test-admin';

/**
 * An in-process Kubernetes API *test server*: node:http (or https) speaking the REST protocol
 * @kubernetes/client-node uses (discovery, CRUD, status subresource, patches, chunked watches with
 * resourceVersion resume and 410 Gone, bookmarks), with kube-apiserver's semantics where a client can
 * tell, a request log as authorization sees requests, and fault injection for tests.
 */
export class KubeApiTestServer {
  readonly registry = new ResourceRegistry();
  private readonly store: ObjectStore;
  private readonly operations: ResourceOperations;
  private readonly clock: Clock;
  private readonly http: Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<WatchStream>();
  private readonly tokens = new Map<string, string>();
  private readonly log: RequestRecord[] = [];
  private readonly failures = new FaultRules<number>();
  private readonly delays = new FaultRules<number>();
  private stallNewWatches = false;
  private listening = false;
  private host: string;
  private boundPort: number;
  /** The admin user's bearer token. */
  readonly token: string;

  private constructor(private readonly options: KubeApiTestServerOptions) {
    this.clock = options.clock ?? new RealClock();
    this.store = new ObjectStore(options.historyLimit);
    this.operations = new ResourceOperations(this.registry, this.store, {
      now: options.now ?? (() => new Date()),
      random: options.random ?? Math.random,
      strategies: new Map([
        ['/services', new ServiceStrategy(options.serviceClusterIpRange ?? singleStackServiceRange)],
        ['/secrets', secretStrategy],
        ['/events', eventStrategy],
      ]),
    });
    for (const spec of options.types ?? lblabResourceTypes) this.registry.register(spec);
    this.host = options.host ?? '127.0.0.1';
    this.boundPort = options.port ?? 0;
    this.token = this.addUser(adminUser, options.token);
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    const { tls } = options;
    this.http =
      tls === undefined ? createServer(handler) : createTlsServer({ cert: tls.cert, key: tls.key }, handler);
    this.http.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Starts a server and resolves once it listens. */
  static async start(options: KubeApiTestServerOptions = {}): Promise<KubeApiTestServer> {
    const server = new KubeApiTestServer(options);
    for (const name of options.namespaces ?? ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    await server.up();
    return server;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    const scheme = this.options.tls === undefined ? 'http' : 'https';
    return `${scheme}://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.boundPort}`;
  }

  get isUp(): boolean {
    return this.listening;
  }

  // --- users and kubeconfigs ------------------------------------------------------------------

  /** Registers a user (e.g. `system:serviceaccount:metallb-system:speaker`); returns its bearer token. */
  addUser(user: string, token = randomBytes(16).toString('hex')): string {
    this.tokens.set(token, user);
    return token;
  }

  /** A kubeconfig for this server as `user` (default the admin); a user not yet known is added. */
  kubeconfig(options: { user?: string; namespace?: string } = {}): string {
    const user = options.user ?? adminUser;
    const token = [...this.tokens].find(([, u]) => u === user)?.[0] ?? this.addUser(user);
    const { tls } = this.options;
    return kubeconfigYaml({
      server: this.url,
      user,
      token,
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
      ...(tls === undefined ? {} : { certificateAuthority: tls.ca ?? tls.cert }),
    });
  }

  async writeKubeconfig(path: string, options: { user?: string; namespace?: string } = {}): Promise<void> {
    await writeFile(path, this.kubeconfig(options), { mode: 0o600 });
  }

  /** A client-node KubeConfig loaded from kubeconfig(options). */
  kubeConfig(options: { user?: string; namespace?: string } = {}): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromString(this.kubeconfig(options));
    return kc;
  }

  // --- the store, bypassing HTTP ----------------------------------------------------------------

  /**
   * Creates or replaces an object directly (status included, no namespace needed, no resourceVersion
   * check); watches see it like any change. Resolves with the object as stored.
   */
  apply(object: KubeObject): Promise<KubeObject> {
    return this.operations.seed(object);
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const type = this.registry.byKind(ref.apiVersion, ref.kind);
    const version = ref.apiVersion.split('/').pop() ?? '';
    try {
      return await this.operations.get(
        type,
        version,
        type.namespaced ? (ref.namespace ?? 'default') : '',
        ref.name,
      );
    } catch (e) {
      if (e instanceof ApiStatusError && e.status.code === 404) return undefined;
      throw e;
    }
  }

  /** Every object of a kind (in one namespace, or all), in the store's order. */
  async list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]> {
    const type = this.registry.byKind(apiVersion, kind);
    const version = apiVersion.split('/').pop() ?? '';
    return (
      await this.operations.list(type, version, type.namespaced ? namespace : undefined, () => true)
    ).items.map((o) => ({ ...o, apiVersion, kind }));
  }

  /**
   * Deletes directly (watches see DELETED), with the garbage collector's and namespace controller's
   * follow-up; false when there was no such object.
   */
  remove(ref: ObjectRef): boolean {
    const type = this.registry.byKind(ref.apiVersion, ref.kind);
    const namespace = type.namespaced ? (ref.namespace ?? 'default') : '';
    return this.operations.remove(type, namespace, ref.name) !== undefined;
  }

  /** The global resourceVersion: that of the last change. */
  get resourceVersion(): number {
    return this.store.resourceVersion;
  }

  /** Plugs in conversion between a type's versions (identity by default), e.g. lblab's /convert webhook. */
  setConverter(group: string, plural: string, converter: Converter): void {
    this.registry.setConverter(group, plural, converter);
  }

  // --- request log --------------------------------------------------------------------------------

  /** Every request so far, oldest first (copies). */
  requests(): RequestRecord[] {
    return this.log.map((r) => ({ ...r }));
  }

  clearRequests(): void {
    this.log.length = 0;
  }

  /** Open watch streams, optionally only those of one resource (plural). */
  openWatches(resource?: string): number {
    return [...this.watches].filter((w) => resource === undefined || w.request.type.plural === resource)
      .length;
  }

  // --- faults ---------------------------------------------------------------------------------------

  /**
   * Cuts every open watch connection without ending its response. `midEvent`: each stream first sends
   * half of its next event's JSON line (a change must happen for that). Returns how many were cut.
   */
  cutWatches(options: { midEvent?: boolean } = {}): number {
    const open = [...this.watches];
    for (const w of open) w.cut(options.midEvent ?? false);
    return open.length;
  }

  /**
   * Ends every open watch response cleanly, as kube-apiserver does when a watch reaches its timeout or
   * the server shuts down gracefully: a client then watches again from its last resourceVersion.
   */
  endWatches(): number {
    const open = [...this.watches];
    for (const w of open) w.end();
    return open.length;
  }

  /**
   * Every open watch, and every watch opened until resumeWatches(), goes silent for good while its
   * connection stays open: a half-open stall. Stalled streams never recover (only a new watch after
   * resumeWatches() gets events), as a client on a dead connection never hears again.
   */
  stallWatches(): void {
    this.stallNewWatches = true;
    for (const w of this.watches) w.stall();
  }

  resumeWatches(): void {
    this.stallNewWatches = false;
  }

  /** Answers the next `count` matching requests (Infinity: all until cleared) with `status`. */
  failRequests(options: {
    status: 401 | 403 | 429 | 500 | 503 | 504;
    count?: number;
    match?: RequestMatch;
  }): void {
    this.failures.add(options.status, options.count ?? 1, options.match);
  }

  /** Holds the next `count` matching requests (Infinity: all until cleared) for `ms` before answering. */
  delayResponses(options: { ms: number; count?: number; match?: RequestMatch }): void {
    this.delays.add(options.ms, options.count ?? 1, options.match);
  }

  /** Drops pending failures and delays and lets new watches flow (stalled streams stay stalled). */
  clearFaults(): void {
    this.failures.clear();
    this.delays.clear();
    this.stallNewWatches = false;
  }

  /** Forgets the change history: a watch from any resourceVersion before now gets 410 Expired. */
  compact(): void {
    this.store.compact();
  }

  /** Stops listening and destroys every connection (open watches included): new ones are refused. */
  async down(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again, on the same address and port. */
  async up(): Promise<void> {
    if (this.listening) return;
    await new Promise<void>((resolve, reject) => {
      const fail = (e: Error) =>
        reject(
          new KubeApiServerError(
            `the API test server cannot listen on ${this.host}:${this.boundPort}: ${e.message}`,
          ),
        );
      this.http.once('error', fail);
      this.http.listen(this.boundPort, this.host, () => {
        this.http.off('error', fail);
        resolve();
      });
    });
    const address = this.http.address();
    if (address !== null && typeof address === 'object') this.boundPort = address.port;
    this.listening = true;
  }

  /** Stops for good. */
  async close(): Promise<void> {
    await this.down();
  }

  // --- HTTP -----------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://api-test-server');
    const info = requestInfo(req.method ?? 'GET', url);
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const record: RequestRecord = {
      ...info,
      seq: this.log.length + 1,
      atMs: this.clock.now(),
      method: req.method ?? '',
      query: url.search.replace(/^\?/, ''),
      user: (bearer === undefined ? undefined : this.tokens.get(bearer)) ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      code: undefined,
    };
    this.log.push(record);
    res.on('close', () => (record.code = res.headersSent ? res.statusCode : undefined));
    try {
      const delay = this.delays.take(info);
      if (delay !== undefined) {
        record.fault = 'delayed';
        await new Promise<void>((resolve) => this.clock.setTimer('kube-api: injected delay', delay, resolve));
      }
      const injected = this.failures.take(info);
      if (injected !== undefined) {
        record.fault = 'failed';
        const status = injectedFailure(injected);
        return sendStatus(res, status, injected === 429 ? { 'Retry-After': '1' } : {});
      }
      if (record.user === '') return sendStatus(res, failure(401, 'Unauthorized', 'Unauthorized'));
      await route(
        {
          registry: this.registry,
          operations: this.operations,
          serverAddress: `${this.host}:${this.boundPort}`,
          openWatch: (request, response) => this.openWatch(request, response),
        },
        info,
        url,
        req,
        res,
      );
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendStatus(res, e instanceof ApiStatusError ? e.status : internalError(String(e)).status);
    }
  }

  private openWatch(request: WatchRequest, res: ServerResponse): void {
    // The client may be gone already (it gave up during an injected delay): then nothing is opened.
    if (res.socket === null || res.socket.destroyed) return;
    const stream = new WatchStream(
      request,
      res,
      {
        store: this.store,
        clock: this.clock,
        bookmarkIntervalMs: this.options.bookmarkIntervalMs ?? 1000,
        convert: (type, objects, version) => this.operations.convert(type, objects, version),
      },
      (closed) => this.watches.delete(closed),
    );
    this.watches.add(stream);
    stream.start();
    if (this.stallNewWatches) stream.stall();
  }
}
