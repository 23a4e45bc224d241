import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress, type IpFamily } from '../../net/index.ts';
import { BfdFilterTooLargeError } from './errors.ts';
import {
  DROP_ALL,
  MAX_INSTRUCTIONS,
  SKF_NET_OFF,
  type SockFilter,
  type TtlRule,
  flatten,
  maxRules,
  ttlFilter,
} from './ttl-filter.ts';

/**
 * The kernel's classic BPF semantics for the instructions the filters use, run on an IP header: loads
 * at SKF_NET_OFF + n read byte n of it (words big-endian), and a load past its end drops the packet.
 * Anything else, or a jump out of the program, fails the test, as the kernel's checker would refuse it.
 */
function accepts(program: readonly SockFilter[], header: Uint8Array): boolean {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  let a = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const i = program[pc]!;
    const at = (i.k | 0) - SKF_NET_OFF;
    switch (i.code) {
      case 0x30:
        if (at < 0 || at + 1 > header.length) return false;
        a = view.getUint8(at);
        break;
      case 0x20:
        if (at < 0 || at + 4 > header.length) return false;
        a = view.getUint32(at);
        break;
      case 0x15:
        pc += a === i.k ? i.jt : i.jf;
        break;
      case 0x35:
        pc += a >= i.k ? i.jt : i.jf;
        break;
      case 0x06:
        return i.k !== 0;
      default:
        throw new Error(`opcode ${i.code} is not one the filters use`);
    }
  }
  throw new Error('the program ran off its end');
}

/** An IPv4 or IPv6 header with the fields the filters read; the rest stays zero. */
function header(ttl: number, source: IpAddress, destination: IpAddress): Uint8Array {
  if (source.family === 4) {
    const h = new Uint8Array(20);
    h[0] = 0x45;
    h[8] = ttl;
    h.set(source.toBytes(), 12);
    h.set(destination.toBytes(), 16);
    return h;
  }
  const h = new Uint8Array(40);
  h[0] = 0x60;
  h[7] = ttl;
  h.set(source.toBytes(), 8);
  h.set(destination.toBytes(), 24);
  return h;
}

const ip = (text: string) => IpAddress.parse(text);
const families = [
  { family: 4 as IpFamily, local: ['198.18.0.1', '198.18.0.11'], peers: ['198.18.1.2', '198.18.2.2'] },
  {
    family: 6 as IpFamily,
    local: ['2001:db8::1', '2001:db8::11'],
    peers: ['2001:db8:1::2', '2001:db8:2::2'],
  },
];
const ttls = Array.from({ length: 256 }, (_, t) => t);

describe.each(families)('ttlFilter, IPv$family', ({ family, local, peers }) => {
  const [l0 = '', l1 = ''] = local;
  const [p0 = '', p1 = ''] = peers;

  it('single-hop (minimum 255, no rules): accepts TTL 255 and nothing else, from anyone', () => {
    const program = ttlFilter(family, 255, []);
    const pairs: [string, string][] = [
      [p0, l0],
      [p1, l1],
    ];
    for (const [src, dst] of pairs) {
      const accepted = ttls.filter((t) => accepts(program, header(t, ip(src), ip(dst))));
      expect(accepted).toEqual([255]);
    }
  });

  it('multihop: accepts the default minimum and above when no rule names the addresses', () => {
    const program = ttlFilter(family, 254, []);
    expect(ttls.filter((t) => accepts(program, header(t, ip(p0), ip(l0))))).toEqual([254, 255]);
  });

  it('holds each session to its own minimum and everyone else to the default', () => {
    const rules: TtlRule[] = [
      { local: ip(l0), peer: ip(p0), minimumTtl: 255 },
      { local: ip(l0), peer: ip(p1), minimumTtl: 250 },
    ];
    const program = ttlFilter(family, 254, rules);
    const lowest = (src: string, dst: string) =>
      ttls.find((t) => accepts(program, header(t, ip(src), ip(dst))));
    expect(lowest(p0, l0)).toBe(255);
    expect(lowest(p1, l0)).toBe(250);
    // Same peer, another of our addresses: a different session, or none.
    expect(lowest(p0, l1)).toBe(254);
    expect(lowest(p1, l1)).toBe(254);
  });

  it('ignores rules of the other family', () => {
    const other = families.find((f) => f.family !== family)!;
    const rule = { local: ip(other.local[0]!), peer: ip(other.peers[0]!), minimumTtl: 1 };
    expect(ttlFilter(family, 254, [rule])).toEqual(ttlFilter(family, 254, []));
  });

  it('property: a packet passes exactly when its TTL reaches the strictest rule for its addresses, else the default', () => {
    // Few addresses and few minimums, so rules collide with each other and with the default.
    const minimums = [1, 128, 253, 254, 255];
    const address = (pool: string[]) => fc.constantFrom(...pool).map(ip);
    const minimum = fc.constantFrom(...minimums);
    const rule = fc.record({ local: address(local), peer: address(peers), minimumTtl: minimum });
    const ttl = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(...minimums.flatMap((m) => [m - 1, m])),
    );
    fc.assert(
      fc.property(
        minimum,
        fc.array(rule, { maxLength: 6 }),
        address(peers),
        address(local),
        ttl,
        (defaultMinimum, rules, src, dst, t) => {
          const matching = rules.filter((r) => r.peer.equals(src) && r.local.equals(dst));
          const expected =
            matching.length === 0 ? defaultMinimum : Math.max(...matching.map((r) => r.minimumTtl));
          const program = ttlFilter(family, defaultMinimum, rules);
          expect(accepts(program, header(t, src, dst))).toBe(t >= expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('fits as many rules as the kernel takes, and refuses one more with a clear error', () => {
    const max = maxRules(family);
    const rules = Array.from({ length: max + 1 }, (_, i) => ({
      local: ip(l0),
      peer: ip(p0).add(BigInt(i)),
      minimumTtl: 255,
    }));
    const fits = ttlFilter(family, 254, rules.slice(0, max));
    expect(fits.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    // The last rule's session is still told apart from its neighbours.
    expect(accepts(fits, header(254, ip(p0).add(BigInt(max - 1)), ip(l0)))).toBe(false);
    expect(accepts(fits, header(254, ip(p0).add(BigInt(max)), ip(l0)))).toBe(true);
    expect(() => ttlFilter(family, 254, rules)).toThrowError(BfdFilterTooLargeError);
    expect(() => ttlFilter(family, 254, rules)).toThrowError(`at most ${max} fit`);
    // Sessions at the default minimum need no rule, so any number of them fits.
    expect(ttlFilter(family, 255, rules)).toEqual(ttlFilter(family, 255, []));
  });
});

describe('DROP_ALL and flatten', () => {
  it('DROP_ALL drops every packet', () => {
    for (const t of ttls)
      expect(accepts(DROP_ALL, header(t, ip('198.18.0.2'), ip('198.18.0.1')))).toBe(false);
  });

  it('flattens to code, jt, jf, k with k unsigned, as struct sock_filter holds it', () => {
    const flat = flatten(ttlFilter(4, 255, []));
    expect(flat.length).toBe(4 * ttlFilter(4, 255, []).length);
    // The first instruction loads byte 8 of the IPv4 header (the TTL) relative to the network header.
    expect(flat.slice(0, 4)).toEqual([0x30, 0, 0, (SKF_NET_OFF + 8) >>> 0]);
    expect(flat.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff)).toBe(true);
  });
});
