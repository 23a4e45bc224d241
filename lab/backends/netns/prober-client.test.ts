import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProberClient } from './prober-client.ts';

/** A prober process as the client sees it: request lines on stdin, answer lines written to stdout. */
function prober(answer: (request: Record<string, unknown>) => object) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const child = Object.assign(new EventEmitter(), { stdin, stdout }) as unknown as ChildProcess;
  const requests: Record<string, unknown>[] = [];
  stdin.on('data', (chunk: Buffer) => {
    for (const line of chunk
      .toString()
      .split('\n')
      .filter((l) => l !== '')) {
      const r = JSON.parse(line) as Record<string, unknown>;
      requests.push(r);
      stdout.write(`${JSON.stringify(answer(r))}\n`);
    }
  });
  return { child, requests };
}

describe('ProberClient', () => {
  it('sends an ask as one request line and resolves with the MACs its answer lists; a probe still gets its summary', async () => {
    const summary = { sent: 1, received: 1, lost: 0, outageMs: 0, gaps: [], servers: [], runs: [] };
    const p = prober((r) =>
      r['ask'] ? { id: r['id'], macs: ['02:00:00:00:00:0b'] } : { id: r['id'], summary },
    );
    const c = new ProberClient(p.child, 'c1');
    const ask = { source: '198.18.0.14', target: '198.18.0.192', ms: 10, everyMs: 5 };
    expect(await c.ask(7, 'eth0', ask)).toEqual(['02:00:00:00:00:0b']);
    expect(await c.probe(8, '198.18.0.192', { ratePps: 10, seconds: 0.1 })).toEqual(summary);
    expect(p.requests).toEqual([
      { id: 7, ask: { interface: 'eth0', ...ask } },
      { id: 8, target: '198.18.0.192', port: 7777, ratePps: 10, seconds: 0.1 },
    ]);
  });

  it('fails an ask the prober could not do with its reason', async () => {
    const p = prober((r) => ({ id: r['id'], error: 'EPERM: no CAP_NET_RAW' }));
    const c = new ProberClient(p.child, 'c1');
    await expect(
      c.ask(1, 'eth0', { source: '198.18.0.14', target: '198.18.0.192', ms: 10, everyMs: 5 }),
    ).rejects.toThrow(/EPERM: no CAP_NET_RAW/);
  });
});
