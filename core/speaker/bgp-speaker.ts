import type { ClusterSnapshot } from '../cluster/types.ts';
import { internalAddresses } from '../cluster/internal-addresses.ts';
import { anySelectorMatches } from '../cluster/label-selector.ts';
import type { BFDProfile, BGPPeer, LbConfig } from '../config/model.ts';
import { AFI_IPV4, AFI_IPV6, SAFI_UNICAST, type AfiSafi } from '../bgp/afi.ts';
import type { SessionConfig } from '../bgp/fsm/types.ts';
import {
  advertisedRouteSteps,
  announcedAddresses,
  type AdvertiseOptions,
  type AnnouncedAddress,
} from '../bgp/rib/advertised-routes.ts';
import { BgpSession, type SessionCounters, type SessionEvent } from '../bgp/session/session.ts';
import type { BgpConnection, BgpConnector } from '../bgp/session/transport.ts';
import { IpAddress } from '../net/index.ts';
import { compareText } from '../sort/compare-text.ts';
import { NamedTimers, type Clock } from '../runtime/clock.ts';
import type { Random } from '../runtime/random.ts';
import type { BfdSessionSpec, BfdWatch, BfdWatcher } from './bfd-watcher.ts';
import { isDirectEbgp, peerTimers } from './bgp-peer-rules.ts';
import type { SpeakerLogEntry } from './l2-speaker.ts';

export interface BgpSpeakerDeps {
  node: string;
  clock: Clock;
  random: Random;
  connector: BgpConnector;
  log: (entry: SpeakerLogEntry) => void;
  /** This process replaces one that ran before: the R bit of graceful restart (RFC 4724 §3). */
  restarting: boolean;
  /** The peer's password changed (or a peer came or went): the listener must know for TCP-MD5. */
  onPassword?: (peer: IpAddress, password: string | undefined) => void;
  advertise?: AdvertiseOptions;
  /**
   * Most routes a peer may send us before its session is closed (RFC 4486 Cease 1). lblab installs
   * none of them, so a router that floods us would only cost memory. Default 10,000.
   */
  maxPrefixes?: number;
  /** Runs the BFD sessions of peers with a bfdProfile; without it such peers cannot be served. */
  bfd?: BfdWatcher;
}

/** One session as MetalLB's BGP metrics show it. */
export interface BgpPeerStats extends SessionCounters {
  /** MetalLB's `peer` label: "address:port", IPv6 in brackets. */
  peer: string;
  up: boolean;
}

/** MetalLB's default connect time for a BGPPeer without one (its hold and keepalive: bgp-peer-rules.ts). */
const DEFAULT_CONNECT_SEC = 120;
const DEFAULT_MAX_PREFIXES = 10_000;
/** How long a peer keeps our routes while we restart; FRR's default restart time. */
const RESTART_TIME_SEC = 120;

/**
 * The BGP half of a speaker: one session per BGPPeer that selects this node, each advertising what
 * MetalLB's rules say this node announces to that peer, kept in step with the cluster and configuration.
 */
