// IPAddressPool cases ported from MetalLB's internal/config/config_test.go (TestParse); the title names the case.
import { describe, expect, it } from 'vitest';
import { errors, load, pool, valid, warnings } from './test-support.ts';

const ranges = (addresses: { range: { first: unknown; last: unknown } }[]) =>
  addresses.map((a) => `${String(a.range.first)}-${String(a.range.last)}`);

describe('IPAddressPool', () => {
  it('MetalLB TestParse: config using all features (pools: CIDRs, ranges with spaces, IPv6, defaults)', () => {
    const config = valid(
      load([
        pool('pool1', {
          addresses: ['10.20.0.0/16', '10.50.0.0/24'],
          avoidBuggyIPs: true,
          autoAssign: false,
        }),
        pool('pool2', { addresses: ['30.0.0.0/8'] }),
        pool('pool3', {
          addresses: [
            '40.0.0.0/25',
            '40.0.0.150-40.0.0.200',
            '40.0.0.210 - 40.0.0.240',
            '40.0.0.250 - 40.0.0.250',
          ],
        }),
        pool('pool4', { addresses: ['2001:db8::/64'] }),
      ]),
    );
    const [p1, p2, p3, p4] = config.pools;
    expect(p1).toMatchObject({ autoAssign: false, avoidBuggyIPs: true });
    expect(p2).toMatchObject({ autoAssign: true, avoidBuggyIPs: false });
    expect(p2?.serviceAllocation).toBeUndefined();
    expect(ranges(p3?.addresses ?? [])).toEqual([
      '40.0.0.0-40.0.0.127',
      '40.0.0.150-40.0.0.200',
      '40.0.0.210-40.0.0.240',
      '40.0.0.250-40.0.0.250',
    ]);
    expect(p3?.addresses.map((a) => a.text)).toContain('40.0.0.210 - 40.0.0.240');
    expect(p4?.addresses[0]?.range.size).toBe(1n << 64n);
    expect(p1?.meta).toMatchObject({
      name: 'pool1',
      namespace: 'metallb-system',
      source: { file: 'test.yaml', document: 0 },
    });
  });

  it('a CIDR with host bits set is masked as Go masks it, with a warning (MetalLB TestParse uses 10.20.30.40/24)', () => {
    const result = load([pool('pool1', { addresses: ['10.20.30.40/24'] })]);
    expect(ranges(valid(result).pools[0]?.addresses ?? [])).toEqual(['10.20.30.0-10.20.30.255']);
    expect(warnings(result)).toEqual([
      'document 0: spec.addresses[0]: CIDR "10.20.30.40/24" has host bits set; the pool holds 10.20.30.0/24',
    ]);
  });

  it('MetalLB TestParse: ip address pool with namespace selection', () => {
    const config = valid(
      load([
        pool('pool1', {
          addresses: ['10.20.0.0/16'],
          serviceAllocation: { priority: 1, namespaces: ['test-ns1'] },
        }),
        pool('pool2', {
          addresses: ['30.0.0.0/8'],
          serviceAllocation: { priority: 2, namespaceSelectors: [{ matchLabels: { team: 'metallb' } }] },
        }),
      ]),
    );
    expect(config.pools[0]?.serviceAllocation).toEqual({
      priority: 1,
      namespaces: ['test-ns1'],
      namespaceSelectors: [],
      serviceSelectors: [],
    });
    expect(config.pools[1]?.serviceAllocation?.namespaceSelectors).toEqual([
      { matchLabels: { team: 'metallb' } },
    ]);
  });

  it('MetalLB TestParse: ip address pool with duplicate namespace selection', () => {
    const result = load([
      pool('pool1', { addresses: ['10.20.0.0/16'], serviceAllocation: { namespaces: ['a', 'a'] } }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.serviceAllocation.namespaces[1]: duplicate namespace "a" (also at spec.serviceAllocation.namespaces[0])',
    ]);
  });

  it('MetalLB TestParse: ip address pool with duplicate namespace selectors', () => {
    const sel = { matchLabels: { foo: 'bar' } };
    const result = load([
      pool('pool1', { addresses: ['10.20.0.0/16'], serviceAllocation: { namespaceSelectors: [sel, sel] } }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.serviceAllocation.namespaceSelectors[1]: duplicate selector (same as spec.serviceAllocation.namespaceSelectors[0])',
    ]);
  });

  it('MetalLB TestParse: ip address pool with service selection', () => {
    const selectors = [{ matchLabels: { team: 'metallb' } }];
    const config = valid(
      load([
        pool('pool1', {
          addresses: ['30.0.0.0/8'],
          serviceAllocation: { priority: 2, serviceSelectors: selectors },
        }),
      ]),
    );
    expect(config.pools[0]?.serviceAllocation).toMatchObject({ priority: 2, serviceSelectors: selectors });
  });

  it('MetalLB TestParse: ip address pool with duplicate service selection', () => {
    const sel = { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'bar'] }] };
    const result = load([
      pool('pool1', { addresses: ['30.0.0.0/8'], serviceAllocation: { serviceSelectors: [sel] } }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.serviceAllocation.serviceSelectors[0].matchExpressions[0].values[1]: duplicate value "bar"',
    ]);
  });

  it('MetalLB TestParse: ip address pool with only priority (priority 0 is "no priority", as in the CRD)', () => {
    const config = valid(
      load([
        pool('pool1', { addresses: ['10.20.0.0/16'], serviceAllocation: { priority: 1 } }),
        pool('pool2', { addresses: ['10.30.0.0/16'], serviceAllocation: { priority: 0 } }),
      ]),
    );
    expect(config.pools[0]?.serviceAllocation?.priority).toBe(1);
    expect(config.pools[1]?.serviceAllocation).toEqual({
      namespaces: [],
      namespaceSelectors: [],
      serviceSelectors: [],
    });
  });

  it('MetalLB TestParse: no pool name', () => {
    expect(errors(load([pool(undefined, { addresses: ['10.0.0.0/8'] })]))).toEqual([
      'document 0: metadata.name: required field is missing',
    ]);
  });

  it('MetalLB TestParse: address pool with no address', () => {
    expect(errors(load([pool('pool1', {})]))).toEqual([
      'document 0: spec.addresses: required field is missing',
    ]);
  });

  it.each([
    [
      'invalid pool CIDR',
      '100.200.300.400/24',
      'CIDR "100.200.300.400/24": "100.200.300.400": part 3 (300) is above 255',
    ],
    [
      'invalid pool CIDR prefix length',
      '1.2.3.0/33',
      'CIDR "1.2.3.0/33": prefix length 33 is above 32 for IPv4',
    ],
    [
      'invalid pool CIDR, first address of the range is after the second',
      '1.2.3.10-1.2.3.1',
      'range "1.2.3.10-1.2.3.1": start 1.2.3.10 is after end 1.2.3.1',
    ],
  ])('MetalLB TestParse: %s', (_desc, address, message) => {
    expect(errors(load([pool('pool1', { addresses: [address] })]))).toEqual([
      `document 0: spec.addresses[0]: ${message}`,
    ]);
  });

  it('MetalLB TestParse: duplicate pool definition', () => {
    const result = load([
      pool('pool1', { addresses: ['10.1.0.0/16'] }),
      pool('pool2', { addresses: ['10.2.0.0/16'] }),
      pool('pool1', { addresses: ['10.3.0.0/16'] }),
    ]);
    expect(errors(result)).toEqual([
      'document 2: metadata.name: duplicate IPAddressPool name "pool1": already defined in test.yaml document 0',
    ]);
  });

  it('MetalLB TestParse: duplicate CIDRs (the same CIDR in two pools)', () => {
    const result = load([
      pool('pool1', { addresses: ['10.0.0.0/8'] }),
      pool('pool2', { addresses: ['10.0.0.0/8'] }),
    ]);
    expect(errors(result)).toEqual([
      'document 1: spec.addresses[0]: "10.0.0.0/8" overlaps "10.0.0.0/8" (spec.addresses[0] of IPAddressPool "pool1" in test.yaml document 0)',
    ]);
  });

  it('MetalLB TestParse: overlapping CIDRs', () => {
    const result = load([
      pool('pool1', { addresses: ['10.0.0.0/8'] }),
      pool('pool2', { addresses: ['10.0.0.0/16'] }),
    ]);
    expect(errors(result)).toHaveLength(1);
    expect(errors(result)[0]).toContain('document 1: spec.addresses[0]: "10.0.0.0/16" overlaps "10.0.0.0/8"');
  });

  it('ranges that overlap a CIDR of the same pool are refused too; adjacent ones are not', () => {
    expect(
      errors(load([pool('p', { addresses: ['10.0.0.0/24', '10.0.1.0-10.0.1.9', '10.0.0.255-10.0.1.0'] })])),
    ).toEqual([
      'document 0: spec.addresses[2]: "10.0.0.255-10.0.1.0" overlaps "10.0.0.0/24" (spec.addresses[0] of this pool)',
    ]);
  });

  it('collects every error of every pool, not just the first', () => {
    const result = load([
      pool('a', { addresses: ['10.0.0.0/33', '10.1.0.9-10.1.0.1'] }),
      pool('b', { addresses: ['nope'], autoAssign: 'yes' }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.addresses[0]: CIDR "10.0.0.0/33": prefix length 33 is above 32 for IPv4',
      'document 0: spec.addresses[1]: range "10.1.0.9-10.1.0.1": start 10.1.0.9 is after end 10.1.0.1',
      'document 1: spec.autoAssign: expected true or false, got a string ("yes")',
    ]);
  });
});
