import {
  BFD_MULTI_HOP_PORT,
  BFD_SINGLE_HOP_PORT,
  BfdPacketError,
  decodeControlPacket,
} from '../../core/bfd/codec.ts';
import { bfdPacketView, type BfdPacketView, type BfdStateName } from './bfd-packet-view.ts';
import { endpoint, type CaptureEvent, type EventBase } from './events.ts';
import type { IpPacket } from './ip-packet.ts';
import type { UdpDatagram } from './transport.ts';

/** True for a BFD Control packet's destination port (RFC 5881 §4 single hop, RFC 5883 §5 multihop). */
export function isBfdDatagram(udp: UdpDatagram): boolean {
  return udp.dstPort === BFD_SINGLE_HOP_PORT || udp.dstPort === BFD_MULTI_HOP_PORT;
}

/** Turns BFD Control packets into events, marking each change of the state a sender reports. */
export class BfdSessions {
  /** Last state each sender reported, by sender, receiver and hop type. */
  private readonly states = new Map<string, BfdStateName>();

  packet(base: EventBase, ip: IpPacket, udp: UdpDatagram): CaptureEvent {
    const hop = udp.dstPort === BFD_MULTI_HOP_PORT ? 'multi' : 'single';
    const src = endpoint(ip.src, udp.srcPort);
    const dst = endpoint(ip.dst, udp.dstPort);
    const common = { ...base, protocol: 'bfd' as const, src, dst };
    let packet: BfdPacketView;
    try {
      // The core codec applies RFC 5880 §6.8.6's checks; what it refuses becomes a malformed event.
      packet = bfdPacketView(decodeControlPacket(udp.payload), udp.payload[3]!);
    } catch (e) {
      if (!(e instanceof BfdPacketError)) throw e;
      return {
        ...common,
        summary: `BFD malformed ${ip.src} → ${ip.dst}: ${e.message}`,
        details: { kind: 'malformed', error: e.message },
      };
    }
    const key = `${ip.src}>${ip.dst}/${hop}`;
    const before = this.states.get(key);
    this.states.set(key, packet.state);
    const changed = before !== undefined && before !== packet.state;
    return {
      ...common,
      summary: summary(packet, changed ? `${before}→${packet.state}` : packet.state, ip, hop),
      details: { kind: 'bfd', hop, packet, ...(changed && { previousState: before }) },
    };
  }
}

function summary(p: BfdPacketView, state: string, ip: IpPacket, hop: 'single' | 'multi'): string {
  const ms = (us: number) => `${us / 1000}ms`;
  const parts = [
    `BFD ${state} ${ip.src} → ${ip.dst}`,
    `diag ${p.diagName}`,
    `my-disc ${p.myDiscriminator} your-disc ${p.yourDiscriminator}`,
    `tx ${ms(p.desiredMinTxUs)} rx ${ms(p.requiredMinRxUs)} mult ${p.detectMult}`,
  ];
  if (p.poll) parts.push('poll');
  if (p.final) parts.push('final');
  if (hop === 'multi') parts.push('multihop');
  return parts.join(' ');
}