export class BgpSpeaker {
  private snapshot: ClusterSnapshot | undefined;
  private config: LbConfig | undefined;
  private readonly sessions = new Map<string, PeerSession>();
  private readonly timers: NamedTimers<'routes'>;
  /** The route computation under way, a step per turn of the event loop (see routesInSteps). */
  private computing: Generator<void, void> | undefined;
  /** The cluster or configuration changed since the computation under way started. */
  private stale = false;
  /** What announced() found since the last reconcile: the walk over every service is done once per change. */
  private announcedCache: { addresses: AnnouncedAddress[]; peers: Map<string, string[]> } | undefined;
  /** Told when what is announced, or a session's being up, may have changed (status objects, events). */
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly deps: BgpSpeakerDeps) {
    this.timers = new NamedTimers(deps.clock, `bgp ${deps.node}: `);
  }

  setCluster(snapshot: ClusterSnapshot): void {
    this.snapshot = snapshot;
    this.reconcile();
  }

  setConfig(config: LbConfig): void {
    this.config = config;
    this.reconcile();
  }

  /** A TCP connection to our listener: it belongs to the session whose peer address it comes from. */
  accept(conn: BgpConnection): void {
    for (const { peer, session } of this.sessions.values()) {
      if (peer.peerAddress.equals(conn.remoteAddress)) return session.accept(conn);
    }
    this.log(`refused a connection from ${conn.remoteAddress.toString()}: not a configured peer`);
    conn.close();
  }

  /** RFC 8326: tag every route GRACEFUL_SHUTDOWN so routers move traffic away before we stop. */
  drain(): void {
    for (const { session } of this.sessions.values()) session.drain();
  }

  /**
   * `restart` leaves our routes at graceful-restart peers (an upgrade); `shutdown` withdraws them. BFD
   * ends after BGP with AdminDown, which the peer must not take for a failure (RFC 5882 §3.2).
   */
  stop(mode: 'shutdown' | 'restart', reason: string): void {
    this.timers.disarmAll();
    this.computing = undefined;
    for (const s of this.sessions.values()) {
      s.session.stop(mode, reason);
      s.bfd?.watch.close({ adminDown: true });
    }
    this.sessions.clear();
    this.announcedCache = undefined;
  }

  /** Every session's counters, for metrics. */
  peerStats(): BgpPeerStats[] {
    return [...this.sessions.values()].map(({ peer, session }) => ({
      peer: `${peer.peerAddress.family === 6 ? `[${peer.peerAddress}]` : `${peer.peerAddress}`}:${peer.peerPort}`,
      up: session.state === 'established',
      ...session.counters(),
    }));
  }

  /**
   * The service addresses this node advertises to at least one of its peers, whether or not the session
   * is up: desired state, as MetalLB's metallb_speaker_announced says of itself. The same array until the
   * cluster or the configuration changes.
   */
  announced(): readonly AnnouncedAddress[] {
    return this.walkAnnounced()?.addresses ?? [];
  }

  /**
   * The BGPPeers (by name, sorted) each service ("namespace/name") is advertised to from this node,
   * up or not: what MetalLB's ServiceBGPStatus says. The same map until the cluster or configuration changes.
   */
  announcedPeers(): ReadonlyMap<string, readonly string[]> {
    return this.walkAnnounced()?.peers ?? new Map();
  }

  /** Whether the session of BGPPeer `name` is established. */
  sessionUp(name: string): boolean {
    return this.sessions.get(name)?.session.state === 'established';
  }

  /**
   * Called after the sessions or what they advertise were reconciled, and when a session comes up or
   * goes down: read announcedPeers() and sessionUp() then.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private walkAnnounced(): { addresses: AnnouncedAddress[]; peers: Map<string, string[]> } | undefined {
    const { snapshot, config } = this;
    if (snapshot === undefined || config === undefined) return undefined;
    if (this.announcedCache === undefined) {
      const all = new Map<string, AnnouncedAddress>();
      const peers = new Map<string, string[]>();
      for (const [name, { peer }] of [...this.sessions].sort(([a], [b]) => compareText(a, b)))
        for (const a of announcedAddresses(snapshot, config, this.deps.node, peer, this.deps.advertise)) {
          all.set(`${a.service} ${a.ip}`, a);
          const names = peers.get(a.service) ?? [];
          if (names.at(-1) !== name) names.push(name);
          peers.set(a.service, names);
        }
      this.announcedCache = { addresses: [...all.values()], peers };
    }
    return this.announcedCache;
  }

  /** Sessions by BGPPeer name. */
  peers(): ReadonlyMap<string, BgpSession> {
    return new Map([...this.sessions].map(([name, s]) => [name, s.session]));
  }

  private reconcile(): void {
    this.announcedCache = undefined;
    const { snapshot, config } = this;
    if (!snapshot || !config) return;
    const node = snapshot.nodes.find((n) => n.metadata.name === this.deps.node);
    const labels = node?.metadata.labels ?? {};
    const wanted = new Map(
      config.peers
        .filter((p) => p.nodeSelectors.length === 0 || anySelectorMatches(p.nodeSelectors, labels))
        .map((p) => [p.meta.name, p]),
    );
    for (const [name, s] of this.sessions) {
      const peer = wanted.get(name);
      if (peer !== undefined && sessionKey(peer) === s.key) continue;
      s.session.stop(
        'shutdown',
        peer === undefined ? 'the BGPPeer no longer selects this node' : 'the BGPPeer changed',
      );
      s.bfd?.watch.close({ adminDown: true });
      this.deps.onPassword?.(s.peer.peerAddress, undefined);
      this.sessions.delete(name);
    }
    for (const [name, peer] of wanted) {
      let s = this.sessions.get(name);
      const bfd = this.bfdSpec(peer, config, snapshot);
      if (s === undefined) {
        s = { peer, session: this.open(peer, snapshot), key: sessionKey(peer) };
        this.sessions.set(name, s);
        this.deps.onPassword?.(peer.peerAddress, peer.password);
        if (bfd !== undefined) this.watchBfd(s, bfd);
        // With a single-hop BFD profile the session starts only once BFD is up (see watchBfd).
        if (bfd === undefined || bfd.multihop) s.session.start();
      } else if (s.bfd !== undefined && bfd !== undefined && bfdKey(bfd) !== s.bfd.key) {
        s.bfd.watch.update(bfd);
        s.bfd.key = bfdKey(bfd);
      }
    }
    this.stale = true;
    if (this.computing === undefined) this.nextComputation();
    this.changed();
  }

  private changed(): void {
    for (const l of this.changeListeners) l();
  }

  /**
   * Works out every session's routes in steps of a few hundred services, one per turn of the event loop,
   * so 10,000 Services never block the loop for long; each session gets its routes when its turn comes.
   * Changes that arrive meanwhile get the next computation, which starts as soon as this one ends.
   */
  private nextComputation(): void {
    const { snapshot, config } = this;
    if (!this.stale || !snapshot || !config) return;
    this.stale = false;
    this.computing = this.routesInSteps(snapshot, config, [...this.sessions.values()]);
    this.step();
  }

  private step(): void {
    const computing = this.computing;
    if (computing === undefined) return;
    if (!computing.next().done) {
      this.timers.arm('routes', 0, () => this.step());
      return;
    }
    this.computing = undefined;
    this.nextComputation();
  }

  private *routesInSteps(
    snapshot: ClusterSnapshot,
    config: LbConfig,
    sessions: readonly PeerSession[],
  ): Generator<void, void> {
    for (const s of sessions) {
      const routes = yield* advertisedRouteSteps(
        snapshot,
        config,
        this.deps.node,
        s.peer,
        this.deps.advertise,
      );
      // A session replaced or closed meanwhile keeps nothing of this computation.
      if (this.sessions.get(s.peer.meta.name) === s) s.session.setRoutes(routes);
    }
  }

  /** The BFD session a peer's bfdProfile asks for, from the same local address BGP uses. */
  private bfdSpec(peer: BGPPeer, config: LbConfig, snapshot: ClusterSnapshot): BfdSessionSpec | undefined {
    if (peer.bfdProfile === undefined) return undefined;
    const profile = config.bfdProfiles.find((p) => p.meta.name === peer.bfdProfile);
    if (profile === undefined) return undefined;
    const local =
      peer.sourceAddress ??
      internalAddresses(snapshot, this.deps.node).find((a) => a.family === peer.peerAddress.family);
    if (local === undefined)
      throw new Error(
        `node ${this.deps.node} has no IPv${peer.peerAddress.family} InternalIP for BFD with BGPPeer ${peer.meta.name}`,
      );
    // The same rule as BGP's TTL: directly connected eBGP is single-hop (RFC 5881), the rest RFC 5883.
    const multihop = !isDirectEbgp(peer);
    return {
      localAddress: local.toString(),
      peerAddress: peer.peerAddress.toString(),
      multihop,
      ...profileTimers(profile),
      // RFC 5881 §5 fixes single-hop at TTL 255; the profile's floor is for multi-hop (RFC 5883 §5).
      ...(multihop && { minimumTtl: profile.minimumTtl }),
      // Echo mode as MetalLB runs it: single-hop IPv4 sessions only (RFC 5883 §3 forbids echoes over
      // several hops, MetalLB has them for IPv4 only). Elsewhere echoMode is left out, as FRR ignores it
      // on a multihop session; checkBfdEcho has warned about that peer.
      ...(profile.echoMode &&
        !multihop &&
        peer.peerAddress.family === 4 && { echo: { intervalMs: profile.echoIntervalMs } }),
    };
  }

  /**
   * BGP follows BFD: it ends at once when BFD goes down (RFC 5882 §4.3), except when the peer stopped
   * BFD on purpose, which is not a failure (RFC 5882 §3.2). A single-hop session also starts only when
   * BFD is up. A multi-hop one does not wait: FRR (and so MetalLB's FRR mode) creates a multi-hop BFD
   * session only for an established BGP session, so waiting for it would wait forever.
   */
  private watchBfd(s: PeerSession, spec: BfdSessionSpec): void {
    const bfd = this.deps.bfd;
    const name = s.peer.meta.name;
    if (bfd === undefined) throw new Error(`BGPPeer ${name} has a bfdProfile but this speaker runs no BFD`);
    const watch = bfd.watch(spec, (c) => {
      if (this.sessions.get(name) !== s) return;
      this.log(`${name}: BFD ${c.previous} → ${c.state} (${c.reason})`);
      if (c.state === 'up') return s.session.start();
      if (c.previous !== 'up') return;
      if (c.remoteState === 'admin-down') {
        this.log(`${name}: the peer stopped BFD administratively; the BGP session is left alone`);
        return;
      }
      s.session.bfdDown(c.remoteControlPlaneIndependent, !spec.multihop);
    });
    s.bfd = { watch, key: bfdKey(spec) };
  }

  private open(peer: BGPPeer, snapshot: ClusterSnapshot): BgpSession {
    const name = peer.meta.name;
    const addresses = internalAddresses(snapshot, this.deps.node);
    const v4 = addresses.find((a) => a.family === 4);
    const v6 = addresses.find((a) => a.family === 6);
    const routerId = peer.routerID ?? v4;
    if (routerId === undefined)
      throw new Error(
        `node ${this.deps.node} has no IPv4 InternalIP for a BGP router id; set routerID on BGPPeer ${name}`,
      );
    const config: SessionConfig = {
      localAs: peer.myASN,
      peerAs: peer.peerASN ?? peer.dynamicASN ?? 'external',
      routerId,
      ...peerTimers(peer),
      connectRetrySec:
        peer.connectTimeMs === undefined
          ? DEFAULT_CONNECT_SEC
          : Math.max(1, Math.round(peer.connectTimeMs / 1000)),
      passive: false,
      families: families(peer),
      ...(peer.enableGracefulRestart && {
        gracefulRestart: { restartTimeSec: RESTART_TIME_SEC, restarting: this.deps.restarting },
      }),
    };
    return new BgpSession({
      name,
      config,
      peer: peer.peerAddress,
      port: peer.peerPort,
      ...(peer.sourceAddress !== undefined && { localAddress: peer.sourceAddress }),
      // Directly connected eBGP neighbours are one hop away; multihop and iBGP may be anywhere.
      ttl: isDirectEbgp(peer) ? 1 : 255,
      ...(peer.password !== undefined && { md5Password: peer.password }),
      connectTimeoutMs: 5000,
      maxPrefixes: this.deps.maxPrefixes ?? DEFAULT_MAX_PREFIXES,
      nextHops: {
        ...(v4 !== undefined && { v4 }),
        ...(v6 !== undefined && { v6 }),
      },
      clock: this.deps.clock,
      random: this.deps.random.fork(),
      connector: this.deps.connector,
      log: (e) => {
        this.deps.log({ atMs: this.deps.clock.now(), kind: 'bgp', message: `${name}: ${describe(e)}` });
        if (e.kind === 'established' || e.kind === 'down') this.changed();
      },
    });
  }

  private log(message: string): void {
    this.deps.log({ atMs: this.deps.clock.now(), kind: 'bgp', message });
  }
}

