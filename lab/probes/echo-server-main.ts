/**
 * UDP echo server for lab nodes: `node --import tsx lab/probes/echo-server-main.ts --name n1 [--port 7777]`.
 * Answers probes on every address of the host (IPv4 and IPv6), including the service addresses that
 * are delivered locally, and names itself in each answer.
 */
import { createSocket } from 'node:dgram';
import { parseArgs } from 'node:util';
import { encodeEcho } from './echo-protocol.ts';

const { values } = parseArgs({
  options: { name: { type: 'string' }, port: { type: 'string', default: '7777' } },
});
const name = values.name ?? 'unnamed';
const port = Number(values.port);

for (const type of ['udp4', 'udp6'] as const) {
  const socket = createSocket({ type, ipv6Only: type === 'udp6' });
  socket.on('message', (msg, rinfo) => {
    const echo = encodeEcho(msg, name);
    if (echo) socket.send(echo, rinfo.port, rinfo.address);
  });
  socket.bind(port, type === 'udp4' ? '0.0.0.0' : '::', () =>
    process.stdout.write(`echo ${type} ${name} :${port}\n`),
  );
}
process.on('SIGTERM', () => process.exit(0));
