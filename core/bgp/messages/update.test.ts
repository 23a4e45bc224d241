import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import { ErrorCode, UpdateErrorSubcode as S } from '../wire-error.ts';
import type { CodecContext } from './context.ts';
import { decodeMessage, encodeMessage } from './message.ts';
import { decodeError, expectWireError, FOUR, toHex, TWO, update } from './test-support.ts';
import type { UpdateMessage } from './update.ts';

const ip = (s: string) => IpAddress.parse(s);
const pfx = (s: string) => Prefix.parse(s);
const UPD = ErrorCode.updateMessage;

// Valid attributes for an IPv4 announcement, 4-octet AS numbers.
const ORIGIN = '40 01 01 00';
const AS_PATH = '40 02 06 02 01 0000fc00';
const NEXT_HOP = '40 03 04 c6120001';
const BASE = `${ORIGIN} ${AS_PATH} ${NEXT_HOP}`;
const NLRI = '18 c6120a'; // 198.18.10.0/24
const MP_REACH_V6 = '80 0e 1c 0002 01 10 20010db8000000000000000000000001 00 30 20010db80001';

function decodeUpdate(bytes: Uint8Array, ctx: CodecContext = FOUR): UpdateMessage {
  const m = decodeMessage(bytes, ctx);
  expect(m.type).toBe('update');
  return m as UpdateMessage;
}

describe('UPDATE (RFC 4271 §4.3)', () => {
  const full: UpdateMessage = {
    type: 'update',
    withdrawn: [pfx('198.18.5.0/24')],
    attributes: {
      origin: 'igp',
      asPath: [{ type: 'sequence', asns: [64512, 4_200_000_001] }],
      nextHop: ip('198.18.0.1'),
      med: 100,
      communities: [0xfc000064, 0xffffff01],
      largeCommunities: [{ globalAdmin: 4_200_000_001, localData1: 1, localData2: 2 }],
    },
    nlri: [pfx('198.18.10.0/24'), pfx('198.19.0.0/16'), pfx('198.18.128.0/17')],
  };

  it('encodes to the exact bytes between 4-octet speakers and decodes back', () => {
    const bytes = update(
      '18 c61205',
      `40 01 01 00 | 40 02 0a 02 02 0000fc00 fa56ea01 | 40 03 04 c6120001 | 80 04 04 00000064
       | c0 08 08 fc000064 ffffff01 | c0 20 0c fa56ea01 00000001 00000002`,
      '18 c6120a | 10 c613 | 11 c61280',
    );
    expect(bytes.length).toBe(95);
    expect(toHex(encodeMessage(full, FOUR))).toBe(toHex(bytes));
    expect(decodeUpdate(bytes)).toEqual(full);
  });

  it('encodes to the exact bytes for a 2-octet speaker (AS_TRANS + AS4_PATH) and decodes back', () => {
    const bytes = update(
      '18 c61205',
      `40 01 01 00 | 40 02 06 02 02 fc00 5ba0 | 40 03 04 c6120001 | 80 04 04 00000064
       | c0 08 08 fc000064 ffffff01 | c0 11 0a 02 02 0000fc00 fa56ea01 | c0 20 0c fa56ea01 00000001 00000002`,
      '18 c6120a | 10 c613 | 11 c61280',
    );
    expect(toHex(encodeMessage(full, TWO))).toBe(toHex(bytes));
    expect(decodeUpdate(bytes, TWO)).toEqual(full);
  });

  it('ignores the bits after the prefix length (RFC 4271 §4.3)', () => {
    expect(decodeUpdate(update('', BASE, '17 c6120b')).nlri).toEqual([pfx('198.18.10.0/23')]);
  });

  it('decodes a withdrawal-only UPDATE without attributes', () => {
    expect(decodeUpdate(update('18 c61205 | 00', ''))).toEqual({
      type: 'update',
      withdrawn: [pfx('198.18.5.0/24'), pfx('0.0.0.0/0')],
      attributes: {},
      nlri: [],
    });
  });

  it('decodes an IPv6-only UPDATE without NEXT_HOP (RFC 4760 §3)', () => {
    const m = decodeUpdate(update('', `${MP_REACH_V6} ${ORIGIN} ${AS_PATH}`));
    expect(m.treatAsWithdraw).toBeUndefined();
    expect(m.attributes.mpReach?.nlri).toEqual([pfx('2001:db8:1::/48')]);
  });

  it('refuses to encode IPv6 prefixes in the IPv4 fields', () => {
    expect(() =>
      encodeMessage({ type: 'update', withdrawn: [], attributes: {}, nlri: [pfx('2001:db8::/32')] }, FOUR),
    ).toThrow(/IPv4 prefix/);
  });

  it('refuses to encode an UPDATE above 4096 octets', () => {
    const nlri = Array.from({ length: 1100 }, (_, i) => Prefix.of(ip('198.18.0.0').add(BigInt(i) << 8n), 24));
    expect(() => encodeMessage({ type: 'update', withdrawn: [], attributes: {}, nlri }, FOUR)).toThrow(
      /4096/,
    );
  });
});

