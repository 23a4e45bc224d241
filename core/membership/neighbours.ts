import { ALIVE, LEFT, UNKNOWN } from './precedence.ts';
import type { MemberTable } from './table.ts';

// Who talks to whom on the ring. A node sends heartbeats to its successors and is watched by them, so
// the two walks below are mirror images: with the same view of who is alive, R is among P's heartbeat
// targets exactly when P is among the nodes R watches (both mean "fewer than k alive nodes lie strictly
// between P and R"). Views differ only while an update spreads; DESIGN.md covers that window.

/**
 * The nodes `t.self` sends heartbeats to: ring successors until `k` alive ones are covered. Not-alive
 * (dead or never heard) nodes met on the way are included too, at most `k` of them: they are probed so a
 * node that comes back (or a healed partition) is noticed at the next tick. Left nodes said goodbye.
 */
export function heartbeatTargets(t: MemberTable, k: number): number[] {
  const n = t.size;
  const out: number[] = [];
  let alive = 0;
  let probes = 0;
  for (let step = 1; step < n && alive < k; step++) {
    const i = (t.self + step) % n;
    const s = t.state[i];
    if (s === ALIVE) {
      out.push(i);
      alive++;
    } else if (s !== LEFT && probes < k) {
      out.push(i);
      probes++;
    }
  }
  return out;
}

/** The nodes `t.self` monitors: its nearest `k` alive ring predecessors (whose heartbeats it receives). */
export function watchedNodes(t: MemberTable, k: number): number[] {
  const n = t.size;
  const out: number[] = [];
  for (let step = 1; step < n && out.length < k; step++) {
    const i = (t.self - step + n) % n;
    if (t.state[i] === ALIVE) out.push(i);
  }
  return out;
}

/**
 * The ring leg of every push: our successors up to the first one that may be running (alive or never
 * heard of), including at most `maxDead` we hold dead on the way. Sending to the dead ones too keeps
 * the chain "every informed node informs its successor" intact when views differ — after a partition
 * heals, our successor may be alive although we still hold it dead — so a push reaches every running
 * node even then.
 */
export function ringLegs(t: MemberTable, maxDead: number): number[] {
  const n = t.size;
  const out: number[] = [];
  for (let step = 1; step < n; step++) {
    const i = (t.self + step) % n;
    const s = t.state[i];
    if (s === ALIVE || s === UNKNOWN) {
      out.push(i);
      break;
    }
    if (s !== LEFT && out.length < maxDead) out.push(i);
  }
  return out;
}

/** The first successor that may be running (alive or never heard of). */
export function liveSuccessor(t: MemberTable, skip: ReadonlySet<number>): number | undefined {
  const n = t.size;
  for (let step = 1; step < n; step++) {
    const i = (t.self + step) % n;
    const s = t.state[i];
    if ((s === ALIVE || s === UNKNOWN) && !skip.has(i)) return i;
  }
  return undefined;
}
