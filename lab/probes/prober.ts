import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { decodeEcho, encodeProbe, type Echo } from './echo-protocol.ts';
import { summarise, type ProberOptions, type ProbeSummary } from './outage.ts';

/**
 * Sends sequenced UDP probes at a fixed rate and summarises the replies. Probes are paced against the
 * start time (not by fixed sleeps) so the rate holds even when the event loop is late.
 */
export async function probe(o: ProberOptions): Promise<ProbeSummary> {
  if (!(o.ratePps > 0 && o.ratePps <= 10_000)) throw new RangeError('rate must be 1..10000 probes/s');
  const total = Math.min(o.count, Math.floor((o.durationMs / 1000) * o.ratePps));
  const socket = createSocket(isIPv6(o.target) ? 'udp6' : 'udp4');
  const replies: { echo: Echo; receivedAtMs: number }[] = [];
  socket.on('message', (msg) => {
    const echo = decodeEcho(msg);
    if (echo) replies.push({ echo, receivedAtMs: performance.now() });
  });
  // A host that is unreachable for a moment (no neighbour yet) reports errors: they are just losses.
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, resolve));

  const intervalMs = 1000 / o.ratePps;
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      while (sent < due) {
        socket.send(encodeProbe({ seq: sent, sentAtMs: performance.now() }), o.port, o.target);
        sent++;
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    tick();
  });
  await new Promise((r) => setTimeout(r, o.drainMs ?? 200));
  socket.close();
  return summarise(sent, replies, o.gapThresholdMs ?? 5 * intervalMs, intervalMs);
}
