// Runs inside a network namespace for af-packet-port.netns.test.ts: a raw socket belongs to the namespace
// of the process that opens it, and the test process stays in the host's, so each namespace gets one of
// these. Usage: node --import tsx af-packet-port.netns-child.ts INTERFACE
// stdout, one JSON object per line: {event:'ready', mac, ifindex} | {event:'rx', hex} | {event:'sent'}
//   | {event:'send-error', errno} | {event:'error', code, errno, message} (open failed; exit code 1)
// stdin, one command per line: "send HEX". End of input closes the port; the process must then exit on
// its own, which shows that close() released the event loop.
import { createInterface } from 'node:readline';
import { AfPacketError, AfPacketPort } from './af-packet-port.ts';

const emit = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

async function main(interfaceName: string): Promise<number> {
  let port: AfPacketPort;
  try {
    port = AfPacketPort.open(interfaceName);
  } catch (e) {
    const { code, errno } = e instanceof AfPacketError ? e : { code: undefined, errno: undefined };
    emit({ event: 'error', code, errno, message: e instanceof Error ? e.message : String(e) });
    return 1;
  }
  port.onFrame((frame) => emit({ event: 'rx', hex: hex(frame) }));
  emit({ event: 'ready', mac: port.mac.toString(), ifindex: port.ifindex });
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, argument = ''] = line.split(' ');
    if (command !== 'send') throw new Error(`unknown command ${JSON.stringify(line)}`);
    try {
      port.send(Buffer.from(argument, 'hex'));
      emit({ event: 'sent' });
    } catch (e) {
      // While a link is down the kernel refuses frames (ENETDOWN, ENOBUFS); the test retries.
      if (!(e instanceof AfPacketError)) throw e;
      emit({ event: 'send-error', errno: e.errno });
    }
  }
  port.close();
  return 0;
}

process.exitCode = await main(process.argv[2] ?? '');
