import type { Clock } from './clock.ts';

/**
 * One end of a message channel between two threads of a process: what it posts goes to the other end,
 * what the other end posts arrives here. A worker thread's MessagePort is one (worker-channel.ts); the
 * emulator and the tests join two ends with channelPair.
 */
export interface Channel<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): () => void;
}

/**
 * Two ends joined back to back. A message is delivered by a 0 ms timer on the receiver's clock, as an
 * event loop takes a message from its port: never inside the sender's call, and late when the receiving
 * thread is busy or frozen (a process clock holds the timer until it runs again). Messages posted while
 * a delivery is pending join it, in order, as a port's queue drains in one turn: at 2000 emulated nodes
 * each speaker's thread posts a membership change per node, and one timer per message was 4 million.
 */
export function channelPair<A, B>(clockA: Clock, clockB: Clock): [Channel<B, A>, Channel<A, B>] {
  const toA = new Set<(m: B) => void>();
  const toB = new Set<(m: A) => void>();
  const end = <In, Out>(
    mine: Set<(m: In) => void>,
    theirs: Set<(m: Out) => void>,
    theirClock: Clock,
  ): Channel<In, Out> => {
    let queued: Out[] = [];
    const deliver = () => {
      const batch = queued;
      queued = [];
      for (const message of batch) for (const l of theirs) l(message);
    };
    return {
      post: (message) => {
        if (queued.push(message) === 1) theirClock.setTimer('channel', 0, deliver);
      },
      onMessage: (listener) => {
        mine.add(listener);
        return () => mine.delete(listener);
      },
    };
  };
  return [end<B, A>(toA, toB, clockB), end<A, B>(toB, toA, clockA)];
}
