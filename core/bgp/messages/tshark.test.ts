import { describe, expect, it } from 'vitest';
import { tsharkFrames } from '../../runtime/tshark.test-support.ts';
import { IpAddress, Prefix } from '../../net/index.ts';
import { community, WellKnownCommunity } from '../attributes/communities.ts';
import type { CodecContext } from './context.ts';
import { endOfRib } from './end-of-rib.ts';
import { type BgpMessage, encodeMessage } from './message.ts';
import { ceaseWithCommunication } from './notification.ts';
import type { OpenMessage } from './open.ts';
import { FOUR, TWO } from './test-support.ts';
import type { UpdateMessage } from './update.ts';

// Cross-check against an independent decoder: our encodings are wrapped in Ethernet/IPv4/TCP frames,
// written as a classic pcap file and read back by Wireshark's BGP dissector (tshark).

const ip = (s: string) => IpAddress.parse(s);
const pfx = (s: string) => Prefix.parse(s);

const open4: OpenMessage = {
  type: 'open',
  version: 4,
  myAs: 23456,
  holdTimeSec: 90,
  bgpId: ip('198.18.0.1'),
  capabilities: [
    { code: 'multiprotocol', afi: 1, safi: 1 },
    { code: 'multiprotocol', afi: 2, safi: 1 },
    { code: 'route-refresh' },
    { code: 'four-octet-as', asn: 4_200_000_001 },
    { code: 'enhanced-route-refresh' },
    {
      code: 'graceful-restart',
      restarting: true,
      notification: true,
      restartTimeSec: 120,
      families: [
        { afi: 1, safi: 1, forwardingPreserved: true },
        { afi: 2, safi: 1, forwardingPreserved: false },
      ],
    },
  ],
};

const v4Update: UpdateMessage = {
  type: 'update',
  withdrawn: [pfx('198.18.5.0/24')],
  attributes: {
    origin: 'igp',
    asPath: [
      { type: 'sequence', asns: [4_200_000_001, 64512] },
      { type: 'set', asns: [65001, 65002] },
    ],
    nextHop: ip('198.18.0.1'),
    med: 100,
    localPref: 200,
    communities: [community(64512, 100), WellKnownCommunity.GRACEFUL_SHUTDOWN, WellKnownCommunity.NO_EXPORT],
    largeCommunities: [
      { globalAdmin: 4_200_000_001, localData1: 1, localData2: 2 },
      { globalAdmin: 64512, localData1: 3, localData2: 4 },
    ],
  },
  nlri: [pfx('198.18.10.0/24'), pfx('198.19.0.0/16'), pfx('198.18.128.0/17')],
};

const v6Update: UpdateMessage = {
  type: 'update',
  withdrawn: [],
  attributes: {
    mpReach: {
      afi: 2,
      safi: 1,
      nextHops: [ip('2001:db8::1'), ip('fe80::1')],
      nlri: [pfx('2001:db8:1::/48'), pfx('2001:db8:2::1/128')],
    },
    mpUnreach: { afi: 2, safi: 1, withdrawn: [pfx('2001:db8:ff::/56')] },
    origin: 'incomplete',
    asPath: [{ type: 'sequence', asns: [64512] }],
  },
  nlri: [],
};

const open2: OpenMessage = {
  ...open4,
  myAs: 64512,
  capabilities: [{ code: 'multiprotocol', afi: 1, safi: 1 }],
};

const as4Update: UpdateMessage = {
  type: 'update',
  withdrawn: [],
  attributes: {
    origin: 'egp',
    asPath: [{ type: 'sequence', asns: [64512, 4_200_000_001] }],
    nextHop: ip('198.18.0.1'),
    aggregator: { asn: 4_200_000_001, address: ip('198.18.0.9') },
    unknown: [{ flags: 0xc0, type: 250, value: Uint8Array.of(1, 2, 3) }],
  },
  nlri: [pfx('198.18.20.0/24')],
};

