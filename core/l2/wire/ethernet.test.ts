import { describe, expect, it } from 'vitest';
import { MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';
import { ETHERTYPE_ARP, ETHERTYPE_IPV6, decodeEthernet, encodeEthernet } from './ethernet.ts';
import { catchWireError as wireError, hex } from './test-support.ts';
import { ARP_REQUEST_VLAN, GARP_REQUEST } from './test-vectors.ts';

const A = MacAddress.parse('02:00:00:00:00:01');
const B = MacAddress.parse('02:00:00:00:00:02');

describe('Ethernet II', () => {
  it('decodes the header and keeps the padding in the payload', () => {
    const f = decodeEthernet(GARP_REQUEST);
    expect(f.dst.equals(MacAddress.broadcast)).toBe(true);
    expect(f.src.equals(A)).toBe(true);
    expect(f.etherType).toBe(ETHERTYPE_ARP);
    expect(f.vlan).toBeUndefined();
    expect(f.payload.length).toBe(60 - 14);
  });

  it('decodes a single 802.1Q tag', () => {
    const f = decodeEthernet(ARP_REQUEST_VLAN);
    expect(f.vlan).toEqual({ pcp: 5, dei: false, vid: 100 });
    expect(f.etherType).toBe(ETHERTYPE_ARP);
    expect(f.payload.length).toBe(ARP_REQUEST_VLAN.length - 18);
  });

  it('reads the DEI bit and VLAN 4095', () => {
    const f = decodeEthernet(hex(`${'02'.repeat(12)} 81 00 ff ff 86 dd`));
    expect(f.vlan).toEqual({ pcp: 7, dei: true, vid: 4095 });
    expect(f.etherType).toBe(ETHERTYPE_IPV6);
  });

  it('pads short frames to 60 bytes, tagged ones to 64, and leaves long ones alone', () => {
    const frame = { dst: B, src: A, etherType: 0x88b5, payload: hex('01 02 03') };
    const untagged = encodeEthernet(frame);
    expect(untagged.length).toBe(60);
    expect(untagged.subarray(0, 17)).toEqual(hex('02 00 00 00 00 02 02 00 00 00 00 01 88 b5 01 02 03'));
    expect(untagged.subarray(17).every((b) => b === 0)).toBe(true);

    const tagged = encodeEthernet({ ...frame, vlan: { pcp: 0, dei: false, vid: 7 } });
    expect(tagged.length).toBe(64);
    expect(tagged.subarray(12, 18)).toEqual(hex('81 00 00 07 88 b5'));

    expect(encodeEthernet({ ...frame, payload: new Uint8Array(100) }).length).toBe(114);
  });

  it('re-encodes a decoded frame to the same bytes', () => {
    expect(encodeEthernet(decodeEthernet(GARP_REQUEST))).toEqual(GARP_REQUEST);
    expect(encodeEthernet(decodeEthernet(ARP_REQUEST_VLAN))).toEqual(ARP_REQUEST_VLAN);
  });

  it('reads a frame that is a window into a larger buffer and copies the payload out', () => {
    const big = new Uint8Array(GARP_REQUEST.length + 7);
    big.set(GARP_REQUEST, 5);
    const window = big.subarray(5, 5 + GARP_REQUEST.length);
    const f = decodeEthernet(window);
    expect(f.src.equals(A)).toBe(true);
    big.fill(0xee);
    expect(f.payload[0]).toBe(0x00); // hardware type high byte, unaffected by the buffer's reuse
  });

  it('keeps an IEEE 802.3 length field (e.g. STP) as it is', () => {
    const stp = hex(`01 80 c2 00 00 00 02 00 00 00 00 01 00 26 42 42 03 ${'00'.repeat(43)}`);
    const f = decodeEthernet(stp);
    expect(f.etherType).toBe(0x26);
    expect(encodeEthernet(f)).toEqual(stp);
  });

  it.each([0, 1, 13])('refuses a %i-byte frame as truncated', (n) => {
    const e = wireError(() => decodeEthernet(new Uint8Array(n)));
    expect(e.reason).toBe('truncated');
    expect(e.code).toBe('L2_WIRE');
  });

  it('refuses a tag cut short', () => {
    const e = wireError(() => decodeEthernet(hex(`${'02'.repeat(12)} 81 00 00 64 08`)));
    expect([e.reason, e.offset]).toEqual(['truncated', 14]);
  });

  it.each(['81 00', '88 a8'])('refuses stacked tags (inner %s) as unsupported', (inner) => {
    const e = wireError(() => decodeEthernet(hex(`${'02'.repeat(12)} 81 00 00 64 ${inner} 00 64 08 06`)));
    expect([e.reason, e.offset]).toEqual(['unsupported', 16]);
  });

  it('refuses to encode out-of-range fields', () => {
    const frame = { dst: B, src: A, etherType: 0x0800, payload: new Uint8Array() };
    const bad = [
      { ...frame, etherType: 0x10000 },
      { ...frame, etherType: -1 },
      { ...frame, etherType: 0x8100 },
      { ...frame, vlan: { pcp: 8, dei: false, vid: 1 } },
      { ...frame, vlan: { pcp: 0, dei: false, vid: 4096 } },
      { ...frame, vlan: { pcp: 0, dei: false, vid: 1.5 } },
    ];
    for (const f of bad) expect(() => encodeEthernet(f)).toThrow(WireEncodeError);
  });
});
