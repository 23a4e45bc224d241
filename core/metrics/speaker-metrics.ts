/**
 * Every metric `lblab speaker` exposes, in one place: MetalLB's, with its names, types, help texts and
 * labels (speaker/main.go, internal/layer2/stats.go, internal/bgp/native/stats.go, FRR mode's BFD
 * collector), so a MetalLB user's dashboards and alerts keep working; and lblab's own under `lblab_`
 * (membership, the liveness thread, main-loop stalls, BFD transitions, Layer-2 ownership changes).
 *
 * Values are read from the speaker's parts when /metrics is scraped, not pushed on every change: the
 * liveness thread and the BFD thread are asked once per scrape, and nothing runs between scrapes.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BfdStatsSource } from '../speaker/bfd-watcher.ts';
import type { BgpSpeaker } from '../speaker/bgp-speaker.ts';
import type { L2Speaker } from '../speaker/l2-speaker.ts';
import type { LivenessClient, LivenessStats } from '../speaker/liveness/index.ts';
import type { Clock } from '../runtime/clock.ts';
import { K8sClientMetrics } from './k8s-client-metrics.ts';
import { renderInSlices } from './render.ts';
import { definer, replaceSeries, replaceSeriesInSlices, type Exposition, type Row } from './series.ts';

/** How long a scrape waits for another thread's counters before it shows the last ones it had. */
export const THREAD_ANSWER_MS = 1000;

/** lblab runs every BGP and BFD session in the default VRF; FRR-mode MetalLB labels BFD with the VRF. */
const VRF = 'default';

export interface SpeakerMetricsSources {
  /** This node's name: the `node` label of metallb_speaker_announced. */
  node: string;
  clock: Clock;
  l2?: Pick<L2Speaker, 'owned' | 'ownershipCounts'>;
  liveness?: Pick<LivenessClient, 'stats'>;
  bgp?: Pick<BgpSpeaker, 'peerStats' | 'announced'>;
  bfd?: BfdStatsSource;
}

export class SpeakerMetrics implements Exposition {
  readonly registry = new Registry();
  /** Fed by the speaker's loop: cluster updates processed, configuration (re)loads. */
  readonly k8sClient = new K8sClientMetrics(this.registry);
  private readonly define = definer(this.registry);

  private readonly announced = this.define.gauge(
    'metallb_speaker_announced',
    'Services being announced from this node. This is desired state, it does not guarantee that the routing protocols have converged.',
    ['service', 'protocol', 'node', 'ip'],
  );
  private readonly l2Requests = this.define.counter(
    'metallb_layer2_requests_received',
    'Number of layer2 requests received for owned IPs',
    ['ip'],
  );
  private readonly l2Responses = this.define.counter(
    'metallb_layer2_responses_sent',
    'Number of layer2 responses sent for owned IPs in response to requests',
    ['ip'],
  );
  private readonly l2Gratuitous = this.define.counter(
    'metallb_layer2_gratuitous_sent',
    'Number of gratuitous layer2 packets sent for owned IPs as a result of failovers',
    ['ip'],
  );
  private readonly bgpUp = this.define.gauge(
    'metallb_bgp_session_up',
    'BGP session state (1 is up, 0 is down)',
    ['peer'],
  );
  private readonly bgpUpdates = this.define.counter(
    'metallb_bgp_updates_total',
    'Number of BGP UPDATE messages sent',
    ['peer'],
  );
  private readonly bgpAnnounced = this.define.gauge(
    'metallb_bgp_announced_prefixes_total',
    'Number of prefixes currently being advertised on the BGP session',
    ['peer'],
  );
  private readonly bgpPending = this.define.gauge(
    'metallb_bgp_pending_prefixes_total',
    'Number of prefixes that should be advertised on the BGP session',
    ['peer'],
  );
  private readonly bfdUp = this.define.gauge(
    'metallb_bfd_session_up',
    'BFD session state (1 is up, 0 is down)',
    ['peer', 'vrf'],
  );
  private readonly bfdControlIn = this.define.counter(
    'metallb_bfd_control_packet_input',
    'Number of received BFD control packets',
    ['peer', 'vrf'],
  );
  private readonly bfdControlOut = this.define.counter(
    'metallb_bfd_control_packet_output',
    'Number of sent BFD control packets',
    ['peer', 'vrf'],
  );
  private readonly bfdEchoIn = this.define.counter(
    'metallb_bfd_echo_packet_input',
    'Number of received BFD echo packets',
    ['peer', 'vrf'],
  );
  private readonly bfdEchoOut = this.define.counter(
    'metallb_bfd_echo_packet_output',
    'Number of sent BFD echo packets',
    ['peer', 'vrf'],
  );
  private readonly bfdUpEvents = this.define.counter(
    'metallb_bfd_session_up_events',
    'Number of BFD session up events',
    ['peer', 'vrf'],
  );
  private readonly bfdDownEvents = this.define.counter(
    'metallb_bfd_session_down_events',
    'Number of BFD session down events',
    ['peer', 'vrf'],
  );

