/**
 * A BfdWatcher over a BfdEngine in the same thread: what the BFD worker runs, and what tests and the
 * emulator can run directly on a virtual clock.
 */
import { BfdConfigError, type BfdEngine } from '../bfd/engine/index.ts';
import type { BfdState } from '../bfd/packet/types.ts';
import type {
  BfdChange,
  BfdSessionSpec,
  BfdSessionStats,
  BfdStatsSource,
  BfdWatch,
  BfdWatcher,
} from './bfd-watcher.ts';

export class EngineBfdWatcher implements BfdWatcher, BfdStatsSource {
  private readonly listeners = new Map<string, (c: BfdChange) => void>();
  /** Per session key, its state changes so far by "from>to". */
  private readonly transitions = new Map<
    string,
    Map<string, { from: BfdState; to: BfdState; count: number }>
  >();

  constructor(
    private readonly engine: BfdEngine,
    private readonly log: (message: string) => void,
  ) {
    engine.onStateChange((c) => {
      this.countTransition(c.key, c.previous, c.state);
      this.listeners.get(c.key)?.(c);
    });
  }

  stats(): Promise<BfdSessionStats[]> {
    return Promise.resolve(
      this.engine.sessions().map((s) => ({
        localAddress: s.localAddress,
        peerAddress: s.peerAddress,
        multihop: s.multihop,
        state: s.state,
        controlPacketsIn: s.packetsReceived,
        controlPacketsOut: s.packetsSent,
        echoPacketsOut: s.echo.sent,
        echoPacketsIn: s.echo.returned,
        transitions: [...(this.transitions.get(s.key)?.values() ?? [])].map((t) => ({ ...t })),
      })),
    );
  }

  watch(spec: BfdSessionSpec, onChange: (change: BfdChange) => void): BfdWatch {
    let closed = false;
    const peer = `BFD ${spec.localAddress} → ${spec.peerAddress}`;
    const add = (s: BfdSessionSpec) =>
      this.engine.add(s).then((key) => {
        if (closed) return key;
        this.listeners.set(key, onChange);
        return key;
      });
    let key = add(spec);
    key.catch((err: unknown) => this.log(`${peer}: cannot start: ${(err as Error).message}`));
    return {
      update: (next) => {
        key = key.then(
          (k) =>
            // Timers change in place (Poll Sequence); passive or a new key need a new session.
            add(next).catch(async (err: unknown) => {
              if (!(err instanceof BfdConfigError)) throw err;
              this.listeners.delete(k);
              await this.engine.remove(k, { adminDown: true });
              return add(next);
            }),
          () => add(next),
        );
        key.catch((err: unknown) => this.log(`${peer}: cannot change: ${(err as Error).message}`));
      },
      close: ({ adminDown }) => {
        closed = true;
        void key.then(
          async (k) => {
            this.listeners.delete(k);
            await this.engine.remove(k, { adminDown });
            this.transitions.delete(k);
          },
          () => undefined,
        );
      },
    };
  }

  private countTransition(key: string, from: BfdState, to: BfdState): void {
    let byChange = this.transitions.get(key);
    if (byChange === undefined) this.transitions.set(key, (byChange = new Map()));
    const t = byChange.get(`${from}>${to}`);
    if (t === undefined) byChange.set(`${from}>${to}`, { from, to, count: 1 });
    else t.count++;
  }
}
