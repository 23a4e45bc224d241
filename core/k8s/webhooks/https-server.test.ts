import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCa, issueServing, type KeyPairPem } from './certificates.ts';
import { listenHttps, type HttpsEndpoint } from './https-server.ts';
import { realNowMs, serviceName } from './webhooks.test-support.ts';

const day = 24 * 3600 * 1000;
let ca: KeyPairPem;
let server: HttpsEndpoint;

beforeAll(async () => {
  const validity = { notBefore: new Date(realNowMs - day), notAfter: new Date(realNowMs + day) };
  ca = await issueCa('test-ca', validity);
  server = await listenHttps({
    port: 0,
    host: '127.0.0.1',
    tls: await issueServing(ca, [serviceName], validity),
    handle: (path) => {
      if (path === '/throws') throw new Error('handler bug');
      return path === '/echo' ? Promise.resolve({ status: 200, body: { ok: true } }) : undefined;
    },
  });
});
afterAll(() => server.close());

function call(method: string, path: string, body = '{}'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method,
        ca: ca.cert,
        servername: serviceName,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('webhook HTTPS endpoint', () => {
  it('answers a handler that throws with 500 and goes on serving', async () => {
    expect(await call('POST', '/throws')).toEqual({ status: 500, text: 'handler bug\n' });
    expect(await call('POST', '/echo')).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it('refuses other methods, unknown paths and bodies that are not JSON', async () => {
    expect((await call('GET', '/echo', '')).status).toBe(405);
    expect((await call('POST', '/elsewhere')).status).toBe(404);
    expect((await call('POST', '/echo', '{"uid":')).status).toBe(400);
  });

  it('refuses a body over 16 MiB without reading it all', async () => {
    const reply = await call('POST', '/echo', `"${'x'.repeat(17 * 1024 * 1024)}"`).catch((err: Error) => err);
    // The server answers 413 and closes; the client may see the answer or the reset, never a 200.
    if (reply instanceof Error) expect(reply.message).toMatch(/EPIPE|ECONNRESET|socket hang up/);
    else expect(reply.status).toBe(413);
  });
});