  private readonly bfdTransitions = this.define.counter(
    'lblab_bfd_transitions_total',
    'BFD session state changes, by the state left and the state entered',
    ['peer', 'from', 'to'],
  );
  private readonly members = this.define.gauge(
    'lblab_membership_members',
    "Speakers in this node's membership view (itself included), by state",
    ['state'],
  );
  private readonly detections = this.define.counter(
    'lblab_membership_detections_total',
    'Speakers this node learned had gone, by how: heartbeats stopped (silence), it said goodbye (left), or it left the cluster node list (removed)',
    ['kind'],
  );
  private readonly refutations = this.define.counter(
    'lblab_membership_refutations_total',
    'Times this node contradicted a rumour of its own death',
  );
  private readonly sent = this.define.counter(
    'lblab_membership_datagrams_sent_total',
    'Membership datagrams sent',
  );
  private readonly received = this.define.counter(
    'lblab_membership_datagrams_received_total',
    'Membership datagrams received, refused ones included',
  );
  private readonly refused = this.define.counter(
    'lblab_membership_datagrams_refused_total',
    'Membership datagrams refused before they were believed, by reason: malformed, foreign (a sender not in the cluster), unauthenticated, forged, replayed',
    ['reason'],
  );
  private readonly synced = this.define.gauge(
    'lblab_membership_synced',
    '1 once membership has heard from the cluster (elections wait for it)',
  );
  private readonly vouchingLost = this.define.counter(
    'lblab_liveness_vouching_lost_total',
    'Times the liveness thread stopped vouching for this node because its main event loop had not run for --main-loop-timeout-ms (its addresses moved to other nodes until the loop ran again)',
  );
  private readonly conflicts = this.define.counter(
    'lblab_l2_conflicts_total',
    'ARP/NDP frames from another MAC claiming an address this node answers for',
  );
  private readonly sendErrors = this.define.counter(
    'lblab_l2_send_errors_total',
    'ARP/NDP frames an interface refused to send',
  );
  private readonly ownership = this.define.counter(
    'lblab_l2_ownership_changes_total',
    'Services whose Layer-2 owner became (gained) or stopped being (lost) this node, by the cause of the election: node-dead is a failover',
    ['change', 'reason'],
  );
  private readonly stalls = new Histogram({
    name: 'lblab_main_loop_stall_seconds',
    help: 'Turns of the main event loop that ran 100 ms or more late, by how late (the _count is the number of stalls)',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });

  /** What metallb_speaker_announced was last made of (the speakers hand out the same arrays until a change). */
  private announcedFrom: [unknown, unknown] = [null, null];

