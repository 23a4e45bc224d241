import type { Clock } from '../../core/runtime/clock.ts';
import type { DatagramPort } from '../../core/runtime/ports.ts';
import { type Echo, decodeEcho, encodeEcho, encodeProbe } from '../probes/echo-protocol.ts';
import { type ProberOptions, type ProbeSummary, summarise } from '../probes/outage.ts';
import { SimConfigError } from './errors.ts';

/**
 * The lab's UDP echo server (lab/probes/echo-server-main.ts) on emulated sockets: it answers every probe
 * with the probe and its own name, from whatever sockets it is given.
 */
export class EchoServer {
  /** Probes answered so far. */
  served = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly ports: readonly DatagramPort[],
    readonly name: string,
  ) {
    for (const port of ports) {
      this.stops.push(
        port.onMessage((payload, from) => {
          const echo = encodeEcho(payload, name);
          if (echo === undefined) return;
          this.served++;
          port.send(from, echo);
        }),
      );
    }
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    for (const port of this.ports) port.close();
  }
}

export type { ProberOptions };

/**
 * The lab's prober (lab/probes/prober.ts) in virtual time: probe i leaves at exactly start + i / rate on
 * `clock`, each reply is stamped with the virtual time it arrived, and the promise resolves with the same
 * summary the real prober gives, `drainMs` after the last probe. Nothing happens unless the clock is
 * driven (see Network.settle).
 */
export function runProber(clock: Clock, port: DatagramPort, o: ProberOptions): Promise<ProbeSummary> {
  if (!(o.ratePps > 0 && o.ratePps <= 10_000))
    throw new SimConfigError('prober: ratePps must be within 1..10000');
  if (!(Number.isInteger(o.count) && o.count >= 0))
    throw new SimConfigError('prober: count must be a whole number');
  if (!(o.durationMs >= 0)) throw new SimConfigError('prober: durationMs must be ≥ 0');
  const total = Math.min(o.count, Math.floor((o.durationMs / 1000) * o.ratePps));
  const intervalMs = 1000 / o.ratePps;
  const start = clock.now();
  const replies: { echo: Echo; receivedAtMs: number }[] = [];
  port.onMessage((payload) => {
    const echo = decodeEcho(payload);
    if (echo !== undefined) replies.push({ echo, receivedAtMs: clock.now() });
  });
  const to = { address: o.target, port: o.port };
  return new Promise((resolve) => {
    let sent = 0;
    const finish = () =>
      clock.setTimer('prober:drain', o.drainMs ?? 200, () => {
        port.close();
        resolve(summarise(sent, replies, o.gapThresholdMs ?? 5 * intervalMs, intervalMs));
      });
    const tick = () => {
      port.send(to, encodeProbe({ seq: sent, sentAtMs: clock.now() }));
      sent++;
      if (sent >= total) finish();
      else clock.setTimer('prober:send', start + sent * intervalMs - clock.now(), tick);
    };
    if (total === 0) finish();
    else tick();
  });
}
