// The worker of af-packet-port.worker-child.ts: runs its TypeScript as lab/cli/lblab.mjs does (workers do
// not inherit that), opens the port, says so, and keeps it open until the thread is ended.
import { parentPort, workerData } from 'node:worker_threads';
import { runTypeScript } from './typescript.mjs';

const { AfPacketPort } = await runTypeScript(new URL('./af-packet-port.ts', import.meta.url));
AfPacketPort.open(workerData.interfaceName).onFrame(() => undefined);
parentPort.postMessage('open');