describe('UPDATE errors: session reset (RFC 4271 §6.3, RFC 7606 §3, §5.3)', () => {
  it('Withdrawn Routes Length overrunning the message: Malformed Attribute List', () => {
    const bytes = update('18 c61205', '');
    bytes[20] = 0x40;
    expectWireError(decodeError(bytes), {
      errorCode: UPD,
      subcode: S.malformedAttributeList,
      handling: 'session-reset',
    });
  });

  it('Total Path Attribute Length overrunning the message: Malformed Attribute List', () => {
    const bytes = update('', BASE);
    bytes[22] = 0x40;
    expectWireError(decodeError(bytes), {
      errorCode: UPD,
      subcode: S.malformedAttributeList,
      handling: 'session-reset',
    });
  });

  it('an NLRI prefix longer than 32 bits: Invalid Network Field', () => {
    expectWireError(decodeError(update('', BASE, '21 c6120a0000')), {
      errorCode: UPD,
      subcode: S.invalidNetworkField,
      handling: 'session-reset',
    });
  });

  it('an NLRI field ending inside a prefix: Invalid Network Field', () => {
    expectWireError(decodeError(update('', BASE, '18 c612')), {
      errorCode: UPD,
      subcode: S.invalidNetworkField,
      handling: 'session-reset',
    });
  });

  it('a malformed Withdrawn Routes field: Invalid Network Field (RFC 7606 §5.3)', () => {
    expectWireError(decodeError(update('20 c612', '')), {
      errorCode: UPD,
      subcode: S.invalidNetworkField,
      handling: 'session-reset',
    });
    expectWireError(decodeError(update('28 c6120a0000', '')), {
      errorCode: UPD,
      subcode: S.invalidNetworkField,
      handling: 'session-reset',
    });
  });

  it('an unrecognised well-known attribute: Unrecognized Well-known Attribute, data = the attribute', () => {
    expectWireError(decodeError(update('', `${BASE} 40 63 01 00`, NLRI)), {
      errorCode: UPD,
      subcode: S.unrecognizedWellKnownAttribute,
      handling: 'session-reset',
      data: '40 63 01 00',
    });
  });

  for (const [name, attr] of [
    ['MP_REACH_NLRI', MP_REACH_V6],
    ['MP_UNREACH_NLRI', '80 0f 03 0002 01'],
  ]) {
    it(`${name} twice: Malformed Attribute List (RFC 7606 §3)`, () => {
      expectWireError(decodeError(update('', `${attr} ${attr} ${ORIGIN} ${AS_PATH}`)), {
        errorCode: UPD,
        subcode: S.malformedAttributeList,
        handling: 'session-reset',
      });
    });
  }

  const mpCases: [string, string][] = [
    [
      'an IPv6 next hop of 24 octets',
      '80 0e 24 0002 01 18 20010db8000000000000000000000001 0000000000000000 00 30 20010db80001',
    ],
    ['an IPv4 next hop of 16 octets', '80 0e 15 0001 01 10 20010db8000000000000000000000001 00'],
    ['a next hop running past the attribute', '80 0e 05 0002 01 10 00'],
    ['fewer than 5 octets', '80 0e 04 0002 01 00'],
    ['an NLRI prefix of 129 bits', '80 0e 1a 0002 01 10 20010db8000000000000000000000001 00 81 20010db8'],
    ['an NLRI prefix cut short', '80 0e 1a 0002 01 10 20010db8000000000000000000000001 00 30 20010db8'],
    ['a family other than IPv4/IPv6 unicast', '80 0e 0d 0001 80 04 c6120001 00 18 c6120a'],
    ['MP_UNREACH_NLRI shorter than 3 octets', '80 0f 02 0002'],
    ['MP_UNREACH_NLRI with a prefix of 129 bits', '80 0f 06 0002 01 81 2001'],
    ['MP_UNREACH_NLRI withdrawing an unsupported family', '80 0f 07 0019 41 18 c6120a'],
  ];
  for (const [name, attr] of mpCases) {
    it(`MP attribute with ${name}: Optional Attribute Error, data = the attribute (RFC 7606 §7.11)`, () => {
      expectWireError(decodeError(update('', `${attr} ${ORIGIN} ${AS_PATH}`)), {
        errorCode: UPD,
        subcode: S.optionalAttributeError,
        handling: 'session-reset',
        data: attr,
      });
    });
  }

  it('MP_REACH_NLRI with the Transitive flag: Attribute Flags Error, session reset', () => {
    const attr = MP_REACH_V6.replace(/^80/, 'c0');
    expectWireError(decodeError(update('', `${attr} ${ORIGIN} ${AS_PATH}`)), {
      errorCode: UPD,
      subcode: S.attributeFlagsError,
      handling: 'session-reset',
      data: attr,
    });
  });

  it('MP_REACH_NLRI overrunning the attributes: session reset (its NLRI cannot be found)', () => {
    expectWireError(decodeError(update('', `${ORIGIN} ${AS_PATH} 80 0e 40 0002 01`)), {
      errorCode: UPD,
      subcode: S.malformedAttributeList,
      handling: 'session-reset',
    });
  });

  it('the strongest approach wins: a reset after a treat-as-withdraw error throws (RFC 7606 §3)', () => {
    expectWireError(decodeError(update('', `40 01 01 07 ${AS_PATH} ${NEXT_HOP} 40 63 00`, NLRI)), {
      errorCode: UPD,
      subcode: S.unrecognizedWellKnownAttribute,
      handling: 'session-reset',
    });
  });
});

