import { describe, expect, it } from 'vitest';
import { Prefix } from '../../core/net/index.ts';
import { allocate } from './allocate.ts';
import { labRanges } from './lab-ranges.ts';
import { errorsOf, nodeOf, topologyOf, wiringOf } from './test-support.ts';

const segmentsOf = (t: ReturnType<typeof topologyOf>) =>
  t.segments.map((s) => `${s.name} ${s.kind} ${s.ipv4} ${s.ipv6}`);

describe('subnets', () => {
  it('gives segments without subnets the lowest free /24 and /64, in file order, skipping given ones', () => {
    const t = topologyOf({
      defaults: { links: ['a', 'b', 'c', 'd'] },
      segments: {
        a: {},
        b: { ipv4: '198.18.0.0/24', ipv6: '2001:db8::/64' },
        c: { ipv6: '2001:db8:0:2::/63' },
        d: {},
      },
      nodes: { n1: {} },
    });
    expect(segmentsOf(t)).toEqual([
      'a l2 198.18.1.0/24 2001:db8:0:1::/64',
      'b l2 198.18.0.0/24 2001:db8::/64',
      'c l2 198.18.2.0/24 2001:db8:0:2::/63',
      'd l2 198.18.3.0/24 2001:db8:0:4::/64',
    ]);
  });

  it('gives an automatic segment a larger block when its hosts need one', () => {
    const nodes = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`n${i + 1}`, {}]));
    const t = topologyOf({ defaults: { links: ['big', 'small'] }, segments: { small: {}, big: {} }, nodes });
    expect(segmentsOf(t)).toEqual([
      // 300 hosts from offset 11 need a /23; declared order decides who gets the lower block.
      'small l2 198.18.0.0/23 2001:db8::/64',
      'big l2 198.18.2.0/23 2001:db8:0:1::/64',
    ]);
    expect(wiringOf(t, 'n300')).toEqual([
      'eth0 big 198.18.3.54/23 2001:db8:0:1::136/64',
      'eth1 small 198.18.1.54/23 2001:db8::136/64',
    ]);
  });

  it('refuses a given subnet too small for its hosts', () => {
    expect(
      errorsOf({
        defaults: { links: ['lan'] },
        segments: { lan: { ipv4: '198.18.0.0/28' } },
        nodes: { r1: { kind: 'router' }, n1: {}, n2: {}, n3: {}, n4: {}, n5: {} },
      }),
    ).toEqual([
      '/labs/lab.yaml: document 0 (Topology "lab"): segments.lan.ipv4: 198.18.0.0/28 is too small for its 6 hosts, which take offsets up to 15 (routers from 1, other hosts from 11)',
    ]);
  });

  it('allocates the lowest aligned free block, past every block in use', () => {
    const used = ['198.18.0.0/24', '198.18.1.128/25', '198.18.4.0/22'].map((p) => Prefix.parse(p));
    expect(String(allocate(labRanges[4], 24, used))).toBe('198.18.2.0/24');
    expect(String(allocate(labRanges[4], 23, used))).toBe('198.18.2.0/23');
    expect(String(allocate(labRanges[4], 22, used))).toBe('198.18.8.0/22');
    expect(String(allocate(labRanges[4], 30, used))).toBe('198.18.1.0/30');
    expect(allocate(labRanges[4], 15, used)).toBeUndefined();
  });
});

describe('host addresses on an L2 segment', () => {
  const t = topologyOf({
    defaults: { links: ['lan'] },
    segments: { lan: {} },
    nodes: {
      n10: {},
      n2: {},
      c1: { kind: 'client' },
      r2: { kind: 'router' },
      n1: {},
      r1: { kind: 'router' },
    },
  });

  it('numbers routers from .1, lblab-nodes from .11, then clients; each kind in natural name order', () => {
    const lines = t.nodes.map((n) => `${n.name} ${n.attachments[0]?.ipv4} ${n.attachments[0]?.ipv6}`);
    expect(lines).toEqual([
      'r1 198.18.0.1/24 2001:db8::1/64',
      'r2 198.18.0.2/24 2001:db8::2/64',
      'n1 198.18.0.11/24 2001:db8::b/64',
      'n2 198.18.0.12/24 2001:db8::c/64',
      'n10 198.18.0.13/24 2001:db8::d/64',
      'c1 198.18.0.14/24 2001:db8::e/64',
    ]);
  });

  it('starts the other hosts right after the routers when there are more than ten', () => {
    const routers = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`r${i + 1}`, { kind: 'router' }]),
    );
    const many = topologyOf({
      defaults: { links: ['lan'] },
      segments: { lan: {} },
      nodes: { ...routers, n1: {} },
    });
    expect(wiringOf(many, 'r12')).toEqual(['eth0 lan 198.18.0.12/24 2001:db8::c/64']);
    expect(wiringOf(many, 'n1')).toEqual(['eth0 lan 198.18.0.13/24 2001:db8::d/64']);
  });
});

