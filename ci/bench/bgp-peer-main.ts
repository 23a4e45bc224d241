/**
 * Our BGP session as a bare process, for ci/bench/bgp-frr.ts: listens on LOCAL:179 for PEER (AS 64512,
 * which connects as soon as it is ready), advertises COUNT /32s from 198.18.128.0 on as AS 64513, then
 * waits to be killed (at most LIMIT_SEC). Prints the session's events as JSON lines.
 */
import { IpAddress, Prefix } from '../../core/net/index.ts';
import { socketConnection, tcpBgpConnector } from '../../core/runtime/bgp-socket.ts';
import { listenTcp } from '../../core/runtime/tcp/index.ts';
import { Random } from '../../core/runtime/random.ts';
import { RealClock } from '../../core/runtime/real-clock.ts';
import { BgpSession } from '../../core/bgp/session/session.ts';

const [peer, local, count] = [process.env['PEER']!, process.env['LOCAL']!, Number(process.env['COUNT'])];
const base = IpAddress.parse('198.18.128.0');
const session = new BgpSession({
  name: 'bench',
  config: {
    localAs: 64513,
    peerAs: 64512,
    routerId: IpAddress.parse(local),
    holdTimeSec: 90,
    keepaliveSec: 30,
    connectRetrySec: 1,
    passive: true,
    families: [{ afi: 1, safi: 1 }],
  },
  peer: IpAddress.parse(peer),
  port: 179,
  ttl: 1,
  connectTimeoutMs: 5000,
  clock: new RealClock(),
  random: new Random(1),
  connector: tcpBgpConnector,
  log: (e) => {
    if (e.kind === 'transition') process.stdout.write(`${e.from} → ${e.to}: ${e.reason}\n`);
  },
});
const attributes = { communities: [], largeCommunities: [] };
session.setRoutes(
  Array.from({ length: count }, (_, i) => ({ prefix: Prefix.of(base.add(BigInt(i)), 32), attributes })),
);
const listener = await listenTcp({ host: local, port: 179 });
listener.onConnection((socket) => session.accept(socketConnection(socket)));
session.start();
setTimeout(() => process.exit(0), Number(process.env['LIMIT_SEC'] ?? 120) * 1000);