describe('UPDATE errors: treat-as-withdraw (RFC 7606)', () => {
  const withdrawCases: [string, string, number, string | undefined][] = [
    // [name, replacement attributes, subcode, data]
    [
      'ORIGIN of 2 octets (§7.1)',
      `40 01 02 0000 ${AS_PATH} ${NEXT_HOP}`,
      S.attributeLengthError,
      '40 01 02 0000',
    ],
    [
      'ORIGIN value 3 (§7.1, RFC 4271 §6.3)',
      `40 01 01 03 ${AS_PATH} ${NEXT_HOP}`,
      S.invalidOriginAttribute,
      '40 01 01 03',
    ],
    [
      'AS_PATH with segment type 5 (§7.2)',
      `${ORIGIN} 40 02 06 05 01 0000fc00 ${NEXT_HOP}`,
      S.malformedAsPath,
      '',
    ],
    [
      'AS_PATH with a zero-length segment (§7.2)',
      `${ORIGIN} 40 02 02 02 00 ${NEXT_HOP}`,
      S.malformedAsPath,
      '',
    ],
    [
      'AS_PATH with an overrunning segment (§7.2)',
      `${ORIGIN} 40 02 06 02 02 0000fc00 ${NEXT_HOP}`,
      S.malformedAsPath,
      '',
    ],
    [
      'AS_PATH with one octet after the last segment (§7.2)',
      `${ORIGIN} 40 02 07 02 01 0000fc00 02 ${NEXT_HOP}`,
      S.malformedAsPath,
      '',
    ],
    [
      'AS_PATH with 2-octet AS numbers between 4-octet speakers',
      `${ORIGIN} 40 02 04 02 01 fc00 ${NEXT_HOP}`,
      S.malformedAsPath,
      '',
    ],
    [
      'NEXT_HOP of 5 octets (§7.3)',
      `${ORIGIN} ${AS_PATH} 40 03 05 c612000100`,
      S.attributeLengthError,
      '40 03 05 c612000100',
    ],
    [
      'NEXT_HOP 0.0.0.0 (RFC 4271 §6.3)',
      `${ORIGIN} ${AS_PATH} 40 03 04 00000000`,
      S.invalidNextHopAttribute,
      '40 03 04 00000000',
    ],
    [
      'NEXT_HOP multicast 224.0.0.5',
      `${ORIGIN} ${AS_PATH} 40 03 04 e0000005`,
      S.invalidNextHopAttribute,
      '40 03 04 e0000005',
    ],
    [
      'NEXT_HOP 255.255.255.255',
      `${ORIGIN} ${AS_PATH} 40 03 04 ffffffff`,
      S.invalidNextHopAttribute,
      '40 03 04 ffffffff',
    ],
    [
      'MULTI_EXIT_DISC of 3 octets (§7.4)',
      `${BASE} 80 04 03 000064`,
      S.attributeLengthError,
      '80 04 03 000064',
    ],
    ['LOCAL_PREF of 2 octets (§7.5)', `${BASE} 40 05 02 0064`, S.attributeLengthError, '40 05 02 0064'],
    [
      'COMMUNITIES of 6 octets (§7.8)',
      `${BASE} c0 08 06 fc0000640000`,
      S.attributeLengthError,
      'c0 08 06 fc0000640000',
    ],
    ['COMMUNITIES of 0 octets (§7.8)', `${BASE} c0 08 00`, S.attributeLengthError, 'c0 08 00'],
    [
      'LARGE_COMMUNITY of 13 octets (RFC 8092 §6)',
      `${BASE} c0 20 0d 0000fc00 00000001 00000002 00`,
      S.attributeLengthError,
      'c0 20 0d 0000fc00 00000001 00000002 00',
    ],
    ['LARGE_COMMUNITY of 0 octets (RFC 8092 §6)', `${BASE} c0 20 00`, S.attributeLengthError, 'c0 20 00'],
    [
      'ORIGIN flagged optional (§3)',
      `c0 01 01 00 ${AS_PATH} ${NEXT_HOP}`,
      S.attributeFlagsError,
      'c0 01 01 00',
    ],
    [
      'AS_PATH flagged non-transitive (§3)',
      `${ORIGIN} 00 02 06 02 01 0000fc00 ${NEXT_HOP}`,
      S.attributeFlagsError,
      '00 02 06 02 01 0000fc00',
    ],
    [
      'MULTI_EXIT_DISC flagged transitive (§3)',
      `${BASE} c0 04 04 00000064`,
      S.attributeFlagsError,
      'c0 04 04 00000064',
    ],
    [
      'AGGREGATOR flagged non-transitive (§3)',
      `${BASE} 80 07 08 0000fc00 c6120001`,
      S.attributeFlagsError,
      '80 07 08 0000fc00 c6120001',
    ],
    [
      'COMMUNITIES flagged well-known (§3)',
      `${BASE} 40 08 04 fc000064`,
      S.attributeFlagsError,
      '40 08 04 fc000064',
    ],
    ['a missing ORIGIN (§3)', `${AS_PATH} ${NEXT_HOP}`, S.missingWellKnownAttribute, '01'],
    ['a missing AS_PATH (§3)', `${ORIGIN} ${NEXT_HOP}`, S.missingWellKnownAttribute, '02'],
    ['a missing NEXT_HOP with IPv4 NLRI (§3)', `${ORIGIN} ${AS_PATH}`, S.missingWellKnownAttribute, '03'],
    [
      'an attribute overrunning the attributes field (§4)',
      `${BASE} c0 08 08 fc000064`,
      S.malformedAttributeList,
      '',
    ],
    ['two octets left after the last attribute (§4)', `${BASE} c0 08`, S.malformedAttributeList, ''],
    ['an extended-length header cut short (§4)', `${BASE} d0 08 00`, S.malformedAttributeList, ''],
  ];
  for (const [name, attrs, subcode, data] of withdrawCases) {
    it(`${name}: the UPDATE stands as a withdrawal of its NLRI`, () => {
      const m = decodeUpdate(update('18 c61205', attrs, NLRI));
      expectWireError(m.treatAsWithdraw, { errorCode: UPD, subcode, handling: 'treat-as-withdraw', data });
      // The routes are still reported, so the RIB can withdraw them.
      expect(m.nlri).toEqual([pfx('198.18.10.0/24')]);
      expect(m.withdrawn).toEqual([pfx('198.18.5.0/24')]);
    });
  }

  it('withdraws MP_REACH_NLRI prefixes too: they stay in the message', () => {
    const m = decodeUpdate(update('', `${MP_REACH_V6} ${ORIGIN} 40 02 02 02 00`));
    expectWireError(m.treatAsWithdraw, {
      errorCode: UPD,
      subcode: S.malformedAsPath,
      handling: 'treat-as-withdraw',
    });
    expect(m.attributes.mpReach?.nlri).toEqual([pfx('2001:db8:1::/48')]);
  });

  it('a missing ORIGIN with only MP_REACH_NLRI routes is treat-as-withdraw too', () => {
    const m = decodeUpdate(update('', `${MP_REACH_V6} ${AS_PATH}`));
    expectWireError(m.treatAsWithdraw, {
      errorCode: UPD,
      subcode: S.missingWellKnownAttribute,
      handling: 'treat-as-withdraw',
      data: '01',
    });
  });

  it('keeps the first error when several call for treat-as-withdraw', () => {
    const m = decodeUpdate(update('', `40 01 01 09 ${AS_PATH} 40 03 04 00000000`, NLRI));
    expect(m.treatAsWithdraw?.subcode).toBe(S.invalidOriginAttribute);
  });

  it('reports attribute-discard errors alongside treat-as-withdraw (the strongest decides the routes)', () => {
    const m = decodeUpdate(update('', `40 01 01 09 ${AS_PATH} ${NEXT_HOP} 40 06 01 00`, NLRI));
    expect(m.treatAsWithdraw?.subcode).toBe(S.invalidOriginAttribute);
    expect(m.discarded?.map((e) => e.handling)).toEqual(['attribute-discard']);
  });
});