  constructor(private readonly sources: SpeakerMetricsSources) {}

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The main event loop ran `stalledMs` late (the speaker's loop-stall watch reports it). */
  mainLoopStalled(stalledMs: number): void {
    this.stalls.observe(stalledMs / 1000);
  }

  /**
   * Brings every family up to date and renders it a slice per turn of the event loop: at 10,000 services
   * the whole exposition (40,000 series, 2.6 MB) taken at once held the speaker's main loop for 120 to
   * 350 ms, and one family of 10,000 series rendered by prom-client for 50 to 120 ms.
   */
  async text(): Promise<string> {
    const { liveness, bfd } = this.sources;
    const [live, bfdSessions] = await Promise.all([
      liveness && this.within(liveness.stats()),
      bfd && this.within(bfd.stats()),
    ]);
    await this.refreshAnnounced();
    if (live !== undefined) await this.refreshLiveness(live);
    this.refreshL2Ownership();
    this.refreshBgp();
    if (bfdSessions !== undefined) this.refreshBfd(bfdSessions);
    await this.nextTurn();
    const families: string[] = [];
    for (const metric of this.registry.getMetricsAsArray()) {
      families.push(
        metric instanceof Counter || metric instanceof Gauge
          ? await renderInSlices(metric, () => this.nextTurn())
          : await this.registry.getSingleMetricAsString(metric.name),
      );
      await this.nextTurn();
    }
    // As Registry.metrics() joins them.
    return `${families.join('\n\n')}\n`;
  }

  /** Skipped while neither the election nor the BGP advertisements changed: 10,000 series cost ~40 ms. */
  private async refreshAnnounced(): Promise<void> {
    const { node, l2, bgp } = this.sources;
    const owned = l2?.owned();
    const advertised = bgp?.announced();
    if (owned === this.announcedFrom[0] && advertised === this.announcedFrom[1]) return;
    this.announcedFrom = [owned, advertised];
    const rows: Row<'service' | 'protocol' | 'node' | 'ip'>[] = [];
    for (const a of owned ?? [])
      for (const ip of a.ips) rows.push([{ service: a.service, protocol: 'layer2', node, ip: `${ip}` }, 1]);
    for (const a of advertised ?? [])
      rows.push([{ service: a.service, protocol: 'bgp', node, ip: `${a.ip}` }, 1]);
    await replaceSeriesInSlices(this.announced, rows, () => this.nextTurn());
  }

  private async refreshLiveness(s: LivenessStats): Promise<void> {
    const { ips, requests, responses, gratuitous } = s.addresses;
    for (const [metric, values] of [
      [this.l2Requests, requests],
      [this.l2Responses, responses],
      [this.l2Gratuitous, gratuitous],
    ] as const)
      await replaceSeriesInSlices(
        metric,
        ips.map((ip, i) => [{ ip }, values[i]!] as const),
        () => this.nextTurn(),
      );
    replaceSeries(
      this.members,
      Object.entries(s.members).map(([state, n]) => [{ state }, n] as const),
    );
    replaceSeries(
      this.detections,
      Object.entries(s.detections).map(([kind, n]) => [{ kind }, n] as const),
    );
    const m = s.membership;
    replaceSeries(this.refutations, [[{}, m.refutations]]);
    replaceSeries(this.sent, [[{}, m.sent]]);
    replaceSeries(this.received, [[{}, m.received]]);
    replaceSeries(
      this.refused,
      (['malformed', 'foreign', 'unauthenticated', 'forged', 'replayed'] as const).map(
        (reason) => [{ reason }, m[reason]] as const,
      ),
    );
    this.synced.set(s.synced ? 1 : 0);
    replaceSeries(this.vouchingLost, [[{}, s.vouchingLost]]);
    replaceSeries(this.conflicts, [[{}, s.announcer.conflicts]]);
    replaceSeries(this.sendErrors, [[{}, s.announcer.sendErrors]]);
  }

  private refreshL2Ownership(): void {
    const counts = this.sources.l2?.ownershipCounts();
    if (counts === undefined) return;
    const rows: Row<'change' | 'reason'>[] = [];
    for (const change of ['gained', 'lost'] as const)
      for (const [reason, n] of Object.entries(counts[change])) rows.push([{ change, reason }, n]);
    replaceSeries(this.ownership, rows);
  }

  private refreshBgp(): void {
    const peers = this.sources.bgp?.peerStats() ?? [];
    replaceSeries(
      this.bgpUp,
      peers.map((p) => [{ peer: p.peer }, p.up ? 1 : 0] as const),
    );
    replaceSeries(
      this.bgpUpdates,
      peers.map((p) => [{ peer: p.peer }, p.updatesSent] as const),
    );
    replaceSeries(
      this.bgpAnnounced,
      peers.map((p) => [{ peer: p.peer }, p.advertised] as const),
    );
    replaceSeries(
      this.bgpPending,
      peers.map((p) => [{ peer: p.peer }, p.pending] as const),
    );
  }

  private refreshBfd(sessions: Awaited<ReturnType<BfdStatsSource['stats']>>): void {
    const by = (value: (s: (typeof sessions)[number]) => number) =>
      sessions.map((s) => [{ peer: s.peerAddress, vrf: VRF }, value(s)] as const);
    const sum = (s: (typeof sessions)[number], keep: (t: { from: string; to: string }) => boolean) =>
      s.transitions.filter(keep).reduce((n, t) => n + t.count, 0);
    replaceSeries(
      this.bfdUp,
      by((s) => (s.state === 'up' ? 1 : 0)),
    );
    replaceSeries(
      this.bfdControlIn,
      by((s) => s.controlPacketsIn),
    );
    replaceSeries(
      this.bfdControlOut,
      by((s) => s.controlPacketsOut),
    );
    replaceSeries(
      this.bfdEchoIn,
      by((s) => s.echoPacketsIn),
    );
    replaceSeries(
      this.bfdEchoOut,
      by((s) => s.echoPacketsOut),
    );
    replaceSeries(
      this.bfdUpEvents,
      by((s) => sum(s, (t) => t.to === 'up')),
    );
    replaceSeries(
      this.bfdDownEvents,
      by((s) => sum(s, (t) => t.from === 'up')),
    );
    replaceSeries(
      this.bfdTransitions,
      sessions.flatMap((s) =>
        s.transitions.map((t) => [{ peer: s.peerAddress, from: t.from, to: t.to }, t.count] as const),
      ),
    );
  }

  /** Lets whatever else waits on the event loop run (a BGP keepalive, an election step). */
  private nextTurn(): Promise<void> {
    return new Promise((resolve) => this.sources.clock.setTimer('metrics: next family', 0, resolve));
  }

  /** `answer`, or undefined if it has not come within THREAD_ANSWER_MS (the last values stay shown). */
  private within<T>(answer: Promise<T>): Promise<T | undefined> {
    return new Promise((resolve) => {
      const timer = this.sources.clock.setTimer('metrics: waiting for a thread', THREAD_ANSWER_MS, () =>
        resolve(undefined),
      );
      void answer.then((value) => {
        timer.cancel();
        resolve(value);
      });
    });
  }
}
