import { hex } from './test-support.ts';

// Known-good frames written out by hand from the RFC layouts, for the unit and fuzz tests. Lab addresses
// only: 198.18.0.0/15, 2001:db8::/32, locally administered 02:xx MACs. Checksums were worked out
// independently of this codec (and are recomputed in the tests by a separate one's-complement sum).

const PAD18 = '00'.repeat(18);

/** Gratuitous ARP, request form (RFC 5227 §3): 198.18.100.1 is at 02:00:00:00:00:01. */
export const GARP_REQUEST = hex(`
  ff ff ff ff ff ff | 02 00 00 00 00 01 | 08 06
  00 01 | 08 00 | 06 | 04 | 00 01
  02 00 00 00 00 01 | c6 12 64 01
  00 00 00 00 00 00 | c6 12 64 01
  ${PAD18}`);

/** Gratuitous ARP, reply form: op 2, target MAC broadcast. */
export const GARP_REPLY = hex(`
  ff ff ff ff ff ff | 02 00 00 00 00 01 | 08 06
  00 01 | 08 00 | 06 | 04 | 00 02
  02 00 00 00 00 01 | c6 12 64 01
  ff ff ff ff ff ff | c6 12 64 01
  ${PAD18}`);

/** 198.18.100.2 (02:00:00:00:00:02) asks who has 198.18.100.1, on VLAN 100 with priority 5. */
export const ARP_REQUEST_VLAN = hex(`
  ff ff ff ff ff ff | 02 00 00 00 00 02 | 81 00 | a0 64 | 08 06
  00 01 | 08 00 | 06 | 04 | 00 01
  02 00 00 00 00 02 | c6 12 64 02
  00 00 00 00 00 00 | c6 12 64 01
  ${PAD18}`);

/** The reply from 02:00:00:00:00:01, unicast back on VLAN 100. */
export const ARP_REPLY_VLAN = hex(`
  02 00 00 00 00 02 | 02 00 00 00 00 01 | 81 00 | a0 64 | 08 06
  00 01 | 08 00 | 06 | 04 | 00 02
  02 00 00 00 00 01 | c6 12 64 01
  02 00 00 00 00 02 | c6 12 64 02
  ${PAD18}`);

const V6_2001_DB8_1 = '20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01';
const V6_2001_DB8_2 = '20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02';
const V6_SOLICITED_1 = 'ff 02 00 00 00 00 00 00 00 00 00 01 ff 00 00 01';
const V6_ALL_NODES = 'ff 02 00 00 00 00 00 00 00 00 00 00 00 00 00 01';
const V6_UNSPECIFIED = '00'.repeat(16);

/** Offset of the IPv6 header and of the ICMPv6 checksum in the untagged NDP vectors below. */
export const IPV6_AT = 14;
export const ICMP_CHECKSUM_AT = 14 + 40 + 2;

/**
 * NS from 2001:db8::2 (02:00:00:00:00:02) resolving 2001:db8::1: to ff02::1:ff00:1 on 33:33:ff:00:00:01,
 * hop limit 255, payload 32 bytes, source link-layer address option. Checksum 0x1c27.
 */
export const NS = hex(`
  33 33 ff 00 00 01 | 02 00 00 00 00 02 | 86 dd
  60 00 00 00 | 00 20 | 3a | ff
  ${V6_2001_DB8_2}
  ${V6_SOLICITED_1}
  87 | 00 | 1c 27 | 00 00 00 00
  ${V6_2001_DB8_1}
  01 | 01 | 02 00 00 00 00 02`);

/** Duplicate Address Detection NS for 2001:db8::1: from ::, no options. Checksum 0x4ced. */
export const NS_DAD = hex(`
  33 33 ff 00 00 01 | 02 00 00 00 00 02 | 86 dd
  60 00 00 00 | 00 18 | 3a | ff
  ${V6_UNSPECIFIED}
  ${V6_SOLICITED_1}
  87 | 00 | 4c ed | 00 00 00 00
  ${V6_2001_DB8_1}`);

/**
 * Solicited NA answering NS: 2001:db8::1 → 2001:db8::2, S and O set, target link-layer address
 * 02:00:00:00:00:01. Checksum 0x8a73.
 */
export const NA_SOLICITED = hex(`
  02 00 00 00 00 02 | 02 00 00 00 00 01 | 86 dd
  60 00 00 00 | 00 20 | 3a | ff
  ${V6_2001_DB8_1}
  ${V6_2001_DB8_2}
  88 | 00 | 8a 73 | 60 00 00 00
  ${V6_2001_DB8_1}
  02 | 01 | 02 00 00 00 00 01`);

/** Unsolicited NA taking 2001:db8::1 over: to ff02::1 on 33:33:00:00:00:01, O set, S clear. Checksum 0xf92a. */
export const NA_UNSOLICITED = hex(`
  33 33 00 00 00 01 | 02 00 00 00 00 01 | 86 dd
  60 00 00 00 | 00 20 | 3a | ff
  ${V6_2001_DB8_1}
  ${V6_ALL_NODES}
  88 | 00 | f9 2a | 20 00 00 00
  ${V6_2001_DB8_1}
  02 | 01 | 02 00 00 00 00 01`);