describe('point-to-point links', () => {
  const t = topologyOf({
    segments: { lan: {} },
    nodes: {
      r1: { kind: 'router', links: ['lan'] },
      n1: { links: ['lan'] },
      c1: { kind: 'client', behind: 'r1' },
      c2: { kind: 'client' },
      c3: { kind: 'client' },
    },
    links: [
      { endpoints: ['r1:eth1', 'c2:eth0'], delayMs: 1, jitterMs: 0.5, lossPct: 0.1, rateMbps: 100 },
      { name: 'uplink', endpoints: ['c3:wan0', 'r1:eth5'] },
      { endpoints: ['c3:eth0', 'r1:eth2'], ipv4: '198.18.1.8/30', ipv6: '2001:db8:0:1::8/126' },
    ],
  });

  it('gives each a /30 and a /126 after the L2 segments (links to clients behind routers last), the first end offset 1', () => {
    expect(segmentsOf(t)).toEqual([
      'lan l2 198.18.0.0/24 2001:db8::/64',
      'r1-c2 point-to-point 198.18.1.0/30 2001:db8:0:1::/126',
      'uplink point-to-point 198.18.1.4/30 2001:db8:0:1::4/126',
      'c3-r1 point-to-point 198.18.1.8/30 2001:db8:0:1::8/126',
      'r1-c1 point-to-point 198.18.1.12/30 2001:db8:0:1::c/126',
    ]);
    expect(wiringOf(t, 'c2')).toEqual(['eth0 r1-c2 198.18.1.2/30 2001:db8:0:1::2/126']);
    expect(wiringOf(t, 'c3')).toEqual([
      'wan0 uplink 198.18.1.5/30 2001:db8:0:1::5/126',
      'eth0 c3-r1 198.18.1.9/30 2001:db8:0:1::9/126',
    ]);
    expect(wiringOf(t, 'c1')).toEqual(['eth0 r1-c1 198.18.1.14/30 2001:db8:0:1::e/126']);
  });

  it('keeps given interface names and gives the rest the lowest free ethN, in link order', () => {
    expect(wiringOf(t, 'r1')).toEqual([
      'eth0 lan 198.18.0.1/24 2001:db8::1/64',
      'eth1 r1-c2 198.18.1.1/30 2001:db8:0:1::1/126',
      'eth5 uplink 198.18.1.6/30 2001:db8:0:1::6/126',
      'eth2 c3-r1 198.18.1.10/30 2001:db8:0:1::a/126',
      'eth3 r1-c1 198.18.1.13/30 2001:db8:0:1::d/126',
    ]);
    const named = topologyOf({
      segments: { a: {}, b: {} },
      nodes: { n1: { links: ['a', { segment: 'b', interface: 'eth0' }] } },
    });
    expect(wiringOf(named, 'n1').map((w) => w.split(' ').slice(0, 2).join(' '))).toEqual([
      'eth1 a',
      'eth0 b',
    ]);
  });

  it('puts the impairment on both ends', () => {
    const impairment = { delayMs: 1, jitterMs: 0.5, lossPct: 0.1, rateMbps: 100 };
    expect(nodeOf(t, 'r1').attachments[1]?.impairment).toEqual(impairment);
    expect(nodeOf(t, 'c2').attachments[0]?.impairment).toEqual(impairment);
    expect(nodeOf(t, 'c1').attachments[0]?.impairment).toEqual({ delayMs: 0, jitterMs: 0, lossPct: 0 });
  });
});
