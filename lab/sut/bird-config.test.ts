import { describe, expect, it } from 'vitest';
import type { Netns } from '../backends/netns/namespace.ts';
import { birdProtocolName, renderBirdConfig } from './bird-config.ts';
import { SutSpecError, SutUnsupportedError } from './errors.ts';
import type { BgpNeighborSpec } from './router.ts';
import { resolveSpec } from './spec.ts';

const ns = {} as Netns;

describe('BIRD config', () => {
  const spec = resolveSpec({
    name: 'b1',
    ns,
    asn: 64513,
    routerId: '198.18.0.2',
    ecmp: 4,
    gracefulRestart: { restartTimeSec: 30 },
    neighbors: [
      {
        address: '198.18.0.1',
        asn: 64512,
        password: 's3cret',
        bfd: { receiveMs: 300, transmitMs: 300, multiplier: 3 },
      },
      {
        address: '2001:db8::1',
        asn: 64512,
        passive: true,
        port: 1179,
        ebgpMultihop: 2,
        gracefulRestart: false,
      },
    ],
    originate: [
      { prefix: '198.18.200.1/32', communities: ['64513:100'], largeCommunities: ['64513:1:2'] },
      { prefix: '2001:db8:200::1/128' },
    ],
  });
  const text = renderBirdConfig(spec, '/tmp/lblab/sut/b1-x/bird.log');
  const block = (name: string) => {
    const start = text.indexOf(`protocol bgp ${name} {`);
    return text.slice(start, text.indexOf('\n}', start) + 2);
  };

  it('names protocols after the neighbor address with BIRD-safe characters', () => {
    expect(birdProtocolName('198.18.0.1')).toBe('bgp_198_18_0_1');
    expect(birdProtocolName('2001:db8::1')).toBe('bgp_2001_db8__1');
  });

  it('writes one BGP protocol per neighbor with its timers, key, BFD and graceful-restart setting', () => {
    expect(block('bgp_198_18_0_1')).toBe(`protocol bgp bgp_198_18_0_1 {
  local as 64513;
  neighbor 198.18.0.1 as 64512;
  hold time 3;
  keepalive time 1;
  connect retry time 1;
  connect delay time 1;
  error wait time 1, 2;
  password "s3cret";
  graceful restart on;
  graceful restart time 30;
  bfd { min rx interval 300 ms; min tx interval 300 ms; multiplier 3; };
  ipv4 { import all; export all; };
}`);
    expect(block('bgp_2001_db8__1')).toContain('  neighbor 2001:db8::1 port 1179 as 64512;\n');
    expect(block('bgp_2001_db8__1')).toContain('  passive on;\n  multihop 2;\n  graceful restart off;\n');
    expect(block('bgp_2001_db8__1')).toContain('  ipv6 { import all; export all; };\n');
    expect(text).toContain('protocol bfd {\n}');
  });

  it('originates through static blackhole routes that carry the communities, and exports only BGP routes to the kernel', () => {
    expect(text).toContain(
      '  route 198.18.200.1/32 blackhole { bgp_community.add((64513,100)); bgp_large_community.add((64513,1,2)); };\n',
    );
    expect(text).toContain(
      'protocol static originate6 {\n  ipv6;\n  route 2001:db8:200::1/128 blackhole;\n}',
    );
    expect(text).toContain(
      'protocol kernel kernel4 {\n  ipv4 { import none; export where source = RTS_BGP; };\n  merge paths on limit 4;\n  graceful restart on;\n}',
    );
    expect(text.startsWith('log "/tmp/lblab/sut/b1-x/bird.log" all;\nrouter id 198.18.0.2;\n')).toBe(true);
  });

  describe('BFD authentication, passive mode and multihop', () => {
    const timers = { receiveMs: 100, transmitMs: 100, multiplier: 3 };
    const render = (...neighbors: BgpNeighborSpec[]) =>
      renderBirdConfig(resolveSpec({ name: 'b1', ns, asn: 64513, routerId: '198.18.0.2', neighbors }), '/l');
    const bfdProtocol = (text: string) =>
      text.slice(text.indexOf('protocol bfd {'), text.indexOf('\n}\n', text.indexOf('protocol bfd {')) + 2);

    it('authenticates single-hop sessions on every interface and multihop sessions in the multihop block', () => {
      const text = render(
        {
          address: '198.18.0.1',
          asn: 64512,
          bfd: {
            ...timers,
            authentication: { type: 'meticulous-keyed-sha1', password: 'sha-key', keyId: 7 },
          },
        },
        {
          address: '198.18.9.1',
          asn: 64514,
          ebgpMultihop: 2,
          localAddress: '198.18.0.2',
          bfd: { ...timers, authentication: { type: 'simple', password: 'plain' } },
        },
      );
      expect(bfdProtocol(text)).toBe(`protocol bfd {
  interface "*" {
    authentication meticulous keyed sha1;
    password "sha-key" { id 7; };
  };
  multihop {
    authentication simple;
    password "plain" { id 1; };
  };
}`);
    });

    it.each([
      ['simple', 'simple'],
      ['keyed-md5', 'keyed md5'],
      ['meticulous-keyed-md5', 'meticulous keyed md5'],
      ['keyed-sha1', 'keyed sha1'],
      ['meticulous-keyed-sha1', 'meticulous keyed sha1'],
    ] as const)('spells %s as BIRD does', (type, bird) => {
      const text = render({
        address: '198.18.0.1',
        asn: 64512,
        bfd: { ...timers, authentication: { type, password: 'k' } },
      });
      expect(text).toContain(`    authentication ${bird};\n`);
    });

    it('leaves the BFD protocol bare without authentication, and sets passive mode on the BGP side', () => {
      const text = render({ address: '198.18.0.1', asn: 64512, bfd: { ...timers, passive: true } });
      expect(bfdProtocol(text)).toBe('protocol bfd {\n}');
      expect(text).toContain(
        '  bfd { min rx interval 100 ms; min tx interval 100 ms; multiplier 3; passive on; };\n',
      );
    });

    it('runs multihop BFD from the local address, and single-hop BFD for iBGP as FRR does', () => {
      const multihop = render({
        address: '198.18.9.1',
        asn: 64514,
        ebgpMultihop: 2,
        localAddress: '198.18.0.2',
        bfd: timers,
      });
      expect(multihop).toContain('  local 198.18.0.2 as 64513;\n  neighbor 198.18.9.1 as 64514;\n');
      expect(multihop).toContain('  multihop 2;\n');
      const ibgp = render({ address: '198.18.0.3', asn: 64513, bfd: timers });
      expect(ibgp).toContain('  direct;\n');
      // Without BFD an iBGP session keeps BIRD's own default.
      expect(render({ address: '198.18.0.3', asn: 64513 })).not.toContain('direct;');
    });

    it('refuses what BIRD cannot do, or would refuse itself', () => {
      expect(() => render({ address: '198.18.9.1', asn: 64514, ebgpMultihop: 2, bfd: timers })).toThrow(
        /refuses multihop BGP with BFD without a local address/,
      );
      expect(() =>
        render({
          address: '198.18.0.1',
          asn: 64512,
          bfd: { ...timers, echo: { transmitMs: 50, receiveMs: 50 } },
        }),
      ).toThrow(SutUnsupportedError);
      expect(() =>
        render({ address: '198.18.0.1', asn: 64512, bfd: { ...timers, checkControlPlaneFailure: true } }),
      ).toThrow(/BIRD 2.0 has no BFD check-control-plane-failure/);
      // Authentication is per interface in BIRD 2.0: two single-hop neighbors must agree.
      expect(() =>
        render(
          {
            address: '198.18.0.1',
            asn: 64512,
            bfd: { ...timers, authentication: { type: 'simple', password: 'a' } },
          },
          { address: '198.18.0.5', asn: 64512, bfd: timers },
        ),
      ).toThrow(SutSpecError);
    });
  });
});
