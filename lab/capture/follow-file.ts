import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { CaptureFileError, unreadable } from './errors.ts';

export interface FollowOptions {
  /**
   * Give up after this long without the file growing, and before it exists, without it appearing.
   * Undefined: follow until `signal` aborts.
   */
  readonly idleMs?: number;
  /** Read what is there once more, then end: SIGINT, SIGTERM. */
  readonly signal?: AbortSignal;
  /** How often to look for growth. */
  readonly pollMs?: number;
}

const DEFAULT_POLL_MS = 100;
const READ_SIZE = 1 << 16;

/**
 * The bytes of `path` from its start, then whatever is appended, as `tail -c +1 -f` would give them. It
 * polls the file's length instead of watching it: inotify is not there on every file system a capture lands
 * on (bind mounts, overlays, network file systems), and a capture that grows every 100 ms is still read in
 * time. Throws CaptureFileError when the file cannot be read, never appears within `idleMs`, or shrinks
 * (truncated or replaced while followed: its bytes are no longer the ones already read).
 */
export async function* followFile(path: string, o: FollowOptions = {}): AsyncGenerator<Uint8Array> {
  const handle = await openWhenPresent(path, o);
  if (handle === undefined) return;
  const pollMs = o.pollMs ?? DEFAULT_POLL_MS;
  const buffer = new Uint8Array(READ_SIZE);
  let position = 0;
  let grewAt = performance.now();
  try {
    for (;;) {
      const piece = await readAt(handle, path, buffer, position);
      if (piece.length > 0) {
        position += piece.length;
        grewAt = performance.now();
        yield piece;
        continue;
      }
      if (o.signal?.aborted) return;
      const { size } = await handle.stat();
      if (size < position) {
        throw new CaptureFileError(path, `it shrank from ${position} to ${size} bytes while being followed`);
      }
      const idle = performance.now() - grewAt;
      if (o.idleMs !== undefined && idle >= o.idleMs) return;
      await pause(Math.min(pollMs, (o.idleMs ?? Infinity) - idle), o.signal);
    }
  } finally {
    await handle.close();
  }
}

async function openWhenPresent(path: string, o: FollowOptions): Promise<FileHandle | undefined> {
  const start = performance.now();
  for (;;) {
    try {
      return await open(path, 'r');
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw unreadable(path, e);
    }
    if (o.signal?.aborted) return undefined;
    const waited = performance.now() - start;
    if (o.idleMs !== undefined && waited >= o.idleMs) {
      throw new CaptureFileError(path, `no such file (waited ${o.idleMs / 1000} s for it to appear)`);
    }
    await pause(Math.min(o.pollMs ?? DEFAULT_POLL_MS, (o.idleMs ?? Infinity) - waited), o.signal);
  }
}

/** A copy of what was read into `buffer`: the decoder keeps views of the bytes it was handed. */
async function readAt(
  handle: FileHandle,
  path: string,
  buffer: Uint8Array,
  position: number,
): Promise<Uint8Array> {
  try {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    return buffer.slice(0, bytesRead);
  } catch (e) {
    throw unreadable(path, e);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await sleep(Math.max(0, ms), undefined, { signal }).catch((e: unknown) => {
    if (!signal?.aborted) throw e;
  });
}
