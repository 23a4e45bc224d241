/**
 * An HTTP proxy between one client and the API test server, for what the server's own log does not
 * show: the exact bytes of each request body (the server parses JSON, which rounds big integers), and a
 * network partition of ONE client (the server's failRequests cannot tell two clients apart).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { KubeApiTestServer } from '../kube-api-server.test-support.ts';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The body as sent, byte for byte (UTF-8). */
  body: string;
  /** Whether the proxy refused it (partitioned) instead of forwarding it. */
  refused: boolean;
}

export class ApiProxy {
  readonly requests: ProxiedRequest[] = [];
  /** While set, requests it returns true for get 503 from the proxy and never reach the server. */
  refuse: ((method: string, path: string) => boolean) | undefined;

  private readonly http: Server;

  private constructor(private readonly target: KubeApiTestServer) {
    this.http = createServer((req, res) => void this.forward(req, res));
  }

  /** A proxy to `target`, closed when the test ends. */
  static async start(target: KubeApiTestServer): Promise<ApiProxy> {
    const proxy = new ApiProxy(target);
    await new Promise<void>((resolve) => proxy.http.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => proxy.close());
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  /** A KubeConfig that reaches the server through this proxy, as `user`. */
  kubeConfig(user?: string): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromString(
      this.target.kubeconfig(user === undefined ? {} : { user }).replaceAll(this.target.url, this.url),
    );
    return kc;
  }

  close(): Promise<void> {
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const refused = this.refuse?.(method, path) ?? false;
    this.requests.push({ method, path, body: body.toString('utf8'), refused });
    if (refused) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 503 }));
      return;
    }
    const target = new URL(this.target.url);
    const upstream = request(
      { host: target.hostname, port: target.port, method, path, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }
}
