/**
 * The real-kernel socket and BFD tests run the code under test in a child process inside a lab namespace
 * (sockets belong to the namespace of the process that creates them). Both ends speak JSON lines: the
 * test writes `{id, op, ...}` and gets one reply with that id; any other line the child prints is an
 * event (`{event, ...}`). This file holds both ends.
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { waitUntil } from './wait-until.test-support.ts';

export interface ChildLine {
  id?: number;
  event?: string;
}

/** The test's end: requests by id, events as they come, the child's stderr in every failure. */
export class JsonLinesChild<M extends ChildLine> {
  /** Every event the child printed, with when this process read it. */
  readonly events: (M & { atMs: number })[] = [];
  private readonly replies = new Map<number, M>();
  private readonly wake = new Set<() => void>();
  private nextId = 1;
  private stderr = '';

  /** `waitMs`: how long a request, a wait or stop() may take unless told otherwise. */
  constructor(
    private readonly proc: ChildProcess,
    private readonly waitMs: number,
  ) {
    if (proc.stdout === null || proc.stderr === null) throw new Error('the child needs piped stdio');
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as M;
      if (message.event !== undefined) this.events.push({ ...message, atMs: performance.now() });
      else if (message.id !== undefined) this.replies.set(message.id, message);
      for (const w of this.wake) w();
    });
    proc.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    proc.on('exit', () => this.wake.forEach((w) => w()));
  }

  /** Sends a request and resolves with the child's reply, success or failure. */
  request(op: string, fields: object = {}, ms = this.waitMs): Promise<M> {
    const id = this.nextId++;
    this.proc.stdin?.write(`${JSON.stringify({ id, op, ...fields })}\n`);
    return this.until(`the reply to ${op} ${JSON.stringify(fields)}`, () => this.replies.get(id), ms);
  }

  /** Waits until `check` returns a value, re-checking on every line; fails at once if the child exits. */
  until<T>(what: string, check: () => T | undefined, ms = this.waitMs): Promise<T> {
    return waitUntil(what, ms, this.wake, () => {
      const value = check();
      if (value === undefined && (this.proc.exitCode !== null || this.proc.signalCode !== null))
        throw new Error(`the child exited while waiting for ${what}`);
      return value;
    }).catch((e: unknown) => {
      throw new Error(`${String(e)}; child stderr:\n${this.stderr}`);
    });
  }

  /**
   * Closes stdin; the child closes what it opened and exits by itself. Resolves with its exit code, or
   * null when it still runs after the wait (the lab's destroy() then kills it).
   */
  async stop(): Promise<number | null> {
    this.proc.stdin?.end();
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => this.proc.once('exit', resolve)),
        new Promise((resolve) => (timer = setTimeout(resolve, this.waitMs))),
      ]);
      clearTimeout(timer);
    }
    return this.proc.exitCode;
  }
}

/** The child's end: one JSON line on stdout. */
export function emitLine(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/**
 * The child's end: handles each request line as it comes (concurrently, so a test can start a connect
 * while it waits for something else) and replies `{id, ok: true, ...result}` or
 * `{id, ok: false, code, errno, message}`; resolves at the end of input.
 */
export async function serveJsonLines<R extends { id: number }>(
  handle: (request: R) => Promise<object>,
): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    const request = JSON.parse(line) as R;
    handle(request).then(
      (result) => emitLine({ id: request.id, ok: true, ...result }),
      (e: unknown) => {
        const { code, errno } = e as { code?: unknown; errno?: unknown };
        emitLine({
          id: request.id,
          ok: false,
          code,
          errno,
          message: e instanceof Error ? e.message : String(e),
        });
      },
    );
  }
}
