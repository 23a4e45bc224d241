import type { Clock } from '../../core/runtime/clock.ts';
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
  private inbox: { source: object; deliver: () => void }[] = [];
  private readonly queued = new Map<object, number>();
  private readonly owned = new Set<Closeable>();
  private readonly killHooks = new Set<() => void>();

  constructor(
    readonly host: Host,
    readonly name: string,
    private readonly ctx: SimContext,
  ) {
    this.timers = new ProcessClock(ctx.clock, () => this.current === 'frozen');
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
   * Runs `task` as this process would handle an outside event (a file it watches changed, a signal):
   * now if running, after resume if frozen (in order with its queued deliveries), never if killed.
   */
  run(task: () => void): void {
    if (this.current === 'running') task();
    else if (this.current === 'frozen') this.inbox.push({ source: this, deliver: task });
  }

  freeze(): void {
    if (this.current !== 'running') return;
    this.current = 'frozen';
    this.trace('frozen');
  }

  resume(): void {
    if (this.current !== 'frozen') return;
    this.current = 'running';
    this.trace('resumed');
    this.timers.fireOverdue();
    const waiting = this.inbox;
    this.inbox = [];
    for (let i = 0; i < waiting.length; i++) {
      if (this.current !== 'running') {
        // Frozen or killed again by what just ran: the rest waits (or is dropped by the kill).
        if (this.current === 'frozen') this.inbox = waiting.slice(i).concat(this.inbox);
        return;
      }
      const item = waiting[i]!;
      this.uncount(item.source);
      item.deliver();
    }
  }

  kill(): void {
    if (this.current === 'killed') return;
    this.current = 'killed';
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
    return this.current === 'running';
  }

  /** @internal */
  admit(source: object, deliver: () => void): void {
    if (this.current === 'running') return deliver();
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

  private uncount(source: object): void {
    const n = this.queued.get(source);
    if (n !== undefined) this.queued.set(source, n - 1);
  }

  private trace(action: 'started' | 'frozen' | 'resumed' | 'killed' | 'delivery-dropped'): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active)
      tracer.emit({ kind: 'process', atMs: clock.now(), host: this.host.name, process: this.name, action });
  }
}
