/**
 * Reading the output of a lab's programs: line by line from a pipe, and the first line that says a
 * program is listening, from a pipe or (for a detached lab) from its log file.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

/**
 * Calls `each` with every complete line the stream carries. A read ends wherever the pipe did, so the
 * part after the last newline waits for the rest of its line, and characters are decoded across reads.
 */
export function lines(stream: NodeJS.ReadableStream, each: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    const parts = (rest + d).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p.trim() !== '') each(p);
  });
}

/** Waits for a program's first output line (it is listening), or fails if it exits or takes 20 s. */
export function firstLine(child: ChildProcess, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 20 s`)), 20_000);
    child.stdout!.once('data', () => (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${what} exited (${code})`))));
  });
}

/** firstLine for a detached program: its log file has a complete line. */
export function firstLogLine(child: ChildProcess, what: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const settle = (error?: Error) => {
      clearInterval(poll);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const exited = (code: number | null) => settle(new Error(`${what} exited (${code})`));
    const poll = setInterval(() => {
      void readFile(log, 'utf8')
        .catch(() => '')
        .then((text) => {
          if (text.includes('\n')) settle();
          else if (performance.now() - started > 20_000)
            settle(new Error(`${what} did not start within 20 s`));
        });
    }, 50);
    child.once('exit', exited);
  });
}
