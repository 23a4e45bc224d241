/**
 * The manifest worker thread: reads and parses the cluster file off the main thread. A file of 10,000
 * Services is seconds of YAML parsing; here that costs the speaker's main loop nothing. A good snapshot
 * goes back in parts of PART_ITEMS objects, one each time the main thread asks: messages that wait in a
 * port are all taken in at once, so parts sent unasked would arrive as one long turn of the main loop.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { parseClusterManifests } from '../../cluster/manifests.ts';
import { lowerThreadPriority } from '../thread-priority.ts';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import type { FromManifestWorker, ToManifestWorker } from './messages.ts';

/** Objects per part: a few milliseconds for the main thread to take in. */
const PART_ITEMS = 250;
const buckets: readonly (keyof ClusterSnapshot)[] = ['namespaces', 'nodes', 'services', 'endpointSlices'];

const port = parentPort;
if (port === null) throw new Error('worker-main.ts runs only as a worker thread');
// Parsing a big change is background work: the liveness thread, and the node's other programs, come first
// when the machine is busy. Nice 10 gives this thread about a tenth of a default one's share of a core.
lowerThreadPriority(10);
const post = (m: FromManifestWorker) => port.postMessage(m);
let last: { path: string; text: string } | undefined;
/** The parts of the snapshot being handed over, by request. */
let sending: { seq: number; parts: FromManifestWorker[] } | undefined;

port.on('message', (m: ToManifestWorker) => {
  if (m.op === 'read') void read(m);
  else if (sending?.seq === m.seq) post(sending.parts.shift() ?? { op: 'done', seq: m.seq });
});

async function read({ seq, path, orSame }: Extract<ToManifestWorker, { op: 'read' }>): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return post({ op: 'unreadable', seq, error: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
  if (orSame && last?.path === path && last.text === text) return post({ op: 'same', seq });
  const result = parseClusterManifests(path, text);
  if (!result.ok) return post({ op: 'invalid', seq, issues: result.issues });
  last = { path, text };
  const parts: FromManifestWorker[] = [];
  for (const bucket of buckets) {
    const items = result.snapshot[bucket];
    for (let at = 0; at < items.length; at += PART_ITEMS)
      parts.push({ op: 'part', seq, bucket, items: items.slice(at, at + PART_ITEMS) });
  }
  // A newer read replaces one whose parts are still being handed over.
  sending = { seq, parts };
  post(parts.shift() ?? { op: 'done', seq });
}
