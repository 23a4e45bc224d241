// How big V8 lets a thread's young generation grow, for processes that must not stop for long: the
// speaker calls keepYoungGenerationSmall() before anything loads (lab/cli/lblab.mjs), and each worker
// thread it starts calls keepProcessYoungGeneration() first thing. Plain JavaScript, as both run before
// any TypeScript can.
import { setFlagsFromString } from 'node:v8';

// A scavenge stops a thread while it copies what is still alive in the young generation, and a speaker
// digesting 10,000 Services keeps almost all it allocates (the snapshot's parts, the election's
// results). V8 grows the space (doubling, up to 16 MB per semi-space) under that load, and already to
// 8 MB while the modules load; on the netns lab's two shared cores single scavenges then took 30-110 ms of
// the main thread, and at 1-2 MB per semi-space 20-45 ms, with the same 9.2 s digest
// (speaker-burst.netns.test.ts). The growth factor is read each time V8 would grow the space, so a
// process can set it for itself; the space never shrinks back, so it must be set before anything loads.
const FLAG = '--semi-space-growth-factor=1';

// Node resets V8's flags whenever it starts a worker thread (Node 20, measured: a flag set before
// `new Worker` has no effect once the worker runs), so each worker sets it again. The mark is this
// process's pid: worker threads get a copy of the environment, child processes have pids of their own.
const MARK = 'LBLAB_SMALL_YOUNG_GENERATION';

/** For the rest of this process, every thread keeps a small young generation (1 MB per semi-space, or 2). */
export function keepYoungGenerationSmall() {
  process.env[MARK] = String(process.pid);
  setFlagsFromString(FLAG);
}

/** In a worker thread, first thing: sets the flag again when the process keeps its young generation small. */
export function keepProcessYoungGeneration() {
  if (process.env[MARK] === String(process.pid)) setFlagsFromString(FLAG);
}
