/**
 * The BGP daemon of an emulated router: core's BgpSession per neighbour (the real FSM and wire codec),
 * BFD per neighbour, and the RIB → FIB step of a router's routing stack. It advertises nothing; it
 * learns the nodes' service prefixes and forwards to them (ECMP over every node announcing a prefix).
 */
import { AFI_IPV4, AFI_IPV6, SAFI_UNICAST } from '../../../core/bgp/afi.ts';
import type { ReceivedRoute } from '../../../core/bgp/rib/adj-rib-in.ts';
import { BgpSession, type SessionEvent } from '../../../core/bgp/session/session.ts';
import type { BgpConnection, BgpConnector } from '../../../core/bgp/session/transport.ts';
import { IpAddress } from '../../../core/net/index.ts';
import type { Clock } from '../../../core/runtime/clock.ts';
import type { Random } from '../../../core/runtime/random.ts';
import type { BfdWatch, BfdWatcher } from '../../../core/speaker/bfd-watcher.ts';
import type { RouterPeer } from './router-peers.ts';

/**
 * Calibrated against FRR 8.4 on the netns tier (emulator fidelity, reports/fidelity.ts), from r1's
 * captures and c1's probes in the BGP catalog:
 * - BFD Down to bgpd acting on it: bfdd tells zebra, which relays it to bgpd over ZAPI.
 * - A route change (a session gone, a withdraw received) to the kernel route: bgpd's best-path run and
 *   zebra's netlink install. r1's UPDATEs to the other nodes followed its BFD Down on the wire by 60 and
 *   62 ms, and a received withdraw by 50 ms; c1's traffic moved 11–14 ms after those UPDATEs.
 */
export const BFD_TO_BGP_DELAY_MS = 10;
export const FIB_INSTALL_DELAY_MS = 60;

/** FRR's defaults: graceful-restart helper with a restart time of 120 s; connect retry 120 s. */
const RESTART_TIME_SEC = 120;
const CONNECT_RETRY_SEC = 120;
const BGP_PORT = 179;
/**
 * Past this many route changes in one install the timeline gets one line for them all: a leaf learning
 * thousands of Services would otherwise write a line per prefix each time a node's routes arrive.
 */
const FIB_LINES_PER_INSTALL = 16;

/** Where the daemon's routes go: the router host's forwarding table. */
export interface Fib {
  setRoute(prefix: string, nexthops: readonly string[]): void;
  removeRoute(prefix: string): void;
}

export interface RouterDaemonDeps {
  name: string;
  asn: number;
  routerId: IpAddress;
  peers: readonly RouterPeer[];
  clock: Clock;
  random: Random;
  connector: BgpConnector;
  /** Runs the BFD sessions of peers with a BFD profile. */
  bfd?: BfdWatcher;
  fib: Fib;
  log: (message: string) => void;
}

interface Neighbour {
  peer: RouterPeer;
  address: IpAddress;
  session: BgpSession;
  bfd?: BfdWatch;
}

export class RouterDaemon {
  private readonly neighbours: Neighbour[];
  /** What the FIB will hold once the installs queued so far are done, as a comparable key. */
  private queued = '';
  /** The neighbours' Adj-RIB-In versions the queued FIB was computed from. */
  private ribVersions: readonly number[] = [];
  private installed = new Map<string, string[]>();
  /** A look at the RIB is due at the end of this instant (changed()). */
  private checking = false;

