/**
 * The `lblab speaker` of every lblab-node of a netns lab: started piped (its lines go to the timeline and
 * track what it announces) or detached, stopped as a crash or as a graceful leave, frozen and thawed.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UpOptions } from '../../runner/backend.ts';
import type { LabPrograms } from './lab-programs.ts';
import type { Netns } from './namespace.ts';
import type { LabNodeSoftware } from './node-control.ts';
import { lines } from './program-output.ts';
import { silence, unsilence, type Silenced } from './silence.ts';
import { spawnSpeaker, type SpeakerProcess } from './speaker-process.ts';
import { speakerLine, trackMembership, trackOwnership } from './speaker-log.ts';

/** A speaker's grace window on a graceful restart: what the emulated backend uses too. */
const graceMs = 2000;
/** How long a speaker told to leave may take beyond its grace window before it is killed. */
const stopSlackMs = 5000;
/** How long the speakers of a new lab may take to see each other (each needs a second or so to start). */
const convergeMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Speaker {
  process: SpeakerProcess;
  /** The addresses it announces, as its announcer logs them (took-over / released). */
  owned: Set<string>;
  /** The other speakers it holds alive, as its membership logs them. */
  alive: Set<string>;
  silenced?: Silenced;
  exited: Promise<void>;
}

export class LabSpeakers implements LabNodeSoftware {
  private readonly speakers = new Map<string, Speaker>();

  /** `dir` holds cluster.yaml and metallb.yaml; `host` finds a node's namespace. */
  constructor(
    private readonly host: (name: string) => Netns,
    private readonly nodes: readonly string[],
    private readonly dir: string,
    private readonly programs: LabPrograms,
    private readonly o: Pick<UpOptions, 'timeline'> & { detached?: boolean },
  ) {}

  /** Whether `name`'s speaker runs (frozen or not). */
  has(name: string): boolean {
    return this.speakers.has(name);
  }

  /**
   * Starts every speaker and, unless they are detached, waits until each holds all the others alive:
   * speakers start one after another here, and one that has seen nobody yet owns everything for a moment.
   * A lab whose scenarios begin before that would measure the start-up, not the fault.
   */
  async startAll(): Promise<void> {
    for (const name of this.nodes) this.start(name);
    if (this.o.detached) return;
    const deadline = performance.now() + convergeMs;
    const agreed = () =>
      this.nodes.every((n) => this.nodes.every((m) => m === n || this.speakers.get(n)?.alive.has(m)));
    while (!agreed()) {
      if (performance.now() > deadline)
        throw new Error(`the speakers did not all see each other alive within ${convergeMs} ms`);
      await sleep(20);
    }
  }

  start(name: string): void {
    const extra = ['--grace-ms', String(graceMs), '--lab-control', this.controlFile(name)];
    const child = this.o.detached
      ? (this.programs.spawnDetached(name, 'speaker', (o) =>
          spawnSpeaker(this.host(name), name, this.dir, extra, o),
        ).child as SpeakerProcess)
      : spawnSpeaker(this.host(name), name, this.dir, extra);
    const speaker: Speaker = {
      process: child,
      owned: new Set(),
      alive: new Set(),
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    this.speakers.set(name, speaker);
    const follow = (line: string) => {
      const event = speakerLine(line);
      trackOwnership(speaker.owned, event);
      trackMembership(speaker.alive, event);
      this.o.timeline({ source: name, ...event });
    };
    if (child.stdout) lines(child.stdout, follow);
    if (child.stderr) lines(child.stderr, follow);
    child.once('exit', (code, signal) => {
      speaker.owned.clear();
      if (this.speakers.get(name) === speaker) this.speakers.delete(name);
      this.o.timeline({ source: name, kind: 'lifecycle', message: `speaker exited (${signal ?? code})` });
    });
  }

  /** SIGKILL (a crash) or SIGTERM (leave, grace window, exit); resolves once the process is gone. */
  async stop(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const s = this.speakers.get(name);
    if (!s) return;
    this.speakers.delete(name);
    s.owned.clear();
    s.process.kill(signal);
    const timer = setTimeout(() => s.process.kill('SIGKILL'), graceMs + stopSlackMs);
    await s.exited;
    clearTimeout(timer);
  }

  /** Freezes the speaker and cuts its namespace off the wire (a hung node); no-op if frozen or gone. */
  async hang(name: string): Promise<void> {
    const s = this.speakers.get(name);
    if (!s || s.silenced) return;
    s.silenced = await silence(this.host(name), [s.process.pid!]);
  }

  /** Undoes hang(); no-op unless frozen. */
  async resume(name: string): Promise<void> {
    const s = this.speakers.get(name);
    if (!s?.silenced) return;
    await unsilence(s.silenced);
    delete s.silenced;
  }

  /** Blocks the speaker's main event loop for `ms`, through its lab-control file. */
  async stall(name: string, ms: number): Promise<void> {
    if (!this.speakers.has(name)) throw new Error(`${name}: no speaker runs to stall`);
    await appendFile(this.controlFile(name), `stall ${Math.round(ms)}\n`);
  }

  private controlFile(name: string): string {
    return join(this.dir, `${name}.lab-control`);
  }

  /** Speakers that run (not frozen, not dead) and whose announcer answers for `address`. */
  announcers(address: string): string[] {
    return [...this.speakers].filter(([, s]) => !s.silenced && s.owned.has(address)).map(([name]) => name);
  }

  /**
   * Thaws every frozen speaker before teardown (each failure goes to `errors`) and forgets them all: their
   * processes end with the lab's namespaces.
   */
  async removeAll(errors: unknown[]): Promise<void> {
    for (const s of this.speakers.values())
      if (s.silenced) await unsilence(s.silenced).catch((err: unknown) => errors.push(err));
    this.speakers.clear();
  }
}
