// Runs inside a network namespace for udp-network.netns.test.ts: a socket belongs to the namespace of the
// process that creates it, and the test process stays in the host's, so each namespace gets one of these.
// Usage: node --import tsx udp-network.netns-child.ts '<UdpBfdNetworkOptions as JSON>'
// stdin, one JSON request per line:
//   {id, op: 'open', spec} -> {path, sourcePort}        | {id, op: 'send', path, hex}
//   {id, op: 'close-path', path}                          | {id, op: 'close'} (the whole network)
//   {id, op: 'raw', from, to, port, ttl, hex}: one datagram from a plain socket with that TTL / hop limit,
//       bypassing UdpBfdNetwork, as a misconfigured or spoofing peer would send it -> {sourcePort}
// stdout, one JSON object per line: {id, ok: true, ...result} | {id, ok: false, code, errno, message}
//   | {event: 'packet', hex, from: {address, port}, multihop} for every packet the network delivers.
// End of input closes the network; the process must then exit on its own.
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { emitLine, serveJsonLines } from '../json-lines-child.test-support.ts';
import { type UdpBfdPath, UdpBfdNetwork } from './index.ts';

interface Request {
  id: number;
  op: 'open' | 'send' | 'close-path' | 'close' | 'raw';
  spec?: { localAddress: string; peerAddress: string; multihop: boolean; minimumTtl?: number };
  path?: number;
  hex?: string;
  from?: string;
  to?: string;
  port?: number;
  ttl?: number;
}

const network = new UdpBfdNetwork(JSON.parse(process.argv[2] ?? '{}') as { minimumTtl?: number });
network.onPacket((bytes, from, multihop) =>
  emitLine({ event: 'packet', hex: Buffer.from(bytes).toString('hex'), from, multihop }),
);
const paths = new Map<number, UdpBfdPath>();
let nextPath = 1;

function pathOf(request: Request): UdpBfdPath {
  const path = paths.get(request.path ?? -1);
  if (path === undefined) throw new Error(`no path ${request.path}`);
  return path;
}

/** A datagram from an ephemeral port of `from`, with the TTL asked for, through a plain dgram socket. */
async function raw(r: Required<Pick<Request, 'from' | 'to' | 'port' | 'ttl' | 'hex'>>): Promise<object> {
  const socket = createSocket(isIPv6(r.from) ? 'udp6' : 'udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, r.from, () => resolve());
    });
    socket.setTTL(r.ttl);
    await new Promise<void>((resolve, reject) =>
      socket.send(Buffer.from(r.hex, 'hex'), r.port, r.to, (e) => (e ? reject(e) : resolve())),
    );
    return { sourcePort: socket.address().port };
  } finally {
    socket.close();
  }
}

async function handle(request: Request): Promise<object> {
  switch (request.op) {
    case 'open': {
      const path = await network.open(request.spec ?? { localAddress: '', peerAddress: '', multihop: false });
      const id = nextPath++;
      paths.set(id, path);
      return { path: id, sourcePort: path.sourcePort };
    }
    case 'send':
      pathOf(request).send(Buffer.from(request.hex ?? '', 'hex'));
      return {};
    case 'close-path':
      pathOf(request).close();
      paths.delete(request.path ?? -1);
      return {};
    case 'close':
      await network.close();
      return {};
    case 'raw':
      return raw(request as Required<Request>);
  }
}

await serveJsonLines(handle);
await network.close();
