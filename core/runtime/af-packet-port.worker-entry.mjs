// The worker of af-packet-port.worker-child.ts: registers tsx (workers do not inherit the loader),
// opens the port, says so, and keeps it open until the thread is ended.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { AfPacketPort } = await import('./af-packet-port.ts');
AfPacketPort.open(workerData.interfaceName).onFrame(() => undefined);
parentPort.postMessage('open');