describe('UPDATE errors: attribute discard (RFC 7606, RFC 6793 §6)', () => {
  const discardCases: [string, string, CodecContext, number, string][] = [
    [
      'ATOMIC_AGGREGATE of 1 octet (RFC 7606 §7.6)',
      '40 06 01 00',
      FOUR,
      S.attributeLengthError,
      '40 06 01 00',
    ],
    [
      'AGGREGATOR of 7 octets, 4-octet session (RFC 7606 §7.7)',
      'c0 07 07 00fc00 c6120001',
      FOUR,
      S.attributeLengthError,
      'c0 07 07 00fc00 c6120001',
    ],
    [
      'AGGREGATOR of 8 octets, 2-octet session (RFC 7606 §7.7)',
      'c0 07 08 0000fc00 c6120001',
      TWO,
      S.attributeLengthError,
      'c0 07 08 0000fc00 c6120001',
    ],
    [
      'AS4_AGGREGATOR of 6 octets (RFC 6793 §6)',
      'c0 07 06 5ba0 c6120001 c0 12 06 fc00 c6120001',
      TWO,
      S.attributeLengthError,
      'c0 12 06 fc00 c6120001',
    ],
    [
      'AS4_PATH of odd length (RFC 6793 §6)',
      'c0 11 07 02 01 fa56ea01 00',
      TWO,
      S.optionalAttributeError,
      'c0 11 07 02 01 fa56ea01 00',
    ],
    [
      'AS4_PATH of 4 octets (RFC 6793 §6)',
      'c0 11 04 02 01 fa56',
      TWO,
      S.optionalAttributeError,
      'c0 11 04 02 01 fa56',
    ],
    [
      'AS4_PATH with a zero-length segment (RFC 6793 §6)',
      'c0 11 08 02 00 02 01 fa56ea01',
      TWO,
      S.optionalAttributeError,
      'c0 11 08 02 00 02 01 fa56ea01',
    ],
    [
      'AS4_PATH with segment type 9 (RFC 6793 §6)',
      'c0 11 06 09 01 fa56ea01',
      TWO,
      S.optionalAttributeError,
      'c0 11 06 09 01 fa56ea01',
    ],
    [
      'AS4_PATH flagged well-known (RFC 6793 §6)',
      '40 11 06 02 01 fa56ea01',
      TWO,
      S.attributeFlagsError,
      '40 11 06 02 01 fa56ea01',
    ],
    [
      'AS4_PATH between 4-octet speakers (RFC 6793 §6)',
      'c0 11 06 02 01 fa56ea01',
      FOUR,
      S.optionalAttributeError,
      'c0 11 06 02 01 fa56ea01',
    ],
    [
      'AS4_AGGREGATOR between 4-octet speakers (RFC 6793 §6)',
      'c0 12 08 fa56ea01 c6120001',
      FOUR,
      S.optionalAttributeError,
      'c0 12 08 fa56ea01 c6120001',
    ],
    [
      'a repeated COMMUNITIES (RFC 7606 §3)',
      'c0 08 04 fc000064 c0 08 04 fc0000c8',
      FOUR,
      S.malformedAttributeList,
      'c0 08 04 fc0000c8',
    ],
  ];
  for (const [name, extra, ctx, subcode, data] of discardCases) {
    it(`${name}: the attribute is dropped, the routes stand`, () => {
      const asPath = ctx.fourOctetAs ? AS_PATH : '40 02 04 02 01 fc00';
      const m = decodeUpdate(update('', `${ORIGIN} ${asPath} ${NEXT_HOP} ${extra}`, NLRI), ctx);
      expect(m.treatAsWithdraw).toBeUndefined();
      expect(m.discarded).toHaveLength(1);
      expectWireError(m.discarded![0], { errorCode: UPD, subcode, handling: 'attribute-discard', data });
      expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [64512] }]);
      expect(m.nlri).toEqual([pfx('198.18.10.0/24')]);
    });
  }

  it('keeps the first of repeated attributes', () => {
    const m = decodeUpdate(update('', `${BASE} c0 08 04 fc000064 c0 08 04 fc0000c8`, NLRI));
    expect(m.attributes.communities).toEqual([0xfc000064]);
  });

  it('demotes a malformed NEXT_HOP to attribute discard when there is no IPv4 NLRI (RFC 4760 §3)', () => {
    const m = decodeUpdate(update('', `${MP_REACH_V6} ${ORIGIN} ${AS_PATH} 40 03 04 00000000`));
    expect(m.treatAsWithdraw).toBeUndefined();
    expectWireError(m.discarded?.[0], {
      errorCode: UPD,
      subcode: S.invalidNextHopAttribute,
      handling: 'attribute-discard',
    });
  });

  it('drops confederation segments from AS4_PATH and merges the rest (RFC 6793 §6)', () => {
    const m = decodeUpdate(
      update('', `${ORIGIN} 40 02 04 02 01 5ba0 ${NEXT_HOP} c0 11 0c 03 01 0000fe4c 02 01 fa56ea01`, NLRI),
      TWO,
    );
    expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [4_200_000_001] }]);
    expect(m.discarded).toBeUndefined();
  });
});

