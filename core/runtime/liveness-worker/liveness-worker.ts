/**
 * The main thread's side of the liveness worker thread (worker-main.ts): starts it, waits until its
 * sockets are open, and hands the speaker the LivenessClient that talks to it. If the thread dies, the
 * node can no longer vouch for itself: `onExit` hears of it and the speaker stops.
 */
import { Worker } from 'node:worker_threads';
import { LivenessClient } from '../../speaker/liveness/client.ts';
import { BEAT_MS } from '../../speaker/liveness/index.ts';
import type { FromLiveness, LivenessStats, ToLiveness } from '../../speaker/liveness/messages.ts';
import type { Clock } from '../clock.ts';
import { workerChannel } from '../worker-channel.ts';
import type { LivenessWorkerData, WorkerStartup } from './messages.ts';

/** How long a shutdown waits for the agent's last counters before the thread is ended anyway. */
const SHUTDOWN_WAIT_MS = 2000;

export interface LivenessWorker {
  readonly client: LivenessClient;
  /** Called once if the thread ends on its own (a crash): the speaker cannot go on without it. */
  onExit(listener: (code: number) => void): void;
  /** After client.close(): waits for the final counters, then ends the thread. */
  shutdown(): Promise<LivenessStats | undefined>;
}

/** Starts the thread; rejects with the reason when its sockets cannot be opened (nothing stays open). */
export async function startLivenessWorker(data: LivenessWorkerData, clock: Clock): Promise<LivenessWorker> {
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: data });
  const channel = workerChannel<FromLiveness | WorkerStartup, ToLiveness>(worker);
  // Both listen before this function first yields, so both hear every message from the first one on.
  const client = new LivenessClient(
    clock,
    {
      post: (m) => channel.post(m),
      onMessage: (l) => channel.onMessage((m) => m.op !== 'ready' && m.op !== 'failed' && l(m)),
    },
    BEAT_MS,
    data.self.name,
  );
  const exitListeners = new Set<(code: number) => void>();
  let stopping = false;
  let exited = false;
  const exit = new Promise<number>((resolve) => worker.once('exit', resolve));
  void exit.then((code) => {
    exited = true;
    if (!stopping) for (const l of exitListeners) l(code);
  });
  await new Promise<void>((resolve, reject) => {
    channel.onMessage((m) => {
      if (m.op === 'ready') resolve();
      if (m.op === 'failed') reject(new Error(m.message));
    });
    worker.once('error', reject);
    void exit.then((code) => reject(new Error(`the liveness thread exited (code ${code}) while starting`)));
  }).catch(async (err: unknown) => {
    stopping = true;
    await worker.terminate();
    throw err;
  });
  return {
    client,
    onExit: (listener) => exitListeners.add(listener),
    async shutdown() {
      stopping = true;
      if (exited) return undefined;
      const stats = await Promise.race([
        client.closed(),
        new Promise<undefined>((resolve) =>
          clock.setTimer('liveness: shutdown', SHUTDOWN_WAIT_MS, () => resolve(undefined)),
        ),
      ]);
      await worker.terminate();
      return stats;
    },
  };
}
