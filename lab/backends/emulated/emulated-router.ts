/**
 * A topology router on the emulated network: whatever its `impl` (frr, bird, gobgp), it runs as lblab's
 * emulated router, a forwarding host whose "bgpd" process speaks wire-format BGP (core's sessions) and
 * BFD (core's engine) with the nodes and installs what they announce into the host's routing table.
 */
import { BfdEngine } from '../../../core/bfd/engine/index.ts';
import { IpAddress } from '../../../core/net/index.ts';
import { Random } from '../../../core/runtime/random.ts';
import { EngineBfdWatcher } from '../../../core/speaker/engine-bfd-watcher.ts';
import type { TopologyNode } from '../../model/topology.ts';
import type { Host, SimProcess } from '../../sim/index.ts';
import { RouterDaemon } from './router-daemon.ts';
import type { RouterPeer } from './router-peers.ts';
import { simBfdNetwork } from './sim-bfd-network.ts';
import { simBgpConnector, simBgpListen } from './sim-bgp-transport.ts';

export interface EmulatedRouter {
  process: SimProcess;
  daemon: RouterDaemon;
}

export function startEmulatedRouter(o: {
  host: Host;
  node: TopologyNode;
  peers: readonly RouterPeer[];
  seed: number;
  log: (message: string) => void;
}): EmulatedRouter {
  const { host, node } = o;
  host.enableForwarding();
  const process = host.process('bgpd');
  const random = new Random(o.seed);
  const engine = new BfdEngine({
    clock: process.clock,
    random: random.fork(),
    network: simBfdNetwork(process),
  });
  const daemon = new RouterDaemon({
    name: node.name,
    asn: node.asn ?? 0,
    // Its first IPv4 address (FRR picks the highest; any stable choice will do, it only breaks collisions).
    routerId: IpAddress.parse(node.attachments[0]!.ipv4.split('/')[0]!),
    peers: o.peers,
    clock: process.clock,
    random,
    connector: simBgpConnector(process),
    bfd: new EngineBfdWatcher(engine, (m) => o.log(`BFD: ${m}`)),
    fib: {
      setRoute: (prefix, nexthops) => host.setRoute(prefix, nexthops),
      removeRoute: (prefix) => host.removeRoute(prefix),
    },
    log: o.log,
  });
  simBgpListen(process, (conn) => daemon.accept(conn));
  return { process, daemon };
}
