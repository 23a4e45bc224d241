/** Helpers for tests that drive the API test server with @kubernetes/client-node. */
import { ApiException } from '@kubernetes/client-node';
import { onTestFinished } from 'vitest';
import type { KubeApiTestServerOptions } from './server.ts';
import { KubeApiTestServer } from './server.ts';
import type { Status } from './status.ts';

/** A server for one test, closed when the test ends. */
export async function startServer(options: KubeApiTestServerOptions = {}): Promise<KubeApiTestServer> {
  const server = await KubeApiTestServer.start(options);
  onTestFinished(() => server.close());
  return server;
}

/** Polls `check` every 10 ms until it returns something other than undefined or false. */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 5000,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The Status a client-node call failed with. client-node 1.4.0 puts the response body in
 * ApiException.body as unparsed text (and drops it on 401), so callers must parse it themselves.
 */
export async function failureOf(
  call: Promise<unknown>,
): Promise<{ code: number; status: Status | undefined }> {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body: unknown = e.body;
    return {
      code: e.code,
      status: typeof body === 'string' && body !== '' ? (JSON.parse(body) as Status) : undefined,
    };
  }
  throw new Error('the call succeeded; a failure was expected');
}
