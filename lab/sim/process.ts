import type { Clock, Timer } from '../../core/runtime/clock.ts';
import type { DatagramPort, FramePort } from '../../core/runtime/ports.ts';
import type { SimContext } from './context.ts';
import type { Closeable, Gate } from './gate.ts';
import type { Host } from './host.ts';
import { ProcessClock } from './process-clock.ts';
import { EchoServer } from './probes.ts';
import type { FrameFilter } from './raw-port.ts';
import type { SimStream } from './tcp-stream.ts';

export type ProcessState = 'running' | 'frozen' | 'killed';

/**
 * Datagrams or frames a frozen process's socket holds before it drops more: roughly what the default
 * receive buffer (net.core.rmem_default, 208 KiB) holds of small datagrams, counted per socket.
 */
const RECEIVE_QUEUE_LIMIT = 256;

/**
 * Code running "as a process" on a host: it gets its clock and its sockets from here, so the lab can stop
 * it like SIGSTOP and end it like SIGKILL while the host's kernel (ARP, NDP, other sockets) keeps going.
 *
 * Frozen: its timers do not fire and deliveries to its sockets queue (up to a socket-buffer's worth each);
 * it sends nothing. Resumed: the overdue timers fire first, late and in due order, then the queued
 * deliveries in arrival order, as a Node process's event loop would (timers phase before poll phase).
 * Killed: every timer is cancelled, every socket closed (TCP connections as the kernel closes a dead
 * process's: see SimStream.abort), queued deliveries dropped, then `onKill` hooks run.
 */
export class SimProcess implements Gate {
  readonly clock: Clock;
  private readonly timers: ProcessClock;
  private current: ProcessState = 'running';
  /** Its event loop is running one long task (stall): like frozen for what it runs, but its own affair. */
  private busy = false;
  private busyTimer: Timer | undefined;
  /** Threads of this process (thread()): they share its fate (freeze, resume, kill), not its stalls. */
  private readonly threads: SimProcess[] = [];
  private inbox: { source: object; deliver: () => void }[] = [];
  private readonly queued = new Map<object, number>();
  private readonly owned = new Set<Closeable>();
  private readonly killHooks = new Set<() => void>();

  constructor(
    readonly host: Host,
    readonly name: string,
    private readonly ctx: SimContext,
  ) {
    this.timers = new ProcessClock(ctx.clock, () => this.current === 'frozen' || this.busy);
    this.clock = this.timers;
    this.trace('started');
  }

  get state(): ProcessState {
    return this.current;
  }

  /** A UDP socket owned by this process (see Host.udp). */
  udp(address: string, port: number): DatagramPort {
    return this.host.bindUdp(address, port, this);
  }

  /** A packet socket on `ifname` owned by this process (see Host.rawPort). */
  rawPort(ifname: string, filter?: FrameFilter): FramePort {
    return this.host.openRawPort(ifname, this, filter);
  }

  /**
   * A TCP listener owned by this process on `port` of `address` (default: every local address of both
   * families). It accepts from any peer; `onAccept` runs as the process runs (after resume, if frozen).
   */
  tcpListen(port: number, onAccept: (conn: SimStream) => void, address?: string): { close(): void } {
    return this.host.listenTcp(this, port, onAccept, address);
  }

  /**
   * A TCP connection owned by this process (see SimStream). Rejects with SimConnectionRefusedError when
   * the peer resets the SYN, SimConnectTimeoutError after `timeoutMs` (the SYN is retransmitted at 1, 2,
   * 4 … s meanwhile), SimNetworkUnreachableError when no route leads to `remote`. `ttl` (default 64) is
   * the TTL / hop limit of every packet sent; receivers do not check it.
   */
  tcpConnect(o: {
    remote: string;
    port: number;
    local?: string;
    timeoutMs: number;
    ttl?: number;
  }): Promise<SimStream> {
    return this.host.connectTcp(this, o);
  }

  /** An echo server run by this process, on every local address of both families. */
  echoServer(port: number, name: string): EchoServer {
    return new EchoServer([this.udp('0.0.0.0', port), this.udp('::', port)], name);
  }

