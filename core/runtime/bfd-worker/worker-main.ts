/**
 * The BFD worker thread: the sessions, their timers and their UDP sockets, on an event loop of their
 * own so that a busy speaker (a large UPDATE burst, a garbage collection of the main heap) cannot delay
 * a packet past the peer's detection time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BfdEngine } from '../../bfd/engine/index.ts';
import { EngineBfdWatcher } from '../../speaker/engine-bfd-watcher.ts';
import type { BfdWatch } from '../../speaker/bfd-watcher.ts';
import { AfPacketEchoNetwork } from '../bfd/echo-network.ts';
import { interfaceOfAddress } from '../bfd/echo-interface.ts';
import { UdpBfdNetwork } from '../bfd/udp-network.ts';
import { Random } from '../random.ts';
import { RealClock } from '../real-clock.ts';
import type { FromWorker, ToWorker, WorkerOptions } from './messages.ts';

const port = parentPort;
if (port === null) throw new Error('worker-main.ts runs only as a worker thread');
const options = workerData as WorkerOptions;
const post = (m: FromWorker) => port.postMessage(m);

const network = new UdpBfdNetwork();
// Sessions in echo mode send their echoes as raw frames on the interface of their local address, looked
// up in this thread's view of the host's interfaces when each session opens. Nothing is opened (no raw
// socket, no UDP port 3785) until a session in echo mode is added.
const echo = new AfPacketEchoNetwork({ interfaceOf: (address) => interfaceOfAddress(address) });
const engine = new BfdEngine({ clock: new RealClock(), random: new Random(options.seed), network, echo });
const watcher = new EngineBfdWatcher(engine, (message) => post({ op: 'log', message }));
const watches = new Map<number, BfdWatch>();

port.on('message', (m: ToWorker) => {
  switch (m.op) {
    case 'watch':
      watches.set(
        m.id,
        watcher.watch(m.spec, (change) => post({ op: 'change', id: m.id, change })),
      );
      return;
    case 'update':
      return watches.get(m.id)?.update(m.spec);
    case 'close':
      watches.get(m.id)?.close({ adminDown: m.adminDown });
      watches.delete(m.id);
      return;
    case 'stats':
      void watcher.stats().then((sessions) => post({ op: 'stats', id: m.id, sessions }));
      return;
    case 'shutdown':
      // Echoes stop with Up anyway (AdminDown is not Up), and the raw ports must be closed before the main
      // thread's deadline terminates this thread: an AF_PACKET port still open then crashes the process.
      void echo.close();
      void engine.shutdown().finally(() => {
        void network.close().finally(() => post({ op: 'shut' }));
      });
      return;
  }
});
