/**
 * The BGP side of `lblab speaker`: listeners on the node's addresses (TCP-MD5 keys per peer), the
 * BgpSpeaker running one session per selected BGPPeer, and the stop that keeps or withdraws routes.
 */
import { randomInt } from 'node:crypto';
import type { IpAddress } from '../../../core/net/index.ts';
import { BfdWorker } from '../../../core/runtime/bfd-worker/bfd-worker.ts';
import { socketConnection, tcpBgpConnector } from '../../../core/runtime/bgp-socket.ts';
import type { Clock } from '../../../core/runtime/clock.ts';
import { Random } from '../../../core/runtime/random.ts';
import { listenTcp, type TcpListener } from '../../../core/runtime/tcp/index.ts';
import { BgpSpeaker } from '../../../core/speaker/bgp-speaker.ts';
import type { SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';

export type StopMode = 'restart' | 'drain';

export interface SpeakerBgp {
  speaker: BgpSpeaker;
  /** The BFD sessions' thread, for metrics. */
  bfd: BfdWorker;
  /** `restart`: close so graceful-restart peers keep our routes; `drain`: GRACEFUL_SHUTDOWN, wait, withdraw. */
  stop(mode: StopMode, drainMs: number): Promise<void>;
}

export async function startSpeakerBgp(o: {
  node: string;
  clock: Clock;
  log: (e: SpeakerLogEntry) => void;
  /** Where peers connect to us: the node's InternalIP addresses. */
  addresses: readonly IpAddress[];
  listenPort: number;
  maxPrefixes: number;
}): Promise<SpeakerBgp> {
  const listeners: { listener: TcpListener; family: IpAddress['family'] }[] = [];
  const bfd = new BfdWorker({ seed: randomInt(2 ** 31) }, (message) =>
    o.log({ atMs: o.clock.now(), kind: 'bgp', message: `BFD: ${message}` }),
  );
  const speaker = new BgpSpeaker({
    node: o.node,
    clock: o.clock,
    random: new Random(randomInt(2 ** 31)),
    connector: tcpBgpConnector,
    log: o.log,
    // A process cannot tell whether it replaces an earlier one; saying "restarted" only tells a peer
    // that kept our routes not to wait for us before sending its own (RFC 4724 §4.2).
    restarting: true,
    maxPrefixes: o.maxPrefixes,
    bfd,
    onPassword: (peer, password) => {
      for (const l of listeners)
        if (l.family === peer.family) l.listener.setPeerPassword(peer.toString(), password);
    },
  });
  if (o.listenPort > 0) {
    for (const address of o.addresses) {
      const l = await listenTcp({ host: address.toString(), port: o.listenPort, ttl: 255 });
      l.onConnection((socket) => speaker.accept(socketConnection(socket)));
      l.onError((err) =>
        o.log({
          atMs: o.clock.now(),
          kind: 'bgp',
          message: `listener ${address.toString()}: ${err.message}`,
        }),
      );
      listeners.push({ listener: l, family: address.family });
    }
  }
  return {
    speaker,
    bfd,
    async stop(mode, drainMs) {
      for (const l of listeners) await l.listener.close();
      if (mode === 'drain') {
        speaker.drain();
        await new Promise<void>((resolve) => o.clock.setTimer('bgp:drain', drainMs, resolve));
      }
      speaker.stop(mode === 'drain' ? 'shutdown' : 'restart', `speaker stopping (${mode})`);
      // Give the NOTIFICATIONs and FINs a moment to leave before the process exits; the BFD worker
      // waits for its AdminDown packets itself.
      await Promise.all([
        new Promise<void>((resolve) => o.clock.setTimer('bgp:flush', 100, resolve)),
        bfd.shutdown(),
      ]);
    },
  };
}
