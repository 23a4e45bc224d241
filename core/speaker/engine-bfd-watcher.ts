/**
 * A BfdWatcher over a BfdEngine in the same thread: what the BFD worker runs, and what tests and the
 * emulator can run directly on a virtual clock.
 */
import { BfdConfigError, type BfdEngine } from '../bfd/engine/index.ts';
import type { BfdChange, BfdSessionSpec, BfdWatch, BfdWatcher } from './bfd-watcher.ts';

export class EngineBfdWatcher implements BfdWatcher {
  private readonly listeners = new Map<string, (c: BfdChange) => void>();

  constructor(
    private readonly engine: BfdEngine,
    private readonly log: (message: string) => void,
  ) {
    engine.onStateChange((c) => this.listeners.get(c.key)?.(c));
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
          (k) => {
            this.listeners.delete(k);
            return this.engine.remove(k, { adminDown });
          },
          () => undefined,
        );
      },
    };
  }
}
