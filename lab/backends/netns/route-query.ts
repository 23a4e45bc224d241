/**
 * One long-lived `ip -n NS -j -4|-6 -batch -` process answering route queries for a namespace and family
 * (a batch line cannot carry -4/-6, and `route show` does not take the family from its prefix). Starting `ip`
 * for every poll costs about 2.5 ms of CPU here, which at a 5 ms polling period would take half a core
 * away from the daemons being measured; a query through the running process costs about 0.07 ms. `ip`
 * answers each batch line with one line of JSON and flushes it, so answers pair with queries in order.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Netns } from './namespace.ts';

export class RouteQuery {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  private buffered = '';
  private failure: Error | undefined;

  constructor(ns: Netns, family: 4 | 6) {
    this.child = spawn('ip', ['-n', ns.name, '-j', `-${family}`, '-batch', '-'], { stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffered += chunk;
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.resolve(line);
      }
    });
    let stderr = '';
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const fail = (why: string) => {
      this.failure = new Error(`ip -n ${ns.name} -batch: ${why}${stderr ? `: ${stderr.trim()}` : ''}`);
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
    };
    this.child.once('error', (err) => fail(err.message));
    this.child.once('exit', (code, signal) => fail(`exited (${code ?? signal})`));
    // A write after the process died must not crash the runner; the exit handler reports it.
    this.child.stdin.on('error', () => undefined);
  }

  /** `route show exact PREFIX`; resolves with the JSON text `ip` printed. */
  showExact(prefix: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`route show exact ${prefix}\n`);
    });
  }

  /** Ends the process (by its PID, through the child handle). */
  close(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