  constructor(private readonly deps: RouterDaemonDeps) {
    const connector: BgpConnector = {
      connect: (o) => deps.connector.connect(o).then((conn) => this.watched(conn)),
    };
    this.neighbours = deps.peers.map((peer) => {
      const address = IpAddress.parse(peer.nodeAddress);
      const session = new BgpSession({
        name: peer.node,
        config: {
          localAs: deps.asn,
          peerAs: peer.peerAs,
          routerId: deps.routerId,
          holdTimeSec: peer.holdTimeSec,
          keepaliveSec: peer.keepaliveSec,
          connectRetrySec: CONNECT_RETRY_SEC,
          passive: false,
          // Both families offered: the OPENs agree on what the node's BGPPeer carries (RFC 4760 §8).
          families: [
            { afi: AFI_IPV4, safi: SAFI_UNICAST },
            { afi: AFI_IPV6, safi: SAFI_UNICAST },
          ],
          gracefulRestart: { restartTimeSec: RESTART_TIME_SEC, restarting: false },
        },
        peer: address,
        port: BGP_PORT,
        localAddress: IpAddress.parse(peer.routerAddress),
        ttl: peer.direct ? 1 : 255,
        connectTimeoutMs: 5000,
        clock: deps.clock,
        random: deps.random.fork(),
        connector,
        log: (e) => {
          const line = describe(e);
          if (line !== undefined) this.log(`${peer.node}: ${line}`);
          this.changed();
        },
      });
      return { peer, address, session };
    });
    for (const n of this.neighbours) {
      if (n.peer.bfd !== undefined) this.watchBfd(n);
      n.session.start();
    }
  }

  /** A connection to the router's port 179: it belongs to the neighbour it comes from. */
  accept(conn: BgpConnection): void {
    const n = this.neighbours.find((x) => x.address.equals(conn.remoteAddress));
    if (n === undefined) {
      this.log(`refused a connection from ${conn.remoteAddress.toString()}: not a neighbour`);
      return conn.close();
    }
    n.session.accept(this.watched(conn));
  }

  /** Sessions by node name. */
  sessions(): ReadonlyMap<string, BgpSession> {
    return new Map(this.neighbours.map((n) => [n.peer.node, n.session]));
  }

  /** Every prefix any session holds (stale ones too, as a graceful-restart helper keeps them) → next hops. */
  rib(): Map<string, string[]> {
    const out = new Map<string, Set<string>>();
    for (const n of this.neighbours) {
      for (const r of n.session.received.list()) {
        const { key, via } = routeText(r);
        if (via === undefined) continue;
        let set = out.get(key);
        if (set === undefined) out.set(key, (set = new Set()));
        set.add(via);
      }
    }
    return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, s]) => [p, [...s].sort()]));
  }

  /** What the router forwards by now: the RIB as of FIB_INSTALL_DELAY_MS ago. */
  fib(): ReadonlyMap<string, readonly string[]> {
    return this.installed;
  }

  /**
   * BFD down ends the BGP session at once (RFC 5882 §4.3); a peer that stopped BFD administratively is no
   * failure (RFC 5882 §3.2). FRR, which this router stands in for, sends that Cease (BFD Down, RFC 9384)
   * as a Hard Reset when both sides set the N bit (its bgp_notify_send_hard_reset follows RFC 8538 §5.1),
   * so as a graceful-restart helper it keeps none of the peer's routes either: they go now, C bit set or
   * not. Core's session would keep them stale when N was agreed, hence the explicit clear.
   */
  private watchBfd(n: Neighbour): void {
    const spec = n.peer.bfd!;
    const bfd = this.deps.bfd;
    if (bfd === undefined) throw new Error(`router ${this.deps.name}: ${n.peer.node} needs BFD, none runs`);
    n.bfd = bfd.watch(spec, (c) => {
      this.log(`${n.peer.node}: BFD ${c.previous} → ${c.state} (${c.reason})`);
      if (c.previous !== 'up' || c.state === 'up') return;
      if (c.remoteState === 'admin-down') {
        this.log(`${n.peer.node}: the peer stopped BFD administratively; the BGP session is left alone`);
        return;
      }
      this.deps.clock.setTimer(`router ${this.deps.name} bfd ${n.peer.node}`, BFD_TO_BGP_DELAY_MS, () => {
        n.session.bfdDown(c.remoteControlPlaneIndependent, false);
        n.session.received.clear();
        this.changed();
      });
    });
  }

  /** A connection whose every input is followed by a RIB check, as bgpd recomputes after each UPDATE. */
  private watched(conn: BgpConnection): BgpConnection {
    return {
      localAddress: conn.localAddress,
      remoteAddress: conn.remoteAddress,
      send: (bytes) => conn.send(bytes),
      close: () => conn.close(),
      onData: (fn) =>
        conn.onData((chunk) => {
          fn(chunk);
          this.changed();
        }),
      onClose: (fn) =>
        conn.onClose((reason) => {
          fn(reason);
          this.changed();
        }),
    };
  }

  /**
   * The RIB may have changed: looked at once at the end of the instant, however many inputs arrived in
   * it. A window of TCP segments arrives in one instant, each with its UPDATEs; rebuilding a leaf's
   * 50,000 paths after each segment was most of a 500-node rack fabric's run. What is installed, and
   * when, is the same: the FIB the last of them leads to, FIB_INSTALL_DELAY_MS later.
   */
  private changed(): void {
    if (this.checking) return;
    this.checking = true;
    this.deps.clock.setTimer(`router ${this.deps.name} rib`, 0, () => {
      this.checking = false;
      this.recompute();
    });
  }

  /** Queues the new FIB for install (zebra applies changes in order). */
  private recompute(): void {
    // Keepalives and session events that touched no route leave the RIB as it was: not rebuilt for them.
    const versions = this.neighbours.map((n) => n.session.received.version);
    if (versions.every((v, i) => v === this.ribVersions[i])) return;
    this.ribVersions = versions;
    const next = this.rib();
    const key = JSON.stringify([...next]);
    if (key === this.queued) return;
    this.queued = key;
    this.deps.clock.setTimer(`router ${this.deps.name} fib`, FIB_INSTALL_DELAY_MS, () => this.install(next));
  }

  private install(next: Map<string, string[]>): void {
    const names = new Map(this.neighbours.map((n) => [n.peer.nodeAddress, n.peer.node]));
    const lines: string[] = [];
    for (const prefix of this.installed.keys()) {
      if (next.has(prefix)) continue;
      this.deps.fib.removeRoute(prefix);
      lines.push(`${prefix} removed`);
    }
    for (const [prefix, nexthops] of next) {
      if (this.installed.get(prefix)?.join() === nexthops.join()) continue;
      this.deps.fib.setRoute(prefix, nexthops);
      lines.push(`${prefix} via ${nexthops.map((h) => names.get(h) ?? h).join(', ')}`);
    }
    this.installed = next;
    if (lines.length <= FIB_LINES_PER_INSTALL) for (const line of lines) this.log(`FIB: ${line}`);
    else this.log(`FIB: ${lines.length} routes changed (${lines[0]}, …, ${lines.at(-1)})`);
  }

  private log(message: string): void {
    this.deps.log(message);
  }
}

