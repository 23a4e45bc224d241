/**
 * The ConfigurationState writer against the API test server: a failed write is retried until the state
 * is there, an object changed by someone else (409) is read again and written, and only the newest
 * wanted state is written.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { RealClock } from '../../runtime/real-clock.ts';
import { eventually, startServer } from '../kube-api-server.test-support.ts';
import { ConfigurationStateWriter } from './configuration-state.ts';

const ns = 'metallb-system';
const ref = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'ConfigurationState',
  namespace: ns,
  name: 'controller',
};

async function setup() {
  const server = await startServer({ namespaces: ['default', ns] });
  const log: string[] = [];
  const writer = new ConfigurationStateWriter({
    kc: server.kubeConfig(),
    namespace: ns,
    component: { agent: 'controller' },
    clock: new RealClock(),
    log: (l) => log.push(l),
  });
  onTestFinished(() => writer.close());
  const status = async () => (await server.get(ref))?.['status'] as { result: string; errorSummary: string };
  return { server, writer, log, status };
}

describe('ConfigurationStateWriter', () => {
  it('retries a failed write until the state is written', async () => {
    const t = await setup();
    t.server.failRequests({ status: 503, count: 2, match: { resource: 'configurationstates' } });
    t.writer.set(false, ['IPAddressPool metallb-system/p: spec.addresses[0]: bad']);
    await eventually('the state', async () => (await t.server.get(ref))?.['status'] !== undefined, 5000);
    expect(await t.status()).toMatchObject({
      result: 'Invalid',
      errorSummary: 'IPAddressPool metallb-system/p: spec.addresses[0]: bad',
    });
    expect(t.log.filter((l) => l.includes('HTTP 503; trying again'))).toHaveLength(2);
    expect((await t.server.get(ref))?.metadata.labels).toEqual({ 'metallb.io/component-type': 'controller' });
  });

  it('reads the object again after a conflict and writes only the newest state', async () => {
    const t = await setup();
    t.writer.set(true, []);
    await t.writer.idle();
    // Someone else changes it: the writer's resourceVersion is stale now.
    const current = (await t.server.get(ref))!;
    await t.server.apply({ ...current, metadata: { ...current.metadata, labels: { other: 'x' } } });
    t.writer.set(false, ['first']);
    // While the first is being written, two more are wanted: only the newest follows it.
    t.writer.set(false, ['second']);
    t.writer.set(false, ['third']);
    await t.writer.idle();
    expect(await t.status()).toMatchObject({ result: 'Invalid', errorSummary: 'third' });
    const puts = t.server.requests().filter((r) => r.subresource === 'status');
    // Valid; first: conflict, read again, written; third.
    expect(puts.map((r) => r.code)).toEqual([200, 409, 200, 200]);
  });
});
