import { describe, expect, it } from 'vitest';
import { A, B, lab, peer, stateOf } from '../bfd/engine/pair.test-support.ts';
import type { BfdChange, BfdSessionSpec } from './bfd-watcher.ts';
import { EngineBfdWatcher } from './engine-bfd-watcher.ts';

const spec = (over: Partial<BfdSessionSpec> = {}): BfdSessionSpec => ({
  ...peer(A, B),
  minimumTtl: 254,
  ...over,
});

function setup() {
  const l = lab();
  const ours = l.engine(A);
  const theirs = l.engine(B);
  void theirs.add(peer(B, A));
  const logs: string[] = [];
  const watcher = new EngineBfdWatcher(ours, (m) => logs.push(m));
  const seen: BfdChange[] = [];
  return { l, ours, theirs, watcher, seen, logs };
}

describe('EngineBfdWatcher', () => {
  it('reports the session coming up, and the peer seeing our AdminDown when we close', async () => {
    const t = setup();
    const w = t.watcher.watch(spec(), (c) => t.seen.push(c));
    await t.l.run(3000);
    expect(t.seen.at(-1)).toMatchObject({ state: 'up', previous: 'init' });
    w.close({ adminDown: true });
    await t.l.run(3000);
    const last = t.l.changesAt(B).at(-1);
    expect(last).toMatchObject({ state: 'down', remoteState: 'admin-down' });
    // No report reaches a closed watch.
    expect(t.seen.at(-1)?.state).toBe('up');
  });

  it('changes timers in place and restarts the session for a new key', async () => {
    const t = setup();
    const w = t.watcher.watch(spec(), (c) => t.seen.push(c));
    await t.l.run(3000);
    w.update(spec({ transmitIntervalMs: 300, receiveIntervalMs: 300 }));
    await t.l.run(3000);
    expect(t.ours.sessions()).toHaveLength(1);
    expect(stateOf(t.ours, B)).toBe('up');
    const key = new TextEncoder().encode('secret');
    w.update(spec({ auth: { type: 'keyed-sha1', keyId: 1, key } }));
    await t.l.run(3000);
    // The peer has no key: the new authenticated session cannot come up, and the old one is gone.
    expect(t.ours.sessions()).toHaveLength(1);
    expect(stateOf(t.ours, B)).not.toBe('up');
    expect(t.logs).toEqual([]);
  });

  it('hands echo mode to the engine: the session advertises the interval and, turned on later, restarts', async () => {
    const t = setup();
    const w = t.watcher.watch(spec(), (c) => t.seen.push(c));
    await t.l.run(3000);
    w.update(spec({ echo: { intervalMs: 70 } }));
    await t.l.run(3000);
    expect(t.ours.sessions()).toEqual([expect.objectContaining({ state: 'up', requiredMinEchoRxMs: 70 })]);
    expect(t.l.wire(A, B).at(-1)?.packet.requiredMinEchoRxIntervalUs).toBe(70_000);
    expect(t.logs).toEqual([]);
  });
});
