import { describe, expect, it } from 'vitest';
import type { Netns } from '../backends/netns/namespace.ts';
import { SutUnsupportedError } from './errors.ts';
import { gobgpArgsToOriginate, gobgpArgsToWithdraw, renderGobgpConfig } from './gobgp-config.ts';
import { resolveOrigination, resolveSpec } from './spec.ts';

const ns = {} as Netns;

describe('GoBGP config', () => {
  it('renders neighbors with timers, key, transport, multihop and graceful restart, address families last', () => {
    const spec = resolveSpec({
      name: 'g1',
      ns,
      asn: 64514,
      routerId: '198.18.0.3',
      ecmp: 2,
      neighbors: [
        { address: '198.18.0.1', asn: 64512, password: 's3cret', passive: true, port: 1179, ebgpMultihop: 3 },
        { address: '2001:db8::1', asn: 64512, gracefulRestart: true },
      ],
    });
    expect(renderGobgpConfig(spec)).toBe(`[global.config]
  as = 64514
  router-id = "198.18.0.3"
[global.use-multiple-paths.config]
  enabled = true

[[neighbors]]
  [neighbors.config]
    neighbor-address = "198.18.0.1"
    peer-as = 64512
    auth-password = "s3cret"
  [neighbors.timers.config]
    hold-time = 3
    keepalive-interval = 1
    connect-retry = 1
    idle-hold-time-after-reset = 1
  [neighbors.transport.config]
    passive-mode = true
    remote-port = 1179
  [neighbors.ebgp-multihop.config]
    enabled = true
    multihop-ttl = 3
  [[neighbors.afi-safis]]
    [neighbors.afi-safis.config]
      afi-safi-name = "ipv4-unicast"

[[neighbors]]
  [neighbors.config]
    neighbor-address = "2001:db8::1"
    peer-as = 64512
  [neighbors.timers.config]
    hold-time = 3
    keepalive-interval = 1
    connect-retry = 1
    idle-hold-time-after-reset = 1
  [neighbors.graceful-restart.config]
    enabled = true
    helper-only = true
  [[neighbors.afi-safis]]
    [neighbors.afi-safis.config]
      afi-safi-name = "ipv6-unicast"
    [neighbors.afi-safis.mp-graceful-restart.config]
      enabled = true
`);
  });

  it('restarts gracefully itself when the router has a restart time', () => {
    const spec = resolveSpec({
      name: 'g1',
      ns,
      asn: 64514,
      routerId: '198.18.0.3',
      gracefulRestart: { restartTimeSec: 45 },
      neighbors: [{ address: '198.18.0.1', asn: 64512 }],
    });
    expect(renderGobgpConfig(spec)).toContain(
      '  [neighbors.graceful-restart.config]\n    enabled = true\n    restart-time = 45\n',
    );
  });

  it('binds the session to a local address', () => {
    const spec = resolveSpec({
      name: 'g1',
      ns,
      asn: 64514,
      routerId: '198.18.0.3',
      neighbors: [{ address: '198.18.0.1', asn: 64512, localAddress: '198.18.0.3' }],
    });
    expect(renderGobgpConfig(spec)).toContain(
      '  [neighbors.transport.config]\n    local-address = "198.18.0.3"\n',
    );
  });

  it('refuses BFD, which GoBGP does not have', () => {
    const spec = resolveSpec({
      name: 'g1',
      ns,
      asn: 64514,
      routerId: '198.18.0.3',
      neighbors: [
        { address: '198.18.0.1', asn: 64512, bfd: { receiveMs: 300, transmitMs: 300, multiplier: 3 } },
      ],
    });
    expect(() => renderGobgpConfig(spec)).toThrow(SutUnsupportedError);
  });

  it('announces and withdraws through the global RIB', () => {
    const o = resolveOrigination({
      prefix: '2001:db8:201::/64',
      communities: ['64514:1', '64514:2'],
      largeCommunities: ['64514:1:2'],
    });
    expect(gobgpArgsToOriginate(o)).toEqual([
      'global',
      'rib',
      '-a',
      'ipv6',
      'add',
      '2001:db8:201::/64',
      'community',
      '64514:1,64514:2',
      'large-community',
      '64514:1:2',
    ]);
    expect(gobgpArgsToWithdraw(o)).toEqual(['global', 'rib', '-a', 'ipv6', 'del', '2001:db8:201::/64']);
  });
});
