/**
 * Who answers for an address on a segment, as a client there sees it: ARP requests (IPv4) or neighbour
 * solicitations (IPv6) sent from the client's own port, and every link-layer address that answers within
 * a bound collected (two announcers are two answers; a resolver that keeps the first would hide one).
 * Sent through lblab's AF_PACKET port, with lblab's own codecs, so the lab image needs no arping or ndisc6.
 */
import {
  arpRequest,
  decodeFrame,
  encodeFrame,
  neighborSolicitation,
  targetLinkLayerAddress,
} from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import type { FramePort } from '../../core/runtime/ports.ts';

export interface NeighbourAsk {
  /** The asking interface's address on the segment (the request's sender). */
  source: string;
  /** The address asked for. */
  target: string;
  /** How long answers are collected. */
  ms: number;
  /** How often the request is sent again meanwhile (an answer lost once must not hide an announcer). */
  everyMs: number;
}

/** The request a client sends to resolve `target`: a broadcast ARP who-has, or an NS to its group. */
export function neighbourRequest(
  port: Pick<FramePort, 'mac'>,
  source: IpAddress,
  target: IpAddress,
): Uint8Array {
  return encodeFrame(
    target.family === 4
      ? arpRequest({ senderMac: port.mac, senderIp: source, targetIp: target })
      : neighborSolicitation({ target, source, mac: port.mac }),
  );
}

/** The link-layer address a frame says `target` is at (an ARP reply or an NA for it), if it is one. */
export function answerFor(bytes: Uint8Array, target: IpAddress): string | undefined {
  let frame;
  try {
    frame = decodeFrame(bytes);
  } catch {
    return undefined; // a malformed frame answers nothing
  }
  if (frame.kind === 'arp')
    return frame.arp.op === 'reply' && frame.arp.senderIp.equals(target)
      ? frame.arp.senderMac.toString()
      : undefined;
  if (frame.kind === 'na' && frame.na.target.equals(target))
    return (targetLinkLayerAddress(frame.na.options) ?? frame.ethernet.src).toString();
  return undefined;
}

/** Every MAC that answered for `ask.target` on `port` within `ask.ms`, sorted. */
export function askNeighbours(port: FramePort, ask: NeighbourAsk): Promise<string[]> {
  const target = IpAddress.parse(ask.target);
  const request = neighbourRequest(port, IpAddress.parse(ask.source), target);
  const macs = new Set<string>();
  const stop = port.onFrame((bytes) => {
    const mac = answerFor(bytes, target);
    if (mac !== undefined) macs.add(mac);
  });
  port.send(request);
  const repeat = setInterval(() => port.send(request), ask.everyMs);
  return new Promise((resolve) =>
    setTimeout(() => {
      clearInterval(repeat);
      stop();
      resolve([...macs].sort());
    }, ask.ms),
  );
}
