import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { type ArpPacket, arpReply, arpRequest, decodeArp, encodeArp, gratuitousArp } from './arp.ts';
import { WireEncodeError } from './errors.ts';
import { decodeEthernet } from './ethernet.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { catchWireError, hex } from './test-support.ts';
import { ARP_REPLY_VLAN, ARP_REQUEST_VLAN, GARP_REPLY, GARP_REQUEST } from './test-vectors.ts';

const VIP = IpAddress.parse('198.18.100.1');
const CLIENT = IpAddress.parse('198.18.100.2');
const MAC1 = MacAddress.parse('02:00:00:00:00:01');
const MAC2 = MacAddress.parse('02:00:00:00:00:02');

/** The 28 ARP bytes of a vector, after its 14-byte untagged Ethernet header. */
const arpBytes = (frame: Uint8Array): Uint8Array => frame.slice(14, 14 + 28);

describe('ARP (RFC 826)', () => {
  it('decodes the gratuitous request vector, ignoring the Ethernet padding', () => {
    const p = decodeArp(decodeEthernet(GARP_REQUEST).payload);
    expect(p).toEqual({
      op: 'request',
      senderMac: MAC1,
      senderIp: VIP,
      targetMac: MacAddress.zero,
      targetIp: VIP,
    });
  });

  it('encodes exactly 28 bytes', () => {
    const p = decodeArp(arpBytes(GARP_REPLY));
    expect(encodeArp(p)).toEqual(arpBytes(GARP_REPLY));
  });

  it('builds both gratuitous forms byte for byte', () => {
    expect(encodeFrame(gratuitousArp({ ip: VIP, mac: MAC1, form: 'request' }))).toEqual(GARP_REQUEST);
    expect(encodeFrame(gratuitousArp({ ip: VIP, mac: MAC1, form: 'reply' }))).toEqual(GARP_REPLY);
  });

  it('gratuitous forms: sender IP = target IP, broadcast, target MAC zero (request) or broadcast (reply)', () => {
    const req = gratuitousArp({ ip: VIP, mac: MAC1, form: 'request' });
    const rep = gratuitousArp({ ip: VIP, mac: MAC1, form: 'reply' });
    for (const f of [req, rep]) {
      expect(f.ethernet.dst.equals(MacAddress.broadcast)).toBe(true);
      expect(f.arp.senderIp.equals(f.arp.targetIp)).toBe(true);
    }
    expect(req.arp.targetMac.equals(MacAddress.zero)).toBe(true);
    expect(rep.arp.op).toBe('reply');
    expect(rep.arp.targetMac.equals(MacAddress.broadcast)).toBe(true);
  });

  it('answers a tagged request on its VLAN, unicast to the requester', () => {
    const request = decodeFrame(ARP_REQUEST_VLAN);
    if (request.kind !== 'arp') throw new Error('expected ARP');
    expect(
      arpRequest({ targetIp: VIP, senderIp: CLIENT, senderMac: MAC2, vlan: request.ethernet.vlan }),
    ).toEqual(request);
    const reply = arpReply(request, MAC1);
    expect(reply.arp).toEqual({
      op: 'reply',
      senderMac: MAC1,
      senderIp: VIP,
      targetMac: MAC2,
      targetIp: CLIENT,
    });
    expect(encodeFrame(reply)).toEqual(ARP_REPLY_VLAN);
  });

  it('refuses to answer a reply', () => {
    expect(() => arpReply(gratuitousArp({ ip: VIP, mac: MAC1, form: 'reply' }), MAC2)).toThrow(
      WireEncodeError,
    );
  });

  it.each([0, 27])('refuses %i bytes as truncated', (n) => {
    expect(catchWireError(() => decodeArp(arpBytes(GARP_REQUEST).subarray(0, n))).reason).toBe('truncated');
  });

  const mutate = (at: number, bytes: string): Uint8Array => {
    const b = arpBytes(GARP_REQUEST);
    b.set(hex(bytes), at);
    return b;
  };

  it.each([
    ['hardware type 6 (IEEE 802)', 0, '00 06', 'unsupported'],
    ['protocol type IPv6', 2, '86 dd', 'unsupported'],
    ['hardware length 8', 4, '08', 'bad-address-length'],
    ['protocol length 16', 5, '10', 'bad-address-length'],
    ['opcode 3 (RARP)', 6, '00 03', 'unsupported'],
    ['opcode 0', 6, '00 00', 'unsupported'],
  ])('refuses %s', (_name, at, bytes, reason) => {
    const e = catchWireError(() => decodeArp(mutate(at, bytes)));
    expect([e.reason, e.offset]).toEqual([reason, at]);
  });

  it('refuses IPv6 addresses on encode', () => {
    const p: ArpPacket = {
      op: 'request',
      senderMac: MAC1,
      senderIp: IpAddress.parse('2001:db8::1'),
      targetMac: MAC2,
      targetIp: VIP,
    };
    expect(() => encodeArp(p)).toThrow(WireEncodeError);
  });
});
