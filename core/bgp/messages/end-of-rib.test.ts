import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import { endOfRib, isEndOfRib } from './end-of-rib.ts';
import { decodeMessage, encodeMessage } from './message.ts';
import { FOUR, toHex, update } from './test-support.ts';
import type { UpdateMessage } from './update.ts';

describe('End-of-RIB (RFC 4724 §2)', () => {
  it('IPv4 unicast: an UPDATE with empty withdrawn routes, attributes and NLRI (23 octets)', () => {
    const bytes = encodeMessage(endOfRib({ afi: 1, safi: 1 }), FOUR);
    expect(toHex(bytes)).toBe(toHex(update('', '')));
    expect(isEndOfRib(decodeMessage(bytes, FOUR) as UpdateMessage)).toEqual({ afi: 1, safi: 1 });
  });

  it('IPv6 unicast: only an empty MP_UNREACH_NLRI', () => {
    const bytes = encodeMessage(endOfRib({ afi: 2, safi: 1 }), FOUR);
    expect(toHex(bytes)).toBe(toHex(update('', '80 0f 03 0002 01')));
    expect(isEndOfRib(decodeMessage(bytes, FOUR) as UpdateMessage)).toEqual({ afi: 2, safi: 1 });
  });

  it('any other family round-trips too, though its routes cannot be parsed', () => {
    const bytes = encodeMessage(endOfRib({ afi: 1, safi: 128 }), FOUR);
    expect(toHex(bytes)).toBe(toHex(update('', '80 0f 03 0001 80')));
    expect(isEndOfRib(decodeMessage(bytes, FOUR) as UpdateMessage)).toEqual({ afi: 1, safi: 128 });
  });

  it('is not an End-of-RIB when anything else is present', () => {
    const p = Prefix.parse('198.18.0.0/24');
    const base: UpdateMessage = { type: 'update', withdrawn: [], attributes: {}, nlri: [] };
    expect(isEndOfRib({ ...base, withdrawn: [p] })).toBeUndefined();
    expect(isEndOfRib({ ...base, nlri: [p] })).toBeUndefined();
    expect(isEndOfRib({ ...base, attributes: { origin: 'igp' } })).toBeUndefined();
    expect(
      isEndOfRib({
        ...base,
        attributes: { mpUnreach: { afi: 2, safi: 1, withdrawn: [Prefix.parse('2001:db8::/32')] } },
      }),
    ).toBeUndefined();
    expect(
      isEndOfRib({
        ...base,
        attributes: { mpUnreach: { afi: 2, safi: 1, withdrawn: [] }, nextHop: IpAddress.parse('198.18.0.1') },
      }),
    ).toBeUndefined();
  });
});
