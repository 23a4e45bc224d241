import { type Context, pickDistinct } from './context.ts';
import { ALIVE, DEAD } from './precedence.ts';
import type { ProbeMessage } from './wire/index.ts';

interface Watch {
  /** When we started watching: a node we just started watching gets a full timeout from here. */
  since: number;
  /** When the watch timer was due; firing much later means our process stalled, not the node. */
  due: number;
  /** When we suspected it (sent pings), or NaN when not suspected. */
  suspectSince: number;
}

interface PendingPing {
  readonly target: string;
  /** For a ping we send on someone's behalf (ping-req): whom to forward the ack to, and their seq. */
  readonly origin: { readonly name: string; readonly seq: number } | undefined;
  readonly expires: number;
}

/**
 * The failure detector. Each node watches its nearest K alive ring predecessors, which send it a
 * heartbeat every tick. A watched node silent for `intervalMs × multiplier` is suspected: we ping it
 * directly and ask `indirectProbes` random members to ping it too (SWIM's ping-req, for a path that loses
 * only our packets). Any word from it within `confirmMs` clears it; otherwise we declare it dead.
 *
 * One timer per watched node, re-armed lazily at its deadline rather than on every heartbeat.
 */
export class Detector {
  private readonly watching = new Map<string, Watch>();
  private readonly pending = new Map<number, PendingPing>();
  private seq: number;

  constructor(private readonly ctx: Context) {
    this.seq = ctx.random.nextUint32();
  }

  private get timeout(): number {
    return this.ctx.options.intervalMs * this.ctx.options.multiplier;
  }

  /**
   * Makes `indices` the watched set. Dropped ones are forgotten. New ones get a full timeout from now —
   * they start sending to us once they learn why we now watch them — except when we took them on
   * because a watched node died and we have not heard from them lately: then they are pinged at once.
   * In a partition the nodes beyond a dead neighbour are usually cut off too, and waiting a full
   * timeout for each layer would make a minority side take ⌈run length / K⌉ timeouts to see.
   */
  watch(indices: readonly number[]): void {
    const t = this.ctx.table();
    const names = new Set(indices.map((i) => t.ring.names[i]!));
    let afterDeath = false;
    for (const name of this.watching.keys()) {
      if (names.has(name)) continue;
      this.watching.delete(name);
      this.ctx.timers.disarm(`watch:${name}`);
      const i = t.ring.indexOf(name);
      if (i !== undefined && t.state[i] === DEAD) afterDeath = true;
    }
    const now = this.ctx.clock.now();
    for (const name of names) {
      if (this.watching.has(name)) continue;
      const w: Watch = { since: now, due: 0, suspectSince: NaN };
      this.watching.set(name, w);
      const i = t.ring.indexOf(name)!;
      if (afterDeath && now - t.lastHeard[i]! > this.ctx.options.intervalMs) {
        w.suspectSince = now;
        this.suspect(i);
        this.arm(name, w, now + this.ctx.options.confirmMs);
      } else this.arm(name, w, now + this.timeout);
    }
  }

  isWatching(name: string): boolean {
    return this.watching.has(name);
  }

  /** Names currently watched (for tests and diagnostics). */
  watched(): string[] {
    return [...this.watching.keys()];
  }

  private arm(name: string, w: Watch, at: number): void {
    const now = this.ctx.clock.now();
    w.due = Math.max(at, now);
    this.ctx.timers.arm(`watch:${name}`, w.due - now, () => this.check(name));
  }

  private check(name: string): void {
    const w = this.watching.get(name);
    if (!w) return;
    const t = this.ctx.table();
    const i = t.ring.indexOf(name);
    if (i === undefined || t.state[i] !== ALIVE) {
      this.watching.delete(name);
      return;
    }
    const now = this.ctx.clock.now();
    const { intervalMs, confirmMs } = this.ctx.options;
    if (now - w.due > intervalMs) {
      // The timer fired far too late: our process was frozen (SIGSTOP, a long GC pause, a starved event
      // loop), and heartbeats may be waiting unread in the socket. Blaming the node would be a false
      // positive; give it a fresh timeout from now instead.
      w.since = now;
      w.suspectSince = NaN;
      this.arm(name, w, now + this.timeout);
      return;
    }
    const heard = Math.max(t.lastHeard[i]!, w.since);
    if (!Number.isNaN(w.suspectSince)) {
      if (t.lastHeard[i]! >= w.suspectSince) {
        w.suspectSince = NaN;
        this.arm(name, w, heard + this.timeout);
        return;
      }
      // Still in `watching` while declared, so the watch recompute it triggers sees a watched node die.
      this.ctx.counters.declaredDead++;
      this.ctx.declareDead(i, Math.round(now - heard));
      return;
    }
    // Compare against the very deadline we arm (not `now - heard >= timeout`): floating-point rounding
    // could otherwise re-arm a timer for "now" forever.
    const deadline = heard + this.timeout;
    if (now >= deadline) {
      w.suspectSince = now;
      this.suspect(i);
      this.arm(name, w, now + confirmMs);
      return;
    }
    this.arm(name, w, deadline);
  }

  private suspect(i: number): void {
    const t = this.ctx.table();
    const target = t.ring.names[i]!;
    this.ctx.counters.suspicions++;
    const seq = this.nextSeq(target, undefined);
    this.ping(i, 'ping', seq, target);
    const relays = pickDistinct(
      this.ctx.random,
      t.alive.size,
      (k) => t.alive.at(k),
      this.ctx.options.indirectProbes,
      new Set([i, t.self]),
    );
    for (const r of relays) this.ping(r, 'ping-req', seq, target);
  }

  onProbe(m: ProbeMessage, from: number): void {
    const t = this.ctx.table();
    switch (m.kind) {
      case 'ping':
        if (m.target === this.ctx.name) this.ping(from, 'ack', m.seq, m.target);
        return;
      case 'ping-req': {
        const target = t.ring.indexOf(m.target);
        if (target === undefined) return;
        if (target === t.self) {
          this.ping(from, 'ack', m.seq, m.target);
          return;
        }
        const seq = this.nextSeq(m.target, { name: t.ring.names[from]!, seq: m.seq });
        this.ping(target, 'ping', seq, m.target);
        return;
      }
      case 'ack': {
        const p = this.pending.get(m.seq);
        if (!p || p.target !== m.target) return;
        this.pending.delete(m.seq);
        const target = t.ring.indexOf(m.target);
        // An ack relayed by a third node proves life as well as one from the node itself.
        if (target !== undefined) t.lastHeard[target] = this.ctx.clock.now();
        if (p.origin) {
          const origin = t.ring.indexOf(p.origin.name);
          if (origin !== undefined) this.ping(origin, 'ack', p.origin.seq, m.target);
        }
        return;
      }
    }
  }

  private nextSeq(target: string, origin: PendingPing['origin']): number {
    const now = this.ctx.clock.now();
    if (this.pending.size >= 256) {
      for (const [s, p] of this.pending) if (p.expires < now) this.pending.delete(s);
    }
    this.seq = (this.seq + 1) >>> 0;
    this.pending.set(this.seq, { target, origin, expires: now + 2 * this.ctx.options.confirmMs });
    return this.seq;
  }

  private ping(i: number, kind: ProbeMessage['kind'], seq: number, target: string): void {
    this.ctx.counters.pings++;
    this.ctx.send(i, { kind, from: this.ctx.name, incarnation: this.ctx.incarnation(), seq, target });
  }

  stop(): void {
    for (const name of this.watching.keys()) this.ctx.timers.disarm(`watch:${name}`);
    this.watching.clear();
    this.pending.clear();
  }
}