describe('AS4 attributes from a 2-octet speaker (RFC 6793 §4.2.3)', () => {
  const AS_PATH_TRANS = '40 02 06 02 02 fde9 5ba0'; // 65001 AS_TRANS
  const AS4_PATH = 'c0 11 06 02 01 fa56ea01'; // 4200000001

  it('merges AS4_PATH into AS_PATH', () => {
    const m = decodeUpdate(update('', `${ORIGIN} ${AS_PATH_TRANS} ${NEXT_HOP} ${AS4_PATH}`, NLRI), TWO);
    expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [65001, 4_200_000_001] }]);
  });

  it('takes the aggregator from AS4_AGGREGATOR when AGGREGATOR names AS_TRANS', () => {
    const m = decodeUpdate(
      update(
        '',
        `${ORIGIN} ${AS_PATH_TRANS} ${NEXT_HOP} c0 07 06 5ba0 c6120009 ${AS4_PATH} c0 12 08 fa56ea01 c6120009`,
        NLRI,
      ),
      TWO,
    );
    expect(m.attributes.aggregator).toEqual({ asn: 4_200_000_001, address: ip('198.18.0.9') });
    expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [65001, 4_200_000_001] }]);
  });

  it('ignores AS4_AGGREGATOR and AS4_PATH when AGGREGATOR names a real AS', () => {
    const m = decodeUpdate(
      update(
        '',
        `${ORIGIN} ${AS_PATH_TRANS} ${NEXT_HOP} c0 07 06 fde9 c6120009 ${AS4_PATH} c0 12 08 fa56ea01 c6120009`,
        NLRI,
      ),
      TWO,
    );
    expect(m.attributes.aggregator).toEqual({ asn: 65001, address: ip('198.18.0.9') });
    expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [65001, 23456] }]);
  });

  it('keeps AS_TRANS when a malformed AS4_PATH was discarded', () => {
    const m = decodeUpdate(
      update('', `${ORIGIN} ${AS_PATH_TRANS} ${NEXT_HOP} c0 11 05 02 01 fa56ea`, NLRI),
      TWO,
    );
    expect(m.attributes.asPath).toEqual([{ type: 'sequence', asns: [65001, 23456] }]);
    expect(m.discarded).toHaveLength(1);
  });
});