interface PeerSession {
  peer: BGPPeer;
  session: BgpSession;
  /** What, if changed, needs a new BGP session (sessionKey). */
  key: string;
  bfd?: { watch: BfdWatch; key: string };
}

function profileTimers(p: BFDProfile): Omit<BfdSessionSpec, 'localAddress' | 'peerAddress' | 'multihop'> {
  return {
    receiveIntervalMs: p.receiveIntervalMs,
    transmitIntervalMs: p.transmitIntervalMs,
    detectMultiplier: p.detectMultiplier,
    passive: p.passiveMode,
    ...(p.auth && { auth: { type: p.auth.type, keyId: p.auth.keyId, key: p.auth.key } }),
  };
}

const bfdKey = (spec: BfdSessionSpec) =>
  JSON.stringify({ ...spec, auth: spec.auth && { ...spec.auth, key: [...spec.auth.key] } });

/**
 * The peer's own address family, plus the other one when MetalLB's dualStackAddressFamily asks for it
 * (MetalLB ≥ 0.14 defaults to one family per session; the deprecated disableMP changes nothing then).
 */
function families(peer: BGPPeer): AfiSafi[] {
  const own = peer.peerAddress.family === 4 ? AFI_IPV4 : AFI_IPV6;
  const other = own === AFI_IPV4 ? AFI_IPV6 : AFI_IPV4;
  return [
    { afi: own, safi: SAFI_UNICAST },
    ...(peer.dualStackAddressFamily ? [{ afi: other, safi: SAFI_UNICAST }] : []),
  ];
}

/** What, if changed, needs a new session (everything but the advertisements). */
function sessionKey(p: BGPPeer): string {
  const { meta: _meta, nodeSelectors: _selectors, ...rest } = p;
  return JSON.stringify(rest, (_k, v: unknown) => (v instanceof IpAddress ? v.toString() : v));
}

function describe(e: SessionEvent): string {
  switch (e.kind) {
    case 'transition':
      return `${e.from} → ${e.to} (${e.reason})`;
    case 'established':
      return `established: AS ${e.negotiated.peerAs}, hold ${e.negotiated.holdTimeSec} s, families ${e.negotiated.families.map((f) => `${f.afi}/${f.safi}`).join(' ')}${e.negotiated.peerGracefulRestart ? ', graceful restart' : ''}`;
    case 'down':
      return `down: ${e.reason}`;
    case 'routes':
      return `advertised ${e.sent}, withdrew ${e.withdrawn}`;
    case 'received':
      return `holding ${e.held} received routes (${e.stale} stale)`;
    case 'note':
      return e.message;
  }
}
