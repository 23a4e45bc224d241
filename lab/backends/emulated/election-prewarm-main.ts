/** The election prewarm thread (election-prewarm.ts): ranks the nodes for each address, in batches. */
import { workerData, type MessagePort } from 'node:worker_threads';
import { leaders } from '../../../core/l2/election/ranking.ts';
import type { RankedBatch } from './election-prewarm.ts';

const { names, ips, port } = workerData as { names: string[]; ips: string[]; port: MessagePort };
/** Addresses per message: small enough that the first ones are there before the first elections. */
const BATCH = 100;

for (let i = 0; i < ips.length; i += BATCH) {
  const batch: RankedBatch[] = ips.slice(i, i + BATCH).map((ip) => ({ ip, leaders: leaders(names, ip) }));
  port.postMessage(batch);
}
port.close();
