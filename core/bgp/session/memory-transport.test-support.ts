import { IpAddress } from '../../net/index.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { VirtualClock } from '../../runtime/virtual-clock.ts';
import type { BgpConnection, BgpConnector, ConnectOptions } from './transport.ts';

/** One direction's delay: small and fixed, so tests read like a LAN in virtual time. */
const LATENCY_MS = 0.1;

interface End extends BgpConnection {
  deliver(bytes: Uint8Array): void;
  ended(reason: string): void;
}

/**
 * TCP between in-process BGP sessions on a virtual clock: connects to whoever listens at an address,
 * delivers bytes after a fixed latency, and can go silent (a frozen peer) to test the hold timer.
 */
export class MemoryTransport {
  private readonly listeners = new Map<string, (conn: BgpConnection) => void>();
  /** Connections whose traffic is dropped, by "from>to". */
  readonly silenced = new Set<string>();

  constructor(private readonly clock: Clock) {}

  listen(address: string, onConnection: (conn: BgpConnection) => void): void {
    this.listeners.set(address, onConnection);
  }

  connectorFor(local: string): BgpConnector {
    return {
      connect: (o: ConnectOptions) => {
        const accept = this.listeners.get(o.peer.toString());
        if (accept === undefined)
          return Promise.reject(new Error(`connection refused by ${o.peer.toString()}`));
        const [ours, theirs] = this.pair(local, o.peer.toString());
        this.clock.setTimer('memory:syn', LATENCY_MS, () => accept(theirs));
        return new Promise((resolve) =>
          this.clock.setTimer('memory:synack', 2 * LATENCY_MS, () => resolve(ours)),
        );
      },
    };
  }

  private pair(a: string, b: string): [End, End] {
    const ea = this.end(a, b);
    const eb = this.end(b, a);
    ea.link = eb;
    eb.link = ea;
    return [ea, eb];
  }

  private end(local: string, remote: string): End & { link?: End } {
    const data: ((b: Uint8Array) => void)[] = [];
    const closes: ((r: string) => void)[] = [];
    let closed = false;
    const self: End & { link?: End } = {
      localAddress: IpAddress.parse(local),
      remoteAddress: IpAddress.parse(remote),
      send: (bytes) => {
        if (closed || this.silenced.has(`${local}>${remote}`)) return;
        const copy = bytes.slice();
        this.clock.setTimer('memory:data', LATENCY_MS, () => self.link?.deliver(copy));
      },
      close: () => {
        if (closed) return;
        // A silenced direction loses the FIN too: the peer never learns (a crash behind a cut link).
        if (!this.silenced.has(`${local}>${remote}`))
          this.clock.setTimer('memory:fin', LATENCY_MS, () =>
            self.link?.ended('the peer closed the connection'),
          );
        self.ended('closed by us');
      },
      onData: (fn) => data.push(fn),
      onClose: (fn) => closes.push(fn),
      deliver: (bytes) => {
        if (!closed) for (const fn of data) fn(bytes);
      },
      ended: (reason) => {
        if (closed) return;
        closed = true;
        for (const fn of closes) fn(reason);
      },
    };
    return self;
  }
}

/**
 * Runs virtual time for `ms`, letting promise callbacks (connects resolving) run between timers, as
 * the event loop would between real ones.
 */
export async function advanceWithPromises(clock: VirtualClock, ms: number): Promise<void> {
  const until = clock.now() + ms;
  for (;;) {
    const next = Math.min(...clock.pending().map((p) => p.dueMs));
    if (!Number.isFinite(next) || next > until) break;
    clock.step();
    for (let i = 0; i < 4; i++) await Promise.resolve();
  }
  clock.advanceTo(until);
}
