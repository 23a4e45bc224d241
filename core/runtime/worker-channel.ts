import type { MessagePort, Worker } from 'node:worker_threads';
import type { Channel } from './channel.ts';

/**
 * A Channel over a worker thread's port: `worker` on the main thread, `parentPort` inside it. Messages that
 * arrive before anyone listens are kept and handed to the first listener, so nothing said at start-up is
 * lost between spawning and subscribing.
 */
export function workerChannel<In, Out>(port: Worker | MessagePort): Channel<In, Out> {
  const listeners = new Set<(m: In) => void>();
  let early: In[] | undefined = [];
  port.on('message', (m: In) => {
    if (early !== undefined) early.push(m);
    else for (const l of listeners) l(m);
  });
  return {
    post: (m) => port.postMessage(m),
    onMessage: (listener) => {
      listeners.add(listener);
      if (early !== undefined) {
        const waiting = early;
        early = undefined;
        for (const m of waiting) listener(m);
      }
      return () => listeners.delete(listener);
    },
  };
}
