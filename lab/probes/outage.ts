import type { ServedRun } from '../../reports/result.ts';
import type { Echo } from './echo-protocol.ts';

/** One bounded probe run, the same on a real host (prober.ts) and on an emulated one (lab/sim). */
export interface ProberOptions {
  /** The address probed, e.g. a service address. */
  target: string;
  port: number;
  /** Probes per second, 1..10,000. */
  ratePps: number;
  /** Hard bounds: never more than `count` probes, never longer than `durationMs`. */
  count: number;
  durationMs: number;
  /** Gaps above this are listed (default: 5 probe intervals). */
  gapThresholdMs?: number;
  /** How long to wait for late replies after the last probe (default 200 ms). */
  drainMs?: number;
}

/** A stretch without replies, bounded by the last reply before it and the first after it. */
export interface Gap {
  gapMs: number;
  lastSeqBefore: number;
  firstSeqAfter: number;
  /**
   * How far apart the client sent the two probes whose replies bound the gap: about one interval when
   * the replies were held up on the way (path, server), about the gap when the client itself sent
   * nothing meanwhile (its own process stalled) or its probes were lost.
   */
  sentApartMs: number;
  serverBefore: string;
  serverAfter: string;
}

export interface ProbeSummary {
  sent: number;
  received: number;
  lost: number;
  /**
   * What a client lived without: the longest time between two consecutive replies (by arrival), or,
   * when the probes at the start or the end of the run went unanswered, as long as they took to send.
   */
  outageMs: number;
  /** Gaps longer than `gapThresholdMs`, in time order. */
  gaps: Gap[];
  /** Which servers answered, in order of first reply, with the count of replies each. */
  servers: { server: string; replies: number }[];
  /**
   * Who answered which probes, by sequence number: the whole series in a few runs (a report draws the
   * replies from them), where a per-probe list would be thousands of rows.
   */
  runs: ServedRun[];
}

/**
 * Summarises received echoes (each with its arrival time) for probes sent one every `intervalMs`.
 * Duplicates count once; a reply that never came is lost.
 */
export function summarise(
  sent: number,
  replies: readonly { echo: Echo; receivedAtMs: number }[],
  gapThresholdMs: number,
  intervalMs: number,
): ProbeSummary {
  // One pass: duplicates dropped (the first copy counts), the sequence numbers' range, and whether the
  // replies already arrived in time order (they do, bar a reordering network: then they are sorted).
  const seen = new Set<number>();
  const unique: (typeof replies)[number][] = [];
  let inTimeOrder = true;
  let firstSeq = Infinity;
  let lastSeq = -Infinity;
  for (const r of replies) {
    const seq = r.echo.seq;
    if (seen.has(seq)) continue;
    seen.add(seq);
    if (unique.length > 0 && r.receivedAtMs < unique[unique.length - 1]!.receivedAtMs) inTimeOrder = false;
    unique.push(r);
    if (seq < firstSeq) firstSeq = seq;
    if (seq > lastSeq) lastSeq = seq;
  }
  const sorted = inTimeOrder ? unique : [...unique].sort((a, b) => a.receivedAtMs - b.receivedAtMs);
  const gaps: Gap[] = [];
  let outageMs = 0;
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    const gapMs = b.receivedAtMs - a.receivedAtMs;
    outageMs = Math.max(outageMs, gapMs);
    if (gapMs > gapThresholdMs) {
      gaps.push({
        gapMs,
        lastSeqBefore: a.echo.seq,
        firstSeqAfter: b.echo.seq,
        sentApartMs: b.echo.sentAtMs - a.echo.sentAtMs,
        serverBefore: a.echo.server,
        serverAfter: b.echo.server,
      });
    }
  }
  // An outage that began before the first reply or never ended has no reply on one side: the probes
  // sent meanwhile measure it (a node that dies and is never replaced must not read as a short outage).
  const unansweredAtStart = unique.length === 0 ? sent : firstSeq;
  const unansweredAtEnd = unique.length === 0 ? sent : sent - 1 - lastSeq;
  outageMs = Math.max(outageMs, unansweredAtStart * intervalMs, unansweredAtEnd * intervalMs);
  const servers = new Map<string, number>();
  for (const r of sorted) servers.set(r.echo.server, (servers.get(r.echo.server) ?? 0) + 1);
  return {
    sent,
    received: unique.length,
    lost: sent - unique.length,
    outageMs,
    gaps,
    servers: [...servers].map(([server, replies]) => ({ server, replies })),
    runs: servedRuns(unique.map((r) => r.echo)),
  };
}

/** Answered probes as runs of consecutive sequence numbers from one server. */
export function servedRuns(echoes: readonly Pick<Echo, 'seq' | 'server'>[]): ServedRun[] {
  const runs: ServedRun[] = [];
  const inOrder = echoes.every((e, i) => i === 0 || echoes[i - 1]!.seq <= e.seq);
  for (const { seq, server } of inOrder ? echoes : [...echoes].sort((a, b) => a.seq - b.seq)) {
    const last = runs.at(-1);
    if (last?.server === server && last.lastSeq === seq - 1) last.lastSeq = seq;
    else runs.push({ server, firstSeq: seq, lastSeq: seq });
  }
  return runs;
}
