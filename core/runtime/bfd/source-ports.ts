import { BFD_SOURCE_PORTS } from '../../bfd/ports.ts';

const { min: SOURCE_PORT_MIN, max: SOURCE_PORT_MAX } = BFD_SOURCE_PORTS;

/**
 * The source ports of the open sessions. RFC 5881 §4: the source port MUST be in 49152-65535 and the
 * same for all packets of a session (it holds its port from open to close); it SHOULD be unique among
 * the system's sessions, so no two sessions of this network share one. Ports are handed out
 * round-robin, so a port just given back is the last to be reused.
 */
export class SourcePorts {
  private readonly taken = new Set<number>();
  private cursor: number = SOURCE_PORT_MIN;

  /**
   * Calls `bind` with free ports in turn until it returns a result (a port some other socket holds is
   * skipped by returning undefined); the port is then taken until `release`. Undefined when every port
   * of the range was tried.
   */
  take<T>(bind: (port: number) => T | undefined): { port: number; result: T } | undefined {
    const size = SOURCE_PORT_MAX - SOURCE_PORT_MIN + 1;
    for (let tried = 0; tried < size; tried++) {
      const port = this.cursor;
      this.cursor = port === SOURCE_PORT_MAX ? SOURCE_PORT_MIN : port + 1;
      if (this.taken.has(port)) continue;
      const result = bind(port);
      if (result === undefined) continue;
      this.taken.add(port);
      return { port, result };
    }
    return undefined;
  }

  release(port: number): void {
    this.taken.delete(port);
  }
}
