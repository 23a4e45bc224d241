/**
 * Ranks a large cluster's nodes for every Service address on a helper thread while the emulation starts,
 * so the speakers' first elections find MetalLB's hash order ready (core/l2/election/ranking.ts): at 2000
 * nodes and 10,000 Services that is 20 million SHA-256 digests, a tenth of the run on the one thread the
 * emulation has, and the machine has a second core. The orders are a pure function of the node names and
 * the address, so results are the same whichever thread ranks an address first; what the helper has not
 * sent yet is ranked by the main thread when it is read, as without it. A cluster started converged
 * elects at once, from the first address on, so the helper starts from the last one.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { hashOrder, type Keyed } from '../../../core/l2/election/ranking.ts';

/** Below this many digests, starting a thread (and its TypeScript loader) costs more than it saves. */
const WORTH_IT = 2_000_000;

export interface RankedBatch {
  readonly ip: string;
  readonly leaders: readonly Keyed[];
}

/** Starts ranking `nodes` for `ips` (canonical address texts); returns what stops it. */
export function prewarmElection(nodes: readonly string[], ips: readonly string[]): () => void {
  if (nodes.length * ips.length < WORTH_IT) return () => undefined;
  // The order clusterView registers them in, so the speakers' elections add nothing the helper lacks.
  hashOrder.register([...nodes].sort());
  const names = hashOrder.registered();
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./election-prewarm-entry.mjs', import.meta.url), {
    workerData: { names, ips, port: port2 },
    transferList: [port2],
  });
  worker.unref();
  // A helper that fails costs only its head start: the main thread ranks what it did not.
  worker.on('error', () => undefined);
  let left = ips.length;
  const stop = () => {
    unsupply();
    port1.close();
    void worker.terminate();
  };
  // Read when an election needs an address not ranked yet: the emulation runs whole virtual seconds
  // without giving the event loop a turn in which a message event could arrive.
  const unsupply = hashOrder.supplyWith(() => {
    for (let m = receiveMessageOnPort(port1); m !== undefined; m = receiveMessageOnPort(port1)) {
      const batch = m.message as readonly RankedBatch[];
      for (const { ip, leaders } of batch) hashOrder.prime(ip, leaders, names.length);
      left -= batch.length;
    }
    if (left === 0) stop();
  });
  return stop;
}
