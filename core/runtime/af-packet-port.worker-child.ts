// Runs inside a network namespace for af-packet-port.netns.test.ts: opens an AfPacketPort in a worker
// thread and ends the thread with the port still open, as a speaker's BFD worker may when it stops.
// The process must then exit normally (exit code 0), not crash. Usage: node --import tsx THIS INTERFACE
import { Worker } from 'node:worker_threads';

const worker = new Worker(new URL('./af-packet-port.worker-entry.mjs', import.meta.url), {
  workerData: { interfaceName: process.argv[2] },
});
const opened = await new Promise<string>((resolve) => worker.once('message', (m: string) => resolve(m)));
if (opened !== 'open') throw new Error(`the worker said ${opened}`);
await worker.terminate();
process.stdout.write('terminated\n');
