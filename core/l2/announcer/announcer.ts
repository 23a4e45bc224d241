import { type IpAddress, MacAddress } from '../../net/index.ts';
import { type Clock, type FramePort, NamedTimers } from '../../runtime/index.ts';
import {
  type ArpFrame,
  type Frame,
  type NeighborSolicitationFrame,
  type OtherFrame,
  WireError,
  arpReply,
  decodeFrame,
  encodeFrame,
  solicitedNeighborAdvertisement,
} from '../wire/index.ts';
import { AddressCounters, type AddressCounts } from './address-counters.ts';
import { BurstSchedule } from './burst-schedule.ts';
import { type AnnouncerCounters, emptyCounters } from './counters.ts';
import { AnnouncerClosedError, AnnouncerConfigError, UnknownInterfaceError } from './errors.ts';
import type { AnnouncerEvent, AnnouncerListener } from './events.ts';
import { claimIn, gratuitousFrames } from './frames.ts';
import { type AnnouncerOptions, type ResolvedOptions, resolveOptions } from './options.ts';
import {
  type OwnedVip,
  type Ownership,
  type OwnershipChange,
  diffOwnership,
  ownershipOf,
} from './ownership.ts';

/**
 * Answers ARP and NDP for the service addresses this node owns, one instance per node over one FramePort
 * per interface (MetalLB's internal/layer2 Announce with its ARP and NDP responders). The speaker tells it
 * what it owns after every election; it announces takeovers at once and in a short burst, answers
 * requests only where it owns the address, and reports anyone else claiming what it owns. Time comes from
 * the injected Clock, so it runs unchanged in virtual time.
 */
export class L2Announcer {
  private readonly ports: ReadonlyMap<string, FramePort>;
  private readonly options: ResolvedOptions;
  private readonly timers: NamedTimers;
  private readonly listeners = new Set<AnnouncerListener>();
  private readonly detach: (() => void)[];
  private readonly counters = emptyCounters();
  private readonly byAddress: AddressCounters;
  private owned: Ownership = new Map();
  private closed = false;
  /**
   * What a change of ownership still has to do, oldest first: report a release, or announce a takeover
   * (or a re-announcement) and report it. Thousands of addresses changing at once are worked off
   * PER_TURN at a time, one batch per turn of the event loop, so whatever else runs on it (membership,
   * answering requests) waits a few milliseconds, not a hundred. The ownership table itself changes at
   * once: requests are answered, or no longer, from the moment setOwned returns.
   */
  private readonly pending: Pending[] = [];
  private readonly bursts: BurstSchedule;
  /** When the timer that works off due burst steps fires, if it is armed. */
  private burstTimerDueMs: number | undefined;

  constructor(
    private readonly clock: Clock,
    ports: readonly FramePort[],
    options: AnnouncerOptions = {},
  ) {
    this.options = resolveOptions(options);
    const byName = new Map<string, FramePort>();
    for (const port of ports) {
      if (byName.has(port.name))
        throw new AnnouncerConfigError(`two ports are named ${JSON.stringify(port.name)}`);
      byName.set(port.name, port);
    }
    this.ports = byName;
    this.timers = new NamedTimers(clock, `${this.options.name} `);
    this.bursts = new BurstSchedule(this.options.burstOffsetsMs);
    this.byAddress = new AddressCounters(() => clock.now());
    this.detach = ports.map((port) => port.onFrame((bytes) => this.receive(port, bytes)));
  }

