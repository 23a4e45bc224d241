/**
 * The liveness worker thread: membership and the ARP/NDP responder (LivenessAgent) with their sockets, on
 * an event loop of their own, so a busy main thread never delays a heartbeat or an answer to a client.
 * It logs straight to the process's standard output, so what it does is on record even while the main
 * thread is stuck.
 */
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { LivenessAgent } from '../../speaker/liveness/agent.ts';
import type { FromLiveness, ToLiveness } from '../../speaker/liveness/messages.ts';
import { AfPacketPort } from '../af-packet-port.ts';
import type { Channel } from '../channel.ts';
import { Random } from '../random.ts';
import { RealClock } from '../real-clock.ts';
import { speakerLogLine } from '../speaker-log-line.ts';
import { UdpPort } from '../udp-port.ts';
import { workerChannel } from '../worker-channel.ts';
import type { LivenessWorkerData, WorkerStartup } from './messages.ts';

const port = parentPort;
if (port === null) throw new Error('worker-main.ts runs only as a worker thread');
const data = workerData as LivenessWorkerData;
const raw = workerChannel<ToLiveness, FromLiveness | WorkerStartup>(port);

const ports: AfPacketPort[] = [];
let udp: UdpPort | undefined;
try {
  for (const name of data.interfaces) ports.push(AfPacketPort.open(name));
  udp = await UdpPort.bind(data.self.address, data.membership.membershipPort);
} catch (err) {
  for (const p of ports) p.close();
  raw.post({ op: 'failed', message: (err as Error).message });
}

if (udp !== undefined) {
  const socket = udp;
  // The sockets close before the agent's last word reaches the main thread, which then ends this thread:
  // a raw port still open when a thread is ended must not be left to chance.
  const channel: Channel<ToLiveness, FromLiveness> = {
    onMessage: (l) => raw.onMessage(l),
    post: (m) => {
      if (m.op === 'closed') {
        socket.close();
        for (const p of ports) p.close();
      }
      raw.post(m);
    },
  };
  const clock = new RealClock();
  new LivenessAgent({
    clock,
    random: new Random(data.seed),
    udp: socket,
    ports,
    self: data.self,
    nodes: data.nodes,
    meta: data.meta,
    membership: data.membership,
    ...(data.auth && { auth: data.auth }),
    mainLoopTimeoutMs: data.mainLoopTimeoutMs,
    channel,
    log: (e) => writeLater(`${speakerLogLine(data.self.name, e)}\n`),
  });
  raw.post({ op: 'ready' });
}

/**
 * Lines logged during one turn of this thread's loop, written together at its end: a takeover of thousands
 * of addresses logs thousands of lines, and one write costs what one line did.
 */
let buffered: string[] = [];

function writeLater(line: string): void {
  if (buffered.length === 0) queueMicrotask(flush);
  buffered.push(line);
}

/** A write to a pipe of at most this many bytes is never mixed with another (PIPE_BUF on Linux). */
const ATOMIC_BYTES = 4096;

/** In writes of whole lines up to ATOMIC_BYTES: the main thread writes to the same pipe meanwhile. */
function flush(): void {
  const lines = buffered;
  buffered = [];
  let chunk = '';
  for (const line of lines) {
    if (chunk.length > 0 && Buffer.byteLength(chunk) + Buffer.byteLength(line) > ATOMIC_BYTES) {
      write(chunk);
      chunk = '';
    }
    chunk += line;
  }
  if (chunk.length > 0) write(chunk);
}

/** Everything written, whole, retried while the pipe is full rather than dropped. */
function write(text: string): void {
  const bytes = Buffer.from(text);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let at = 0, tries = 0; at < bytes.length && tries < 1000;) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      tries++;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
