import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKernelRoutes } from './kernel-routes.ts';

// Captured from `ip -j route show table main` in an FRR namespace (zebra installs through nexthop objects).
const data = (f: string) => readFileSync(new URL(`./testdata/${f}`, import.meta.url), 'utf8');

describe('kernel routes', () => {
  it('reads host routes as full-length prefixes with their gateway and installer', () => {
    expect(parseKernelRoutes(data('ip-route4.json'), 'ipv4')).toEqual([
      { prefix: '198.18.0.0/24', nextHops: [], protocol: 'kernel', type: 'unicast' },
      { prefix: '198.18.200.1/32', nextHops: ['198.18.0.2'], protocol: 'bgp', type: 'unicast' },
      { prefix: '198.18.210.1/32', nextHops: ['198.18.0.2'], protocol: 'bgp', type: 'unicast' },
      { prefix: '198.18.220.1/32', nextHops: ['198.18.0.4'], protocol: 'bgp', type: 'unicast' },
    ]);
    expect(parseKernelRoutes(data('ip-route6.json'), 'ipv6')[1]).toEqual({
      prefix: '2001:db8:200::1/128',
      nextHops: ['fe80::8caa:4aff:fe6d:524f'],
      protocol: 'bgp',
      type: 'unicast',
    });
  });

  it('lists every leg of a multipath route, the default route and typed routes', () => {
    const text = JSON.stringify([
      { dst: 'default', gateway: '198.18.0.254', dev: 'eth0', flags: [] },
      {
        dst: '198.18.230.1',
        nhid: 20,
        protocol: 'bgp',
        metric: 20,
        flags: [],
        nexthops: [
          { gateway: '198.18.0.2', dev: 'eth0', weight: 1, flags: [] },
          { gateway: '198.18.0.4', dev: 'eth0', weight: 1, flags: [] },
        ],
      },
      { type: 'blackhole', dst: '198.18.99.0/24', protocol: 'static', flags: [] },
    ]);
    expect(parseKernelRoutes(text, 'ipv4')).toEqual([
      { prefix: '0.0.0.0/0', nextHops: ['198.18.0.254'], type: 'unicast' },
      { prefix: '198.18.230.1/32', nextHops: ['198.18.0.2', '198.18.0.4'], protocol: 'bgp', type: 'unicast' },
      { prefix: '198.18.99.0/24', nextHops: [], protocol: 'static', type: 'blackhole' },
    ]);
    expect(parseKernelRoutes('', 'ipv6')).toEqual([]);
  });
});
