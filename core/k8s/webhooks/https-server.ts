/**
 * The HTTPS endpoint kube-apiserver calls: JSON POSTs in, JSON answers out. A renewed certificate is
 * swapped in with setSecureContext, so new connections get it without a restart while open ones finish
 * on the old (still valid: renewal happens with a third of its lifetime left).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Reply } from './admission.ts';
import type { KeyPairPem } from './certificates.ts';

export type Handler = (path: string, body: unknown) => Promise<Reply> | undefined;

export interface HttpsEndpoint {
  readonly port: number;
  setCertificate(tls: KeyPairPem): void;
  close(): Promise<void>;
}

// A ConversionReview carries whole lists (every BGPPeer of a list call); objects are at most ~1.5 MiB each.
const maxBodyBytes = 16 * 1024 * 1024;

export async function listenHttps(options: {
  port: number;
  host?: string;
  tls: KeyPairPem;
  handle: Handler;
}): Promise<HttpsEndpoint> {
  const server: Server = createServer({ ...options.tls, minVersion: 'TLSv1.2' }, (req, res) => {
    const send = (status: number, body: object | string) => {
      const json = typeof body !== 'string';
      res.writeHead(status, { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' });
      res.end(json ? JSON.stringify(body) : body);
    };
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    if (req.method !== 'POST')
      return send(405, `${req.method} is not served; kube-apiserver POSTs reviews\n`);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        send(413, `the review is larger than ${maxBodyBytes} bytes\n`);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch (err) {
        return send(400, `the body is not JSON: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      const failed = (err: unknown) => send(500, `${err instanceof Error ? err.message : String(err)}\n`);
      let reply: Promise<Reply> | undefined;
      try {
        reply = options.handle(path, body);
      } catch (err) {
        // A handler's bug answers this call with 500; it must not take the process down.
        return failed(err);
      }
      if (reply === undefined) return send(404, `no webhook at ${path}\n`);
      reply.then((r) => send(r.status, r.body), failed);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    setCertificate: (tls) => server.setSecureContext({ ...tls, minVersion: 'TLSv1.2' }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