  /** Calls `listener` with every event from now on; returns the function that stops it. */
  onEvent(listener: AnnouncerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Makes `vips` exactly what this node answers for. Addresses or interfaces no longer listed stop being
   * answered at once (released); new ones are announced at once and then in a burst (took-over);
   * unchanged ones are left alone. Throws UnknownInterfaceError, changing nothing, for an interface
   * without a port.
   */
  setOwned(vips: readonly OwnedVip[], reason: string): void {
    this.checkOpen();
    for (const { interfaces } of vips) {
      for (const name of interfaces) {
        if (!this.ports.has(name)) throw new UnknownInterfaceError(name, [...this.ports.keys()]);
      }
    }
    const next = ownershipOf(vips);
    const { gained, lost } = diffOwnership(this.owned, next);
    this.owned = next;
    for (const { vip, interfaces } of lost) for (const name of interfaces) this.bursts.stop(vip, name);
    this.keepRefreshing();
    for (const { vip } of gained) this.byAddress.owned(vip.toString());
    for (const { vip } of lost) {
      const key = vip.toString();
      if (!next.has(key)) this.byAddress.released(key);
    }
    this.counters.ownershipChanges += lost.length + gained.length;
    for (const change of lost) this.pending.push({ kind: 'released', change, reason });
    for (const change of gained) this.pending.push({ kind: 'took-over', change, reason });
    this.workOff();
    this.armBurst();
  }

  /**
   * Announces everything owned again, at once and in a new burst: after a partition heals, the neighbours
   * may have learnt another node's MAC for an address this node won.
   */
  reannounce(reason: string): void {
    this.checkOpen();
    const vips = [...this.owned.values()];
    if (vips.length === 0) return;
    for (const { vip, interfaces } of vips)
      this.pending.push({ kind: 'announce', change: { vip, interfaces: [...interfaces] } });
    this.workOff();
    const sorted = vips.map((v) => v.vip).sort((a, b) => a.compare(b));
    this.emit({ kind: 'reannounced', vips: sorted, atMs: this.clock.now(), reason });
  }

  /** What this node answers for now, by address. */
  ownership(): OwnedVip[] {
    return [...this.owned.values()]
      .map(({ vip, interfaces }) => ({ ip: vip, interfaces: [...interfaces].sort() }))
      .sort((a, b) => a.ip.compare(b.ip));
  }

  /** A copy of the counters. */
  stats(): AnnouncerCounters {
    return { ...this.counters, undecodableByReason: { ...this.counters.undecodableByReason } };
  }

  /** Requests, responses and gratuitous frames per owned (or lately released) address: see AddressCounters. */
  addressCounts(): AddressCounts {
    return this.byAddress.snapshot();
  }

  /** Releases everything (with `reason`), stops the timers and stops listening. The ports stay open. */
  close(reason: string): void {
    if (this.closed) return;
    this.setOwned([], reason);
    // Every release is reported before the announcer goes quiet.
    this.timers.disarm('work');
    this.workOff(Infinity);
    this.timers.disarmAll();
    for (const stop of this.detach) stop();
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new AnnouncerClosedError('the announcer is closed');
  }

  /** Does the next `limit` pending items now and leaves the rest for later turns of the loop. */
  private workOff(limit = PER_TURN): void {
    if (this.timers.isArmed('work')) return;
    const atMs = this.clock.now();
    for (const p of this.pending.splice(0, limit)) {
      const { vip, interfaces } = p.change;
      if (p.kind !== 'released') {
        // Gratuitous frames now, then the burst; sendGratuitous skips what is no longer owned by now.
        for (const name of interfaces) {
          this.sendGratuitous(vip, name);
          this.bursts.start(vip, name, atMs);
        }
      }
      if (p.kind !== 'announce') this.emit({ kind: p.kind, vip, interfaces, atMs, reason: p.reason });
    }
    this.armBurst();
    if (this.pending.length > 0) this.timers.arm('work', 0, () => this.workOff());
  }

  /** Sends the next PER_TURN burst steps that are due, leaving later ones to later turns of the loop. */
  private burstOff(): void {
    this.burstTimerDueMs = undefined;
    const now = this.clock.now();
    for (let n = 0; n < PER_TURN; n++) {
      const step = this.bursts.takeDue(now);
      if (step === undefined) break;
      this.sendGratuitous(step.vip, step.name);
    }
    this.armBurst();
  }

  /** Arms the burst timer for the earliest step due, or disarms it when no burst is under way. */
  private armBurst(): void {
    const due = this.bursts.nextDueMs();
    if (due === undefined) {
      this.timers.disarm('burst');
      this.burstTimerDueMs = undefined;
    } else if (this.burstTimerDueMs === undefined || due < this.burstTimerDueMs) {
      this.burstTimerDueMs = due;
      this.timers.arm('burst', Math.max(0, due - this.clock.now()), () => this.burstOff());
    }
  }

  private keepRefreshing(): void {
    const every = this.options.refreshIntervalMs;
    if (every === undefined) return;
    if (this.owned.size === 0) this.timers.disarm('refresh');
    else if (!this.timers.isArmed('refresh')) {
      this.timers.arm('refresh', every, () => {
        for (const { vip, interfaces } of this.owned.values()) {
          for (const name of interfaces) this.sendGratuitous(vip, name);
        }
        this.keepRefreshing();
      });
    }
  }

  private sendGratuitous(vip: IpAddress, name: string): void {
    const port = this.ports.get(name);
    const key = vip.toString();
    if (port === undefined || !this.ownsOn(key, name)) return;
    for (const frame of gratuitousFrames(vip, port.mac)) {
      if (!this.send(port, frame)) continue;
      this.counters.gratuitousSent++;
      this.byAddress.gratuitous(key);
    }
  }

  private receive(port: FramePort, bytes: Uint8Array): void {
    let frame: Frame;
    try {
      frame = decodeFrame(bytes);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      this.counters.undecodable++;
      const byReason = this.counters.undecodableByReason;
      byReason[e.reason] = (byReason[e.reason] ?? 0) + 1;
      return;
    }
    // FramePort drops what the port itself sent, not what this node's other ports sent on the same segment.
    if (this.isOwnMac(frame.ethernet.src)) return;
    if (frame.kind === 'other') return;
    this.checkConflict(port, frame);
    if (frame.kind === 'arp') this.answerArp(port, frame);
    else if (frame.kind === 'ns') this.answerNs(port, frame);
  }

  private answerArp(port: FramePort, frame: ArpFrame): void {
    const { arp, ethernet } = frame;
    // An announcement (sender IP = target IP) tells, it does not ask; checkConflict has looked at it.
    if (arp.op !== 'request' || arp.senderIp.equals(arp.targetIp)) return;
    // As MetalLB: only requests broadcast or sent to this interface are ours to answer.
    if (!ethernet.dst.equals(MacAddress.broadcast) && !ethernet.dst.equals(port.mac)) return;
    const key = arp.targetIp.toString();
    if (!this.ownsOn(key, port.name)) {
      this.counters.arpRequestsNotOwned++;
      return;
    }
    this.counters.arpRequestsOwned++;
    this.byAddress.request(key);
    if (this.send(port, arpReply(frame, port.mac))) this.answered(key);
  }

  private answerNs(port: FramePort, frame: NeighborSolicitationFrame): void {
    const dst = frame.ethernet.dst;
    // Resolution goes to the solicited-node group (multicast), reachability probes to this interface.
    if (!dst.isMulticast && !dst.equals(port.mac)) return;
    const key = frame.ns.target.toString();
    if (!this.ownsOn(key, port.name)) {
      this.counters.nsRequestsNotOwned++;
      return;
    }
    this.counters.nsRequestsOwned++;
    this.byAddress.request(key);
    // Duplicate Address Detection for an owned address (source ::) is answered too: the multicast NA the
    // helper builds for it (RFC 4861 §7.2.4) defends the address.
    const answer = solicitedNeighborAdvertisement({ solicitation: frame, mac: port.mac });
    if (this.send(port, answer)) this.answered(key);
  }

  private answered(key: string): void {
    this.counters.responsesSent++;
    this.byAddress.response(key);
  }

  private checkConflict(port: FramePort, frame: Exclude<Frame, OtherFrame>): void {
    const claim = claimIn(frame);
    if (claim === undefined || this.isOwnMac(claim.mac) || !this.ownsOn(claim.ip.toString(), port.name))
      return;
    this.counters.conflicts++;
    this.emit({
      kind: 'conflict',
      vip: claim.ip,
      interface: port.name,
      otherMac: claim.mac,
      atMs: this.clock.now(),
      reason: `${describe(frame)} from ${claim.mac} claims ${claim.ip}, owned here on ${port.name}`,
    });
  }

  /** Sends one frame; a port that fails (interface gone down) is counted and the others still get theirs. */
  private send(port: FramePort, frame: Frame): boolean {
    const bytes = encodeFrame(frame);
    try {
      port.send(bytes);
      return true;
    } catch {
      this.counters.sendErrors++;
      return false;
    }
  }

  /** Whether the address with text `key` is owned on interface `name`. */
  private ownsOn(key: string, name: string): boolean {
    return this.owned.get(key)?.interfaces.has(name) ?? false;
  }

  private isOwnMac(mac: MacAddress): boolean {
    for (const port of this.ports.values()) if (port.mac.equals(mac)) return true;
    return false;
  }

  private emit(event: AnnouncerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/**
 * Ownership changes (or due burst steps) worked off per turn of the event loop. Each costs frames and an
 * event: on a slow, loaded machine 0.15–0.6 ms, so 256 a turn blocked the liveness thread for 35–146 ms,
 * and with the rest of a 10,000-Service burst long enough for peers to declare the node dead; 32 keeps a
 * turn short.
 */
const PER_TURN = 32;

type Pending =
  | { kind: 'released' | 'took-over'; change: OwnershipChange; reason: string }
  | { kind: 'announce'; change: OwnershipChange };

function describe(frame: Exclude<Frame, OtherFrame>): string {
  switch (frame.kind) {
    case 'arp':
      if (frame.arp.senderIp.equals(frame.arp.targetIp)) return `gratuitous ARP ${frame.arp.op}`;
      return `ARP ${frame.arp.op}`;
    case 'na':
      return 'neighbour advertisement';
    case 'ns':
      return 'neighbour solicitation';
  }
}
