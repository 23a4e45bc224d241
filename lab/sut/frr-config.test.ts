import { describe, expect, it } from 'vitest';
import type { Netns } from '../backends/netns/namespace.ts';
import { SutUnsupportedError } from './errors.ts';
import {
  bfdProfileName,
  frrOriginateCommands,
  frrWithdrawCommands,
  originRouteMap,
  renderFrrConfig,
} from './frr-config.ts';
import type { BgpNeighborSpec } from './router.ts';
import { resolveOrigination, resolveSpec } from './spec.ts';

const ns = {} as Netns;

describe('FRR config', () => {
  it('renders every neighbor option, BFD profiles, ECMP, graceful restart and originations', () => {
    const spec = resolveSpec({
      name: 'r1',
      ns,
      asn: 64512,
      routerId: '198.18.0.1',
      ecmp: 4,
      gracefulRestart: { restartTimeSec: 30 },
      neighbors: [
        {
          address: '198.18.0.2',
          asn: 64513,
          password: 's3cret',
          bfd: { receiveMs: 300, transmitMs: 200, multiplier: 3 },
        },
        {
          address: '198.18.9.9',
          asn: 64514,
          passive: true,
          port: 1179,
          ebgpMultihop: 2,
          gracefulRestart: false,
        },
        {
          address: '2001:db8::2',
          asn: 64512,
          holdTimeSec: 9,
          keepaliveSec: 3,
          connectRetrySec: 2,
          families: ['ipv6', 'ipv4'],
        },
      ],
      originate: [
        { prefix: '198.18.100.1/32', communities: ['64512:1'], largeCommunities: ['64512:1:2'] },
        { prefix: '2001:db8:100::/48' },
      ],
    });
    const map = originRouteMap(spec.originate[0]!);
    expect(renderFrrConfig(spec)).toBe(
      `frr defaults traditional
hostname r1
bgp route-map delay-timer 0
!
route-map ${map} permit 10
 set community 64512:1
 set large-community 64512:1:2
exit
bfd
 profile lblab-300-200-3
  receive-interval 300
  transmit-interval 200
  detect-multiplier 3
 exit
exit
!
router bgp 64512
 bgp router-id 198.18.0.1
 no bgp default ipv4-unicast
 no bgp ebgp-requires-policy
 no bgp network import-check
 coalesce-time 50
 bgp graceful-restart
 bgp graceful-restart restart-time 30
 bgp bestpath as-path multipath-relax
 neighbor 198.18.0.2 remote-as 64513
 neighbor 198.18.0.2 timers 1 3
 neighbor 198.18.0.2 timers connect 1
 neighbor 198.18.0.2 password s3cret
 neighbor 198.18.0.2 bfd profile lblab-300-200-3
 neighbor 198.18.9.9 remote-as 64514
 neighbor 198.18.9.9 timers 1 3
 neighbor 198.18.9.9 timers connect 1
 neighbor 198.18.9.9 passive
 neighbor 198.18.9.9 port 1179
 neighbor 198.18.9.9 ebgp-multihop 2
 neighbor 198.18.9.9 graceful-restart-disable
 neighbor 2001:db8::2 remote-as 64512
 neighbor 2001:db8::2 timers 3 9
 neighbor 2001:db8::2 timers connect 2
 !
 address-family ipv4 unicast
  network 198.18.100.1/32 route-map ${map}
  neighbor 198.18.0.2 activate
  neighbor 198.18.9.9 activate
  neighbor 2001:db8::2 activate
  maximum-paths 4
  maximum-paths ibgp 4
 exit-address-family
 !
 address-family ipv6 unicast
  network 2001:db8:100::/48
  neighbor 2001:db8::2 activate
  maximum-paths 4
  maximum-paths ibgp 4
 exit-address-family
exit
!
end
`,
    );
  });

  describe('BFD beyond timers', () => {
    const timers = { receiveMs: 100, transmitMs: 100, multiplier: 3 };
    const render = (...neighbors: BgpNeighborSpec[]) =>
      renderFrrConfig(resolveSpec({ name: 'r1', ns, asn: 64512, routerId: '198.18.0.1', neighbors }));
    const section = (text: string, start: string, end: string) =>
      text.slice(text.indexOf(start), text.indexOf(end, text.indexOf(start)) + end.length);

    it('puts passive mode, minimum TTL and echo in the profile, and control-plane checking on the neighbor', () => {
      const single = { ...timers, echo: { transmitMs: 50, receiveMs: 60 }, checkControlPlaneFailure: true };
      const multi = { ...timers, passive: true, minimumTtl: 250 };
      const text = render(
        { address: '198.18.0.2', asn: 64513, bfd: single },
        { address: '198.18.9.9', asn: 64514, bfd: multi, ebgpMultihop: 2, localAddress: '198.18.0.1' },
      );
      expect(section(text, `profile ${bfdProfileName(single)}`, ' exit')).toBe(
        `profile ${bfdProfileName(single)}
  receive-interval 100
  transmit-interval 100
  detect-multiplier 3
  echo-mode
  echo transmit-interval 50
  echo receive-interval 60
 exit`,
      );
      expect(section(text, `profile ${bfdProfileName(multi)}`, ' exit')).toContain(
        '  detect-multiplier 3\n  passive-mode\n  minimum-ttl 250\n exit',
      );
      expect(text).toContain(
        ` neighbor 198.18.0.2 bfd profile ${bfdProfileName(single)}\n neighbor 198.18.0.2 bfd check-control-plane-failure\n`,
      );
      expect(text).not.toContain('198.18.9.9 bfd check-control-plane-failure');
    });

    it('makes a multihop neighbor multihop before its BFD line, with its source address', () => {
      const text = render({
        address: '198.18.9.9',
        asn: 64514,
        bfd: timers,
        ebgpMultihop: 2,
        localAddress: '198.18.0.1',
      });
      const lines = text.split('\n').filter((l) => l.startsWith(' neighbor 198.18.9.9'));
      const at = (prefix: string) => lines.findIndex((l) => l.startsWith(` neighbor 198.18.9.9 ${prefix}`));
      expect(lines[at('ebgp-multihop')]).toBe(' neighbor 198.18.9.9 ebgp-multihop 2');
      expect(lines[at('update-source')]).toBe(' neighbor 198.18.9.9 update-source 198.18.0.1');
      expect(at('ebgp-multihop')).toBeLessThan(at('bfd'));
      expect(at('update-source')).toBeLessThan(at('bfd'));
    });

    it('names profiles by their settings: equal settings share one, any difference gets its own', () => {
      expect(bfdProfileName(timers)).toBe('lblab-100-100-3');
      // Neighbor-level options are not part of the profile.
      expect(bfdProfileName({ ...timers, checkControlPlaneFailure: true })).toBe('lblab-100-100-3');
      const passive = bfdProfileName({ ...timers, passive: true });
      expect(passive).toMatch(/^lblab-100-100-3-[0-9a-f]{8}$/);
      expect(bfdProfileName({ ...timers, passive: true })).toBe(passive);
      expect(bfdProfileName({ ...timers, minimumTtl: 250 })).not.toBe(passive);
      const text = render(
        { address: '198.18.0.2', asn: 64513, bfd: { ...timers, passive: true } },
        { address: '198.18.0.3', asn: 64513, bfd: { ...timers, passive: true } },
        { address: '198.18.0.4', asn: 64513, bfd: timers },
      );
      expect(text.match(/^ profile /gm)).toHaveLength(2);
    });

    it('refuses BFD authentication, which FRR 8.4 does not have', () => {
      expect(() =>
        render({
          address: '198.18.0.2',
          asn: 64513,
          bfd: { ...timers, authentication: { type: 'keyed-sha1', password: 'k' } },
        }),
      ).toThrow(SutUnsupportedError);
    });
  });

  it('names a route-map after the prefix and its communities, so changed communities get a new map', () => {
    const a = originRouteMap(resolveOrigination({ prefix: '198.18.100.1/32', communities: ['64512:1'] }));
    const b = originRouteMap(resolveOrigination({ prefix: '198.18.100.1/32', communities: ['64512:2'] }));
    expect(a).toMatch(/^lblab-198-18-100-1-32-[0-9a-f]{8}$/);
    expect(b).not.toBe(a);
    expect(originRouteMap(resolveOrigination({ prefix: '198.18.100.1/32' }))).toBeUndefined();
  });

  it('switches an announced prefix to new communities, then drops the old map', () => {
    const before = resolveOrigination({ prefix: '198.18.100.1/32', communities: ['64512:1'] });
    const after = resolveOrigination({ prefix: '198.18.100.1/32', largeCommunities: ['64512:5:6'] });
    expect(frrOriginateCommands(64512, after, before)).toEqual([
      'configure terminal',
      `route-map ${originRouteMap(after)} permit 10`,
      ' set large-community 64512:5:6',
      'exit',
      'router bgp 64512',
      'address-family ipv4 unicast',
      `network 198.18.100.1/32 route-map ${originRouteMap(after)}`,
      'exit-address-family',
      'exit',
      `no route-map ${originRouteMap(before)}`,
      'end',
    ]);
    // Dropping every community must detach the map explicitly: "network P" alone would keep it.
    const plain = resolveOrigination({ prefix: '198.18.100.1/32' });
    expect(frrOriginateCommands(64512, plain, before)).toContain(
      `no network 198.18.100.1/32 route-map ${originRouteMap(before)}`,
    );
    expect(frrWithdrawCommands(64512, before)).toEqual([
      'configure terminal',
      'router bgp 64512',
      'address-family ipv4 unicast',
      'no network 198.18.100.1/32',
      'exit-address-family',
      'exit',
      `no route-map ${originRouteMap(before)}`,
      'end',
    ]);
  });
});