/** The next hop of a received route: MP_REACH_NLRI's for its family (RFC 4760 §3), else NEXT_HOP. */
/**
 * A received route's prefix and next hop as text, worked out once per route: the RIB is rebuilt from
 * every neighbour's routes on each change (50,000 paths at a leaf of 20 nodes with 2500 Services each),
 * and formatting the same addresses again was most of that work.
 */
const texts = new WeakMap<ReceivedRoute, { key: string; via: string | undefined }>();

function routeText(r: ReceivedRoute): { key: string; via: string | undefined } {
  let t = texts.get(r);
  if (t === undefined) texts.set(r, (t = { key: r.prefix.toString(), via: nextHop(r) }));
  return t;
}

function nextHop(r: ReceivedRoute): string | undefined {
  const afi = r.prefix.family === 4 ? AFI_IPV4 : AFI_IPV6;
  const mp = r.attributes.mpReach;
  if (mp !== undefined && mp.afi === afi && mp.nlri.some((p) => p.equals(r.prefix)))
    return mp.nextHops[0]?.toString();
  return r.prefix.family === 4 ? r.attributes.nextHop?.toString() : undefined;
}

/** Session events worth a line in the lab's timeline; the rest (transitions, summaries) are left out. */
function describe(e: SessionEvent): string | undefined {
  switch (e.kind) {
    case 'established':
      return `BGP established (AS ${e.negotiated.peerAs}, hold ${e.negotiated.holdTimeSec} s${e.negotiated.peerGracefulRestart ? ', graceful restart' : ''})`;
    case 'down':
      return `BGP down: ${e.reason}`;
    case 'received':
      return `holding ${e.held} routes (${e.stale} stale)`;
    case 'note':
      return e.message;
    default:
      return undefined;
  }
}
