/**
 * This process's end of a client's long-lived prober (prober-server-main.ts): one JSON request per line
 * on its stdin, one JSON answer per line on its stdout, matched by request id.
 */
import type { ChildProcess } from 'node:child_process';
import type { NeighbourAsk } from '../../probes/neighbour-ask.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { ProbeOptions } from '../../runner/backend.ts';
import { lines } from './program-output.ts';

/** The port every lblab-node's echo server listens on: a probe's target unless it names another. */
export const echoPort = 7777;

/** What the prober answers a request with: a probe's summary, or the MACs that answered an ask. */
interface Answer {
  summary?: ProbeSummary;
  macs?: string[];
}

export class ProberClient {
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  /** Follows the answers of `process`, the prober on `client`; its exit fails every probe still pending. */
  constructor(
    private readonly process: ChildProcess,
    private readonly client: string,
  ) {
    lines(process.stdout!, (line) => {
      const r = JSON.parse(line) as Answer & { id?: number; error?: string };
      const p = r.id === undefined ? undefined : this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id!);
      if (r.error === undefined) p.resolve(r);
      else p.reject(new Error(`probe from ${client} failed: ${r.error}`));
    });
    process.once('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error(`the prober on ${client} exited`));
      this.pending.clear();
    });
  }

  /** Sends probe `id` (unique within the lab) and resolves with its summary; fails 10 s after it is due. */
  async probe(id: number, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    const request = { id, target, port: o.port ?? echoPort, ratePps: o.ratePps, seconds: o.seconds };
    const answer = await this.send(id, request, o.seconds * 1000, `probe from ${this.client} to ${target}`);
    return answer.summary!;
  }

  /**
   * Asks the segment on `iface` who answers ARP/NDP for `ask.target` (request `id`, unique within the
   * lab); resolves with every answering MAC, sorted.
   */
  async ask(id: number, iface: string, ask: NeighbourAsk): Promise<string[]> {
    const answer = await this.send(
      id,
      { id, ask: { interface: iface, ...ask } },
      ask.ms,
      `asking who has ${ask.target}`,
    );
    return answer.macs ?? [];
  }

  /** Writes `request` and resolves with its answer; fails 10 s after the `dueMs` it should take. */
  private send(id: number, request: object, dueMs: number, what: string): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${what} did not finish`));
      }, dueMs + 10_000);
      const settle =
        <A>(f: (a: A) => void) =>
        (a: A) => {
          clearTimeout(timer);
          f(a);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.process.stdin!.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Closes the prober's stdin, which tells it to exit. */
  end(): void {
    this.process.stdin?.end();
  }
}
