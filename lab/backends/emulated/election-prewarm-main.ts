/** The election prewarm thread (election-prewarm.ts): ranks the nodes for each address, in batches. */
import { workerData, type MessagePort } from 'node:worker_threads';
import { leaders } from '../../../core/l2/election/ranking.ts';
import type { RankedBatch } from './election-prewarm.ts';

const { names, ips, port } = workerData as { names: string[]; ips: string[]; port: MessagePort };
/** Addresses per message: small enough that the first ones are there before the first elections. */
const BATCH = 100;

// From the last address back: the speakers' first elections rank from the first one on (a cluster
// started converged elects at once), so the two threads meet in the middle instead of ranking alike.
for (let end = ips.length; end > 0; end -= BATCH) {
  const slice = ips.slice(Math.max(0, end - BATCH), end).reverse();
  const batch: RankedBatch[] = slice.map((ip) => ({ ip, leaders: leaders(names, ip) }));
  port.postMessage(batch);
}
port.close();
