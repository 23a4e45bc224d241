/**
 * Neighbour table parameters, with Linux's defaults (net.ipv4.neigh.default.* and net.ipv6.neigh.default.*,
 * Documentation/networking/ip-sysctl.rst; arp_tbl in net/ipv4/arp.c, nd_tbl in net/ipv6/ndisc.c). For IPv6
 * they are RFC 4861 §10's constants: REACHABLE_TIME 30 s, RETRANS_TIMER 1 s, DELAY_FIRST_PROBE_TIME 5 s,
 * MAX_MULTICAST_SOLICIT 3, MAX_UNICAST_SOLICIT 3, random factor 0.5–1.5.
 */
export interface NeighbourParams {
  /** base_reachable_time; each table's reachable_time is drawn from 0.5–1.5 × this, again every 300 s. */
  readonly baseReachableTimeMs: number;
  /** delay_first_probe_time: how long a DELAY entry waits for confirmation before probing. */
  readonly delayFirstProbeTimeMs: number;
  /** retrans_time: the interval between solicitations. */
  readonly retransTimeMs: number;
  /** ucast_solicit: unicast probes in PROBE before FAILED. */
  readonly ucastSolicit: number;
  /** mcast_solicit: broadcast (ARP) or multicast (NS) solicitations in INCOMPLETE before FAILED. */
  readonly mcastSolicit: number;
  /** mcast_resolicit: broadcast/multicast probes after the unicast ones in PROBE. */
  readonly mcastResolicit: number;
  /** unres_qlen: packets held per entry while it resolves (the default derived from unres_qlen_bytes). */
  readonly unresQlen: number;
  /** locktime (ARP only): a non-gratuitous ARP does not replace an address updated less than this ago. */
  readonly locktimeMs: number;
  /** gc_thresh1: below this many entries the periodic garbage collection leaves the table alone. */
  readonly gcThresh1: number;
  /** gc_stale_time: an unused entry not in a timer state older than this is collected. */
  readonly gcStaleTimeMs: number;
}

export const LINUX_NEIGHBOUR_DEFAULTS: NeighbourParams = {
  baseReachableTimeMs: 30_000,
  delayFirstProbeTimeMs: 5_000,
  retransTimeMs: 1_000,
  ucastSolicit: 3,
  mcastSolicit: 3,
  mcastResolicit: 0,
  unresQlen: 101,
  locktimeMs: 1_000,
  gcThresh1: 128,
  gcStaleTimeMs: 60_000,
};
