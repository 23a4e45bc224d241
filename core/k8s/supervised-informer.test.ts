/**
 * The supervisor against a scripted informer in virtual time: what it must do where client-node's own
 * informer gives up (an error stops it for good) or cannot tell (a silent watch).
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Random } from '../runtime/random.ts';
import { VirtualClock } from '../runtime/virtual-clock.ts';
import { SupervisedInformer, type InformerLike } from './supervised-informer.ts';

type Handler = (arg?: unknown) => void;

/** An informer the test drives: start() resolves when the test says the list is done. */
class ScriptedInformer {
  readonly handlers = new Map<string, Handler[]>();
  objects: KubernetesObject[] = [];
  started = false;
  stopped = false;
  private listed: (() => void) | undefined;

  on(verb: string, cb: Handler): void {
    this.handlers.set(verb, [...(this.handlers.get(verb) ?? []), cb]);
  }
  off(): void {}
  start(): Promise<void> {
    this.started = true;
    this.fire('connect');
    return new Promise((resolve) => (this.listed = resolve));
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
  list(): readonly KubernetesObject[] {
    return this.objects;
  }
  get(): undefined {
    return undefined;
  }
  /** The list came back with `names`. */
  answerList(names: string[]): void {
    this.objects = names.map((name) => ({ metadata: { name } }));
    this.listed?.();
  }
  fire(verb: string, arg?: unknown): void {
    for (const h of this.handlers.get(verb) ?? []) h(arg);
  }
}

function setup(watchdogMs = 60_000) {
  const clock = new VirtualClock();
  const made: ScriptedInformer[] = [];
  const log: string[] = [];
  const s = new SupervisedInformer<KubernetesObject>({
    name: 'services',
    create: () => {
      const i = new ScriptedInformer();
      made.push(i);
      return i as unknown as InformerLike<KubernetesObject>;
    },
    clock,
    random: new Random(1),
    initialBackoffMs: 200,
    maxBackoffMs: 5000,
    watchdogMs,
    log: (m) => log.push(`${clock.now()} ${m}`),
  });
  let changes = 0;
  s.onChange(() => changes++);
  // Lets the informer's start() promise settle (a microtask, not time).
  const settle = () => Promise.resolve().then(() => undefined);
  return { clock, s, made, log, changes: () => changes, settle };
}

const names = (s: SupervisedInformer<KubernetesObject>) => s.list().map((o) => o.metadata!.name);

describe('SupervisedInformer', () => {
  it('is synced and shows the list once the informer has listed', async () => {
    const t = setup();
    t.s.start();
    expect(t.s.synced()).toBe(false);
    t.made[0]!.answerList(['a', 'b']);
    await t.settle();
    expect(t.s.synced()).toBe(true);
    expect(names(t.s)).toEqual(['a', 'b']);
    expect(t.changes()).toBe(1);
  });

  it('restarts after an error with backoff that doubles and is capped, keeping the last good list meanwhile', async () => {
    const t = setup();
    t.s.start();
    t.made[0]!.answerList(['a']);
    await t.settle();
    const restarts: number[] = [];
    for (let n = 0; n < 7; n++) {
      const before = t.made.length;
      const at = t.clock.now();
      t.made.at(-1)!.fire('error', Object.assign(new Error('503 Service Unavailable'), { code: 503 }));
      while (t.made.length === before) t.clock.advance(1);
      restarts.push(t.clock.now() - at);
      expect(names(t.s)).toEqual(['a']);
    }
    // 200, 400, 800, 1600, 3200, then the 5000 cap, each ±20 %.
    const expected = [200, 400, 800, 1600, 3200, 5000, 5000];
    restarts.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(expected[i]! * 0.8 - 1);
      expect(ms).toBeLessThanOrEqual(expected[i]! * 1.2 + 1);
    });
    expect(t.log[0]).toMatch(/services: 503 Service Unavailable; watching again in \d+ ms/);
    // Once a restart lists again, the backoff starts over.
    t.made.at(-1)!.answerList(['a', 'c']);
    await t.settle();
    expect(names(t.s)).toEqual(['a', 'c']);
    const before = t.made.length;
    const at = t.clock.now();
    t.made.at(-1)!.fire('error', new Error('connection reset'));
    while (t.made.length === before) t.clock.advance(1);
    expect(t.clock.now() - at).toBeLessThanOrEqual(241);
  });

  it('restarts a watch that has been silent longer than the watchdog allows', async () => {
    const t = setup(10_000);
    t.s.start();
    t.made[0]!.answerList(['a']);
    await t.settle();
    t.clock.advance(9_000);
    t.made[0]!.fire('connect');
    t.clock.advance(9_000);
    expect(t.made).toHaveLength(1);
    t.clock.advance(4_000);
    expect(t.made).toHaveLength(2);
    expect(t.made[0]!.stopped).toBe(true);
    expect(t.log.at(-1)).toMatch(/services: nothing heard for \d+ ms; watching again/);
  });

  it('never revives an informer stopped on purpose, even when its error arrives after', async () => {
    const t = setup(10_000);
    t.s.start();
    t.made[0]!.answerList(['a']);
    await t.settle();
    await t.s.stop();
    t.made[0]!.fire('error', new Error('aborted'));
    t.clock.advance(120_000);
    expect(t.made).toHaveLength(1);
    expect(t.made[0]!.stopped).toBe(true);
    expect(t.log).toEqual([]);
  });

  it('ignores what a replaced informer says after its successor took over', async () => {
    const t = setup();
    t.s.start();
    t.made[0]!.answerList(['a']);
    await t.settle();
    t.made[0]!.fire('error', new Error('gone'));
    t.clock.advance(1000);
    t.made[1]!.answerList(['b']);
    await t.settle();
    const changes = t.changes();
    t.made[0]!.fire('change', { metadata: { name: 'x' } });
    t.made[0]!.fire('error', new Error('late'));
    t.clock.advance(10_000);
    expect(t.made).toHaveLength(2);
    expect(t.changes()).toBe(changes);
    expect(names(t.s)).toEqual(['b']);
  });
});