/** Two TCP streams: a session between 4-octet speakers, then one with a 2-octet speaker. */
const STREAMS: { port: number; ctx: CodecContext; messages: BgpMessage[] }[] = [
  {
    port: 40001,
    ctx: FOUR,
    messages: [
      open4,
      v4Update,
      v6Update,
      { type: 'route-refresh', afi: 2, safi: 1, subtype: 1 },
      ceaseWithCommunication(2, 'maintenance'),
      { type: 'keepalive' },
      endOfRib({ afi: 2, safi: 1 }),
    ],
  },
  { port: 40002, ctx: TWO, messages: [open2, as4Update] },
];

function le32(v: number): Uint8Array {
  return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
}

/** One Ethernet/IPv4/TCP frame from 198.18.0.1:`port` to 198.18.0.2:179 (TCP checksum left zero). */
function frame(port: number, seq: number, payload: Uint8Array): Uint8Array {
  const eth = Uint8Array.of(2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00);
  const ipv4 = new Uint8Array(20);
  const total = 40 + payload.length;
  ipv4.set([0x45, 0, total >> 8, total & 0xff, 0, 0, 0x40, 0, 64, 6, 0, 0, 198, 18, 0, 1, 198, 18, 0, 2]);
  let sum = 0;
  for (let i = 0; i < 20; i += 2) sum += (ipv4[i]! << 8) | ipv4[i + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  ipv4[10] = (~sum >> 8) & 0xff;
  ipv4[11] = ~sum & 0xff;
  const tcp = new Uint8Array(20);
  tcp.set([port >> 8, port & 0xff, 0, 179, seq >>> 24, (seq >>> 16) & 0xff, (seq >>> 8) & 0xff, seq & 0xff]);
  tcp.set([0, 0, 0, 1, 0x50, 0x18, 0xff, 0xff], 8);
  return new Uint8Array([...eth, ...ipv4, ...tcp, ...payload]);
}

/** A classic pcap (RFC-draft "pcap" format, microsecond, link type 1 Ethernet), one message per frame. */
function pcap(): Uint8Array {
  const parts: Uint8Array[] = [
    Uint8Array.of(
      0xd4,
      0xc3,
      0xb2,
      0xa1,
      2,
      0,
      4,
      0,
      ...new Array<number>(8).fill(0),
      0xff,
      0xff,
      0,
      0,
      1,
      0,
      0,
      0,
    ),
  ];
  let t = 0;
  for (const s of STREAMS) {
    let seq = 1;
    for (const m of s.messages) {
      const bytes = encodeMessage(m, s.ctx);
      const f = frame(s.port, seq, bytes);
      seq += bytes.length;
      parts.push(le32(++t), le32(0), le32(f.length), le32(f.length), f);
    }
  }
  return new Uint8Array(parts.flatMap((p) => [...p]));
}

const FIELDS = [
  'bgp.type',
  'bgp.open.version',
  'bgp.open.myas',
  'bgp.open.holdtime',
  'bgp.open.identifier',
  'bgp.cap.type',
  'bgp.cap.mp.afi',
  'bgp.cap.mp.safi',
  'bgp.cap.4as',
  'bgp.cap.gr.timers.restart_flag',
  'bgp.cap.gr.timers.notification_flag',
  'bgp.cap.gr.timers.restart_time',
  'bgp.cap.gr.afi',
  'bgp.cap.gr.safi',
  'bgp.cap.gr.flag.pfs',
  'bgp.update.path_attribute.type_code',
  'bgp.update.path_attribute.flags.partial',
  'bgp.update.path_attribute.origin',
  'bgp.update.path_attribute.as_path_segment.type',
  'bgp.update.path_attribute.as_path_segment.as2',
  'bgp.update.path_attribute.as_path_segment.as4',
  'bgp.update.path_attribute.next_hop',
  'bgp.update.path_attribute.multi_exit_disc',
  'bgp.update.path_attribute.local_pref',
  'bgp.update.path_attribute.aggregator_as',
  'bgp.update.path_attribute.aggregator_origin',
  'bgp.update.path_attribute.community_as',
  'bgp.update.path_attribute.community_value',
  'bgp.update.path_attribute.community_wellknown',
  'bgp.large_communities.ga',
  'bgp.large_communities.ldp1',
  'bgp.large_communities.ldp2',
  'bgp.update.path_attribute.mp_reach_nlri.afi',
  'bgp.update.path_attribute.mp_reach_nlri.safi',
  'bgp.update.path_attribute.mp_reach_nlri.next_hop.ipv6',
  'bgp.update.path_attribute.mp_reach_nlri.next_hop.ipv6.link_local',
  'bgp.mp_reach_nlri_ipv6_prefix',
  'bgp.update.path_attribute.mp_unreach_nlri.afi',
  'bgp.mp_unreach_nlri_ipv6_prefix',
  'bgp.prefix_length',
  'bgp.nlri_prefix',
  'bgp.withdrawn_prefix',
  'bgp.route_refresh.afi',
  'bgp.route_refresh.subtype',
  'bgp.route_refresh.safi',
  'bgp.notify.major_error',
  'bgp.notify.minor_error_cease',
  'bgp.notify.communication',
  '_ws.malformed',
];

/** tshark's view of each frame. */
const frames = tsharkFrames('bgp', pcap, FIELDS, ['-d', 'tcp.port==179,bgp']);

const nums = (xs: readonly number[]) => xs.map(String);

describe('tshark decodes our messages as we meant them', () => {
  it('sees every message, none malformed', () => {
    expect(frames().map((f) => f['bgp.type'])).toEqual([
      ['1'],
      ['2'],
      ['2'],
      ['5'],
      ['3'],
      ['4'],
      ['2'],
      ['1'],
      ['2'],
    ]);
    expect(frames().filter((f) => f['_ws.malformed'] !== undefined)).toEqual([]);
  });

  it('OPEN: fixed fields and the capabilities, graceful restart bit by bit', () => {
    const f = frames()[0]!;
    expect(f['bgp.open.version']).toEqual(['4']);
    expect(f['bgp.open.myas']).toEqual(['23456']);
    expect(f['bgp.open.holdtime']).toEqual(['90']);
    expect(f['bgp.open.identifier']).toEqual(['198.18.0.1']);
    expect(f['bgp.cap.type']).toEqual(['1', '1', '2', '65', '70', '64']);
    expect(f['bgp.cap.mp.afi']).toEqual(['1', '2']);
    expect(f['bgp.cap.mp.safi']).toEqual(['1', '1']);
    expect(f['bgp.cap.4as']).toEqual(['4200000001']);
    expect(f['bgp.cap.gr.timers.restart_flag']).toEqual(['1']);
    expect(f['bgp.cap.gr.timers.notification_flag']).toEqual(['1']);
    expect(f['bgp.cap.gr.timers.restart_time']).toEqual(['120']);
    expect(f['bgp.cap.gr.afi']).toEqual(['1', '2']);
    expect(f['bgp.cap.gr.safi']).toEqual(['1', '1']);
    expect(f['bgp.cap.gr.flag.pfs']).toEqual(['1', '0']);
  });

  it('IPv4 UPDATE: AS path, communities, large communities, next hop, prefixes', () => {
    const f = frames()[1]!;
    const a = v4Update.attributes;
    expect(f['bgp.update.path_attribute.type_code']).toEqual(['1', '2', '3', '4', '5', '8', '32']);
    expect(f['bgp.update.path_attribute.origin']).toEqual(['0']);
    expect(f['bgp.update.path_attribute.as_path_segment.type']).toEqual(['2', '1']);
    expect(f['bgp.update.path_attribute.as_path_segment.as4']).toEqual(
      nums(a.asPath!.flatMap((s) => s.asns)),
    );
    expect(f['bgp.update.path_attribute.next_hop']).toEqual(['198.18.0.1']);
    expect(f['bgp.update.path_attribute.multi_exit_disc']).toEqual(['100']);
    expect(f['bgp.update.path_attribute.local_pref']).toEqual(['200']);
    expect(f['bgp.update.path_attribute.community_as']).toEqual(['64512']);
    expect(f['bgp.update.path_attribute.community_value']).toEqual(['100']);
    expect(f['bgp.update.path_attribute.community_wellknown']).toEqual(['0xffff0000', '0xffffff01']);
    expect(f['bgp.large_communities.ga']).toEqual(nums(a.largeCommunities!.map((c) => c.globalAdmin)));
    expect(f['bgp.large_communities.ldp1']).toEqual(nums(a.largeCommunities!.map((c) => c.localData1)));
    expect(f['bgp.large_communities.ldp2']).toEqual(nums(a.largeCommunities!.map((c) => c.localData2)));
    expect(f['bgp.withdrawn_prefix']).toEqual(['198.18.5.0']);
    expect(f['bgp.nlri_prefix']).toEqual(v4Update.nlri.map((p) => p.network.toString()));
    expect(f['bgp.prefix_length']).toEqual(
      nums([...v4Update.withdrawn, ...v4Update.nlri].map((p) => p.length)),
    );
  });

  it('IPv6 UPDATE: MP_REACH_NLRI global and link-local next hops and prefixes, MP_UNREACH_NLRI first', () => {
    const f = frames()[2]!;
    expect(f['bgp.update.path_attribute.type_code']).toEqual(['14', '15', '1', '2']);
    expect(f['bgp.update.path_attribute.mp_reach_nlri.afi']).toEqual(['2']);
    expect(f['bgp.update.path_attribute.mp_reach_nlri.safi']).toEqual(['1']);
    expect(f['bgp.update.path_attribute.mp_reach_nlri.next_hop.ipv6']).toEqual(['2001:db8::1']);
    expect(f['bgp.update.path_attribute.mp_reach_nlri.next_hop.ipv6.link_local']).toEqual(['fe80::1']);
    expect(f['bgp.mp_reach_nlri_ipv6_prefix']).toEqual(['2001:db8:1::', '2001:db8:2::1']);
    expect(f['bgp.update.path_attribute.mp_unreach_nlri.afi']).toEqual(['2']);
    expect(f['bgp.mp_unreach_nlri_ipv6_prefix']).toEqual(['2001:db8:ff::']);
    expect(f['bgp.prefix_length']).toEqual(['48', '128', '56']);
    expect(f['bgp.update.path_attribute.origin']).toEqual(['2']);
  });

  it('ROUTE-REFRESH BoRR, NOTIFICATION with shutdown communication, End-of-RIB', () => {
    expect([
      frames()[3]!['bgp.route_refresh.afi'],
      frames()[3]!['bgp.route_refresh.subtype'],
      frames()[3]!['bgp.route_refresh.safi'],
    ]).toEqual([['2'], ['1'], ['1']]);
    expect(frames()[4]!['bgp.notify.major_error']).toEqual(['6']);
    expect(frames()[4]!['bgp.notify.minor_error_cease']).toEqual(['2']);
    expect(frames()[4]!['bgp.notify.communication']).toEqual(['maintenance']);
    expect(frames()[6]!['bgp.update.path_attribute.type_code']).toEqual(['15']);
    expect(frames()[6]!['bgp.update.path_attribute.mp_unreach_nlri.afi']).toEqual(['2']);
    expect(frames()[6]!['bgp.mp_unreach_nlri_ipv6_prefix']).toBeUndefined();
  });

  it('to a 2-octet speaker: AS_TRANS in AS_PATH and AGGREGATOR, the real values in AS4_PATH and AS4_AGGREGATOR', () => {
    expect(frames()[7]!['bgp.open.myas']).toEqual(['64512']);
    expect(frames()[7]!['bgp.cap.4as']).toBeUndefined();
    const f = frames()[8]!;
    expect(f['bgp.update.path_attribute.type_code']).toEqual(['1', '2', '3', '7', '17', '18', '250']);
    expect(f['bgp.update.path_attribute.as_path_segment.as2']).toEqual(['64512', '23456']);
    expect(f['bgp.update.path_attribute.as_path_segment.as4']).toEqual(['64512', '4200000001']);
    expect(f['bgp.update.path_attribute.aggregator_as']).toEqual(['23456', '4200000001']);
    expect(f['bgp.update.path_attribute.aggregator_origin']).toEqual(['198.18.0.9', '198.18.0.9']);
    // RFC 4271 §5: only the unknown optional transitive attribute we pass on is marked Partial.
    expect(f['bgp.update.path_attribute.flags.partial']).toEqual(['0', '0', '0', '0', '0', '0', '1']);
  });
});