  /**
   * A thread of this process: its own event loop (clock, sockets), so one of them can be busy while the
   * others run, as a Node worker thread is; SIGSTOP, SIGCONT and SIGKILL act on every thread at once.
   */
  thread(name: string): SimProcess {
    const t = new SimProcess(this.host, `${this.name}/${name}`, this.ctx);
    this.threads.push(t);
    if (this.current === 'frozen') t.freeze();
    if (this.current === 'killed') t.kill();
    return t;
  }

  /**
   * Runs `task` as this process would handle an outside event (a file it watches changed, a signal):
   * now if running, after resume if frozen (in order with its queued deliveries), never if killed.
   */
  run(task: () => void): void {
    if (this.runsNow) task();
    else if (this.current !== 'killed') this.inbox.push({ source: this, deliver: task });
  }

  freeze(): void {
    for (const t of this.threads) t.freeze();
    if (this.current !== 'running') return;
    this.current = 'frozen';
    this.trace('frozen');
  }

  resume(): void {
    for (const t of this.threads) t.resume();
    if (this.current !== 'frozen') return;
    this.current = 'running';
    this.trace('resumed');
    this.catchUp();
  }

  /**
   * Its event loop is busy for `ms` (a long computation): its timers and deliveries wait, it sends nothing,
   * and afterwards it catches up as after a resume. Other threads and the host run on. A new stall replaces
   * one under way.
   */
  stall(ms: number): void {
    if (this.current === 'killed') return;
    this.busyTimer?.cancel();
    this.busy = true;
    this.trace('stalled');
    this.busyTimer = this.ctx.clock.setTimer(`${this.name}: stall`, ms, () => {
      this.busy = false;
      this.busyTimer = undefined;
      this.trace('unstalled');
      if (this.current === 'running') this.catchUp();
    });
  }

  kill(): void {
    for (const t of this.threads) t.kill();
    if (this.current === 'killed') return;
    this.current = 'killed';
    this.busyTimer?.cancel();
    this.timers.killAll();
    this.inbox = [];
    this.queued.clear();
    for (const port of [...this.owned]) {
      if (port.abort !== undefined) port.abort();
      else port.close();
    }
    this.trace('killed');
    for (const hook of this.killHooks) hook();
  }

  /** Calls `hook` when the process is killed; returns the function that removes it. */
  onKill(hook: () => void): () => void {
    this.killHooks.add(hook);
    return () => this.killHooks.delete(hook);
  }

  /** @internal */
  get canSend(): boolean {
    return this.runsNow;
  }

  /** @internal */
  admit(source: object, deliver: () => void): void {
    if (this.runsNow) return deliver();
    if (this.current === 'killed') return;
    const n = this.queued.get(source) ?? 0;
    if (n >= RECEIVE_QUEUE_LIMIT) return this.trace('delivery-dropped');
    this.queued.set(source, n + 1);
    this.inbox.push({ source, deliver });
  }

  /** @internal */
  adopt(port: Closeable): void {
    this.owned.add(port);
  }

  /** @internal */
  disown(port: Closeable): void {
    this.owned.delete(port);
  }

  private get runsNow(): boolean {
    return this.current === 'running' && !this.busy;
  }

  /** After a resume or a stall: the overdue timers first, then the queued deliveries, as a Node loop does. */
  private catchUp(): void {
    if (!this.runsNow) return;
    this.timers.fireOverdue();
    const waiting = this.inbox;
    this.inbox = [];
    for (let i = 0; i < waiting.length; i++) {
      if (!this.runsNow) {
        // Frozen, stalled or killed again by what just ran: the rest waits (or is dropped by the kill).
        if (this.current !== 'killed') this.inbox = waiting.slice(i).concat(this.inbox);
        return;
      }
      const item = waiting[i]!;
      this.uncount(item.source);
      item.deliver();
    }
  }

  private uncount(source: object): void {
    const n = this.queued.get(source);
    if (n !== undefined) this.queued.set(source, n - 1);
  }

  private trace(
    action: 'started' | 'frozen' | 'resumed' | 'stalled' | 'unstalled' | 'killed' | 'delivery-dropped',
  ): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active)
      tracer.emit({ kind: 'process', atMs: clock.now(), host: this.host.name, process: this.name, action });
  }
}
