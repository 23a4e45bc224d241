/** Something a process owns and closes when it dies (a socket). */
export interface Closeable {
  close(): void;
  /** What SIGKILL does to it, when that differs from close() (a TCP connection: see SimStream.abort). */
  abort?(): void;
}

/**
 * Who runs the code behind a socket: the host's kernel (always running) or a process, which a freeze
 * stops and a kill ends. Ports ask their gate before sending and hand it every delivery.
 */
export interface Gate {
  /** Runs `deliver` now, after resume (frozen), or never (killed). `source` is the port, for its queue bound. */
  admit(source: object, deliver: () => void): void;
  /** Whether the owner can send now: a frozen or killed process sends nothing. */
  readonly canSend: boolean;
  adopt(port: Closeable): void;
  disown(port: Closeable): void;
}

/** Sockets of the host itself, outside any process: never frozen, never killed. */
export const HOST_GATE: Gate = {
  admit: (_source, deliver) => deliver(),
  canSend: true,
  adopt: () => undefined,
  disown: () => undefined,
};
