/**
 * MetalLB's internal/allocator/allocator_test.go, ported case by case. Each Go table runs its rows in
 * order against one allocator, so each `describe` does the same: the rows share state and must run in
 * sequence. Test titles name the Go test and the row's desc (or its index when the row has none).
 *
 * Adaptations, all forced by lblab's stricter inputs rather than by different semantics:
 * - MetalLB's tests configure some pools whose CIDRs overlap (validated config never does; lblab's
 *   allocator refuses it). The overlapping pools get ranges of their own, and expected addresses follow.
 * - The service family (MetalLB's ipfamily argument) and the service's IPFamilyPolicy travel together in
 *   the claimant's `families`.
 * - Pool capacity is exact: a /64 counts 2^64 rather than MetalLB's MaxInt64 clamp.
 */
import { describe, expect, it } from 'vitest';
import type { IpFamilyPolicy } from '../cluster/types.ts';
import type { IPAddressPool } from '../config/model.ts';
import { Allocator } from './allocator.ts';
import { claimant, ips, pool, ports, texts } from './test-fixtures.ts';
import type { AllocatorEvent, Claimant, FamilyWant, Port } from './types.ts';

const teamMetallb = { matchLabels: { team: 'metallb' } };
const fooBar = { matchLabels: { foo: 'bar' } };

describe('allocator_test.go TestAssignment', () => {
  const alloc = new Allocator([
    pool('test', ['1.2.3.4/31', '1000::4/127']),
    pool('test2', ['1.2.4.0/24', '1000::4:0/120'], { avoidBuggyIPs: true }),
    pool('test3', ['1.2.5.0/24', '1000::5:0/120'], {
      avoidBuggyIPs: true,
      serviceAllocation: { namespaces: ['test-ns1'] },
    }),
    pool('test4', ['1.2.6.0/24', '1000::6:0/120'], {
      avoidBuggyIPs: true,
      serviceAllocation: { serviceSelectors: [teamMetallb] },
    }),
    pool('test5', ['1.2.7.0/24', '1000::7:0/120'], {
      avoidBuggyIPs: true,
      serviceAllocation: { priority: 20, namespaces: ['test-ns1'], serviceSelectors: [teamMetallb] },
    }),
    pool('test6', ['1.2.8.0/24', '1000::9:0/120'], {
      avoidBuggyIPs: true,
      serviceAllocation: { priority: 20, namespaces: ['test-ns2'], serviceSelectors: [fooBar] },
    }),
  ]);

  type Row = {
    desc: string;
    svc: string;
    ips: string[];
    ports?: Port[];
    sharingKey?: string;
    backendKey?: string;
    namespace?: string;
    labels?: Record<string, string>;
    wantErr?: boolean;
  };
  const share = (p: string, sharingKey: string, backendKey: string) => ({
    ports: ports(p),
    sharingKey,
    backendKey,
  });
  const rows: Row[] = [
    { desc: 'assign s1', svc: 's1', ips: ['1.2.3.4'] },
    { desc: 's1 idempotent reassign', svc: 's1', ips: ['1.2.3.4'] },
    { desc: "s2 can't grab s1's IP", svc: 's2', ips: ['1.2.3.4'], wantErr: true },
    { desc: 's2 can get the other IP', svc: 's2', ips: ['1.2.3.5'] },
    { desc: "s1 now can't grab s2's IP", svc: 's1', ips: ['1.2.3.5'], wantErr: true },
    { desc: 's1 frees its IP', svc: 's1', ips: [] },
    { desc: "s2 can grab s1's former IP", svc: 's2', ips: ['1.2.3.4'] },
    { desc: "s1 can now grab s2's former IP", svc: 's1', ips: ['1.2.3.5'] },
    { desc: 's3 cannot grab a 0 buggy IP', svc: 's3', ips: ['1.2.4.0'], wantErr: true },
    { desc: 's3 cannot grab a 255 buggy IP', svc: 's3', ips: ['1.2.4.255'], wantErr: true },
    { desc: 's3 can grab another IP in that pool', svc: 's3', ips: ['1.2.4.254'] },
    {
      desc: 's4 takes an IP, with sharing',
      svc: 's4',
      ips: ['1.2.4.3'],
      ...share('tcp/80', 'sharing', 'backend'),
    },
    {
      desc: 's4 changes its sharing key in place',
      svc: 's4',
      ips: ['1.2.4.3'],
      ...share('tcp/80', 'share', 'backend'),
    },
    {
      desc: "s3 can't share with s4 (port conflict)",
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/80', 'share', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't share with s4 (wrong sharing key)",
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/443', 'othershare', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't share with s4 (wrong backend key)",
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/443', 'share', 'otherbackend'),
      wantErr: true,
    },
    {
      desc: 's3 takes the same IP as s4',
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/443', 'share', 'backend'),
    },
    {
      desc: 's3 can change its ports while keeping the same IP',
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('udp/53', 'share', 'backend'),
    },
    {
      desc: "s3 can't change its sharing key while keeping the same IP",
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/443', 'othershare', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't change its backend key while keeping the same IP",
      svc: 's3',
      ips: ['1.2.4.3'],
      ...share('tcp/443', 'share', 'otherbackend'),
      wantErr: true,
    },
    { desc: "s4 takes s3's former IP", svc: 's4', ips: ['1.2.4.254'] },
    // IPv6: the same story.
    { desc: 'ipv6 assign s1', svc: 's1', ips: ['1000::4'] },
    { desc: 's1 idempotent reassign', svc: 's1', ips: ['1000::4'] },
    { desc: "s2 can't grab s1's IP", svc: 's2', ips: ['1000::4'], wantErr: true },
    { desc: 's2 can get the other IP', svc: 's2', ips: ['1000::4:5'] },
    { desc: "s1 now can't grab s2's IP", svc: 's1', ips: ['1000::4:5'], wantErr: true },
    { desc: 's1 frees its IP', svc: 's1', ips: [] },
    { desc: "s2 can grab s1's former IP", svc: 's2', ips: ['1000::4'] },
    { desc: "s1 can now grab s2's former IP", svc: 's1', ips: ['1000::4:5'] },
    { desc: 's3 can grab another IP in that pool', svc: 's3', ips: ['1000::4:ff'] },
    {
      desc: 's4 takes an IP, with sharing',
      svc: 's4',
      ips: ['1000::4:3'],
      ...share('tcp/80', 'sharing', 'backend'),
    },
    {
      desc: 's4 changes its sharing key in place',
      svc: 's4',
      ips: ['1000::4:3'],
      ...share('tcp/80', 'share', 'backend'),
    },
    {
      desc: "s3 can't share with s4 (port conflict)",
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/80', 'share', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't share with s4 (wrong sharing key)",
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/443', 'othershare', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't share with s4 (wrong backend key)",
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/443', 'share', 'otherbackend'),
      wantErr: true,
    },
    {
      desc: 's3 takes the same IP as s4',
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/443', 'share', 'backend'),
    },
    {
      desc: 's3 can change its ports while keeping the same IP',
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('udp/53', 'share', 'backend'),
    },
    {
      desc: "s3 can't change its sharing key while keeping the same IP",
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/443', 'othershare', 'backend'),
      wantErr: true,
    },
    {
      desc: "s3 can't change its backend key while keeping the same IP",
      svc: 's3',
      ips: ['1000::4:3'],
      ...share('tcp/443', 'share', 'otherbackend'),
      wantErr: true,
    },
    { desc: "s4 takes s3's former IP", svc: 's4', ips: ['1000::4:ff'] },
    // Dual stack.
    { desc: 's2 frees its IP', svc: 's2', ips: [] },
    { desc: 'ip dual-stack assign s1', svc: 's1', ips: ['1.2.3.4', '1000::4'] },
    {
      desc: 'ip dual-stack assign s1 from different pools',
      svc: 's1',
      ips: ['1.2.4.5', '1000::4'],
      wantErr: true,
    },
    // serviceAllocation compatibility.
    {
      desc: 'attempt to assign ip from pool pinned on same namespace',
      svc: 's1',
      ips: ['1.2.5.10'],
      namespace: 'test-ns1',
    },
    {
      desc: 'attempt to assign ip from pool pinned on different namespace',
      svc: 's1',
      ips: ['1.2.5.10'],
      namespace: 'testns-not-exist',
      wantErr: true,
    },
    {
      desc: 'attempt to assign ip from pool pinned with same service label',
      svc: 's1',
      ips: ['1.2.6.10'],
      namespace: 'testns-not-exist',
      labels: { team: 'metallb' },
    },
    {
      desc: 'attempt to assign ip from pool pinned with different service label',
      svc: 's1',
      ips: ['1.2.6.10'],
      namespace: 'testns-not-exist',
      labels: { team: 'red' },
      wantErr: true,
    },
    {
      desc: 'attempt to assign ip from pool pinned with namespace and service label',
      svc: 's1',
      ips: ['1.2.7.10'],
      namespace: 'test-ns1',
      labels: { team: 'metallb' },
    },
    {
      desc: 'attempt to assign ip from pool pinned with namespace and incompatible service label',
      svc: 's1',
      ips: ['1.2.8.10'],
      namespace: 'test-ns2',
      labels: { team: 'metallb' },
      wantErr: true,
    },
    {
      desc: 'attempt to assign ip from pool pinned with service label and incompatible namespace',
      svc: 's1',
      ips: ['1.2.8.10'],
      namespace: 'testns-not-exist',
      labels: { foo: 'bar' },
      wantErr: true,
    },
  ];

  rows.forEach((row, i) => {
    it(`#${i + 1} ${row.desc}`, () => {
      if (row.ips.length === 0) {
        alloc.release(row.svc);
        expect(alloc.assignment(row.svc)).toBeUndefined();
        return;
      }
      const before = texts(alloc.assignment(row.svc)?.ips);
      const c = claimant(row.svc, {
        ports: row.ports ?? [],
        sharingKey: row.sharingKey ?? '',
        backendKey: row.backendKey ?? '',
        ...(row.namespace && { namespace: row.namespace }),
        ...(row.labels && { serviceLabels: row.labels }),
      });
      const r = alloc.assign(c, ips(...row.ips));
      expect(r.ok).toBe(!row.wantErr);
      // A refused assignment leaves the service as it was.
      expect(texts(alloc.assignment(row.svc)?.ips)).toEqual(row.wantErr ? before : row.ips);
    });
  });
});

/** Runs MetalLB's allocate-style tables: unassign rows release, the others allocate and check the IPs. */
type AllocRow = {
  desc: string;
  svc: string;
  unassign?: boolean;
  wantErr?: boolean;
  family?: FamilyWant;
  policy?: IpFamilyPolicy;
  ports?: Port[];
  sharingKey?: string;
  pool?: string;
};

function runAllocationTable(
  name: string,
  pools: IPAddressPool[],
  rows: AllocRow[],
  attempt: (a: Allocator, c: Claimant, row: AllocRow) => ReturnType<Allocator['allocate']>,
  valid: (row: AllocRow) => readonly string[],
): void {
  describe(name, () => {
    const alloc = new Allocator(pools);
    rows.forEach((row, i) => {
      it(`#${i + 1} ${row.desc}`, () => {
        if (row.unassign) {
          alloc.release(row.svc);
          return;
        }
        const c = claimant(row.svc, {
          families: { want: row.family ?? 4, policy: row.policy ?? 'SingleStack' },
          ports: row.ports ?? [],
          sharingKey: row.sharingKey ?? '',
        });
        const r = attempt(alloc, c, row);
        expect(r.ok).toBe(!row.wantErr);
        if (r.ok) for (const a of texts(r.ips)) expect(valid(row)).toContain(a);
      });
    });
  });
}

/** The rows MetalLB's TestPoolAllocation and TestAllocation share: v4, then v6, then RequireDualStack. */
function sixServiceRows(
  family: FamilyWant,
  label: string,
  policy: IpFamilyPolicy = 'SingleStack',
): AllocRow[] {
  const f = { family, policy };
  return [
    { desc: `s1 gets ${label}`, svc: 's1', ...f },
    { desc: `s2 gets ${label}`, svc: 's2', ...f },
    { desc: `s3 gets ${label}`, svc: 's3', ...f },
    { desc: `s4 gets ${label}`, svc: 's4', ...f },
    { desc: `s5 can't get ${label}`, svc: 's5', wantErr: true, ...f },
    { desc: `s6 can't get ${label}`, svc: 's6', wantErr: true, ...f },
  ];
}

const clearAll = (label: string): AllocRow[] =>
  ['s1', 's2', 's3', 's4', 's5', 's6'].map((svc) => ({
    desc: `${svc} clear old ${label} address`,
    svc,
    unassign: true,
  }));

{
  const v4 = ['1.2.3.4', '1.2.3.5', '1.2.3.10', '1.2.3.11'];
  const v6 = ['1000::', '1000::1', '2000::', '2000::1'];
  // test-v4, test-v6 and test-dualstack overlap "test" in MetalLB's table; here they have ranges of their own.
  const ownV4 = ['1.2.4.4', '1.2.4.5', '1.2.4.10', '1.2.4.11'];
  const ownV6 = ['1001::', '1001::1', '2001::', '2001::1'];
  const poolFamilyRows = (
    family: FamilyWant,
    label: string,
    policy: IpFamilyPolicy = 'SingleStack',
  ): AllocRow[] => {
    const f = { family, policy };
    return [
      ...sixServiceRows(family, label, policy),
      { desc: `s1 releases its ${label}`, svc: 's1', unassign: true },
      { desc: `s5 can now grab s1's former ${label}`, svc: 's5', ...f },
      { desc: `s6 still can't get ${label}`, svc: 's6', wantErr: true, ...f },
      { desc: `s5 unassigns in prep for enabling ${label} sharing`, svc: 's5', unassign: true },
      { desc: `s5 enables ${label} sharing`, svc: 's5', ports: ports('tcp/80'), sharingKey: 'share', ...f },
      {
        desc: `s6 can get ${label} now, with sharing`,
        svc: 's6',
        ports: ports('tcp/443'),
        sharingKey: 'share',
        ...f,
      },
    ];
  };
  runAllocationTable(
    'allocator_test.go TestPoolAllocation',
    [
      pool('not_this_one', ['192.168.0.0/16', 'fc00::1:0/112']),
      pool('test', ['1.2.3.4/31', '1.2.3.10/31', '1000::/127', '2000::/127']),
      pool('test2', ['10.20.30.0/24', 'fc00::2:0/120']),
      pool('test-v4', ['1.2.4.4/31', '1.2.4.10/31']),
      pool('test-v6', ['1001::/127', '2001::/127']),
      pool('test-dualstack', ['1.2.5.4/31', '1.2.5.10/31', '1002::/127', '2002::/127']),
    ],
    [
      ...poolFamilyRows(4, 'an IPv4'),
      ...clearAll('ipv4'),
      ...poolFamilyRows(6, 'an IP6'),
      // The "should-not-happen" case: a service already holding an address of the other family.
      { desc: 's1 clear', svc: 's1', unassign: true },
      { desc: 's1 get an IPv4', svc: 's1', family: 4 },
      { desc: 's1 get an IPv6', svc: 's1', family: 6, wantErr: true },
      ...clearAll('ipv6'),
      ...poolFamilyRows('dual', 'dual-stack IPs', 'RequireDualStack'),
      ...clearAll('dual-stack'),
      // PreferDualStack.
      { desc: 's1 gets dual-stack IPs', svc: 's1', family: 'dual', policy: 'PreferDualStack' },
      { desc: 's2 gets ipv4 IP', svc: 's2', family: 4, policy: 'PreferDualStack', pool: 'test-v4' },
      { desc: 's3 gets ipv6 IP', svc: 's3', family: 6, policy: 'PreferDualStack', pool: 'test-v6' },
      { desc: 's2 clear old ipv4 address', svc: 's2', unassign: true },
      // s3 keeps the IPv6 address it holds: PreferDualStack accepts one family.
      {
        desc: 's3 gets dualstack',
        svc: 's3',
        family: 'dual',
        policy: 'PreferDualStack',
        pool: 'test-dualstack',
      },
      { desc: 'Allocating from non-existent pool fails', svc: 's5', unassign: true },
      { desc: 'Allocating from non-existent pool fails', svc: 's5', pool: 'nonexistentpool', wantErr: true },
    ],
    (a, c, row) => a.allocateFromPool(c, row.pool ?? 'test'),
    (row) =>
      row.pool === 'test-v4'
        ? ownV4
        : row.pool === 'test-v6' || row.pool === 'test-dualstack'
          ? ownV6
          : [...v4, ...v6],
  );
}

{
  const valid = ['1.2.3.4', '1.2.3.5', '1.2.3.10', '1.2.3.11', '1000::4', '1000::5', '1000::10', '1000::11'];
  const familyRows = (
    family: FamilyWant,
    label: string,
    policy: IpFamilyPolicy = 'SingleStack',
  ): AllocRow[] => {
    const f = { family, policy };
    return [
      ...sixServiceRows(family, label, policy),
      { desc: `s1 gives up its ${label}`, svc: 's1', unassign: true },
      { desc: `s5 can now get ${label}`, svc: 's5', ports: ports('tcp/80'), sharingKey: 'share', ...f },
      { desc: `s6 still can't get ${label}`, svc: 's6', wantErr: true, ...f },
      {
        desc: `s6 can get ${label} with sharing`,
        svc: 's6',
        ports: ports('tcp/443'),
        sharingKey: 'share',
        ...f,
      },
    ];
  };
  runAllocationTable(
    'allocator_test.go TestAllocation',
    [pool('test1', ['1.2.3.4/31', '1000::4/127']), pool('test2', ['1.2.3.10/31', '1000::10/127'])],
    [
      ...familyRows(4, 'an IPv4'),
      ...clearAll('ipv4'),
      ...familyRows(6, 'an IPv6'),
      ...clearAll('ipv6'),
      ...familyRows('dual', 'dual-stack IPs', 'RequireDualStack'),
    ],
    (a, c) => a.allocate(c),
    () => valid,
  );
}

runAllocationTable(
  'allocator_test.go TestBuggyIPs',
  [
    pool('test', ['1.2.3.0/31']),
    pool('test2', ['1.2.3.254/31']),
    pool('test3', ['1.2.4.0/31'], { avoidBuggyIPs: true }),
    pool('test4', ['1.2.4.254/31'], { avoidBuggyIPs: true }),
  ],
  [
    ...['s1', 's2', 's3', 's4', 's5', 's6'].map((svc) => ({ desc: svc, svc })),
    { desc: 's7', svc: 's7', wantErr: true },
  ],
  (a, c) => a.allocate(c),
  () => ['1.2.3.0', '1.2.3.1', '1.2.3.254', '1.2.3.255', '1.2.4.1', '1.2.4.254'],
);

{
  // Only 1.2.3.10/31 and 1000::10/127 may be allocated automatically.
  const valid = ['1.2.3.10', '1.2.3.11', '1000::10', '1000::11'];
  runAllocationTable(
    'allocator_test.go TestAutoAssign',
    [
      pool('test1', ['1.2.3.4/31', '1000::4/127'], { autoAssign: false }),
      pool('test2', ['1.2.3.10/31', '1000::10/127']),
    ],
    [
      { desc: 's1 v4', svc: 's1', family: 4 },
      { desc: 's2 v4', svc: 's2', family: 4 },
      { desc: 's3 v4', svc: 's3', family: 4, wantErr: true },
      { desc: 's4 v4', svc: 's4', family: 4, wantErr: true },
      { desc: 's5 v4', svc: 's5', family: 4, wantErr: true },
      ...clearAll('ipv4'),
      { desc: 's1 v6', svc: 's1', family: 6 },
      { desc: 's2 v6', svc: 's2', family: 6 },
      { desc: 's3 v6', svc: 's3', family: 6, wantErr: true },
      { desc: 's4 v6', svc: 's4', family: 6, wantErr: true },
      { desc: 's5 v6', svc: 's5', family: 6, wantErr: true },
      // s1 and s2 still hold their IPv6 addresses, which Allocate re-asserts.
      { desc: 's1 dual (keeps its address)', svc: 's1', family: 'dual' },
      { desc: 's2 dual (keeps its address)', svc: 's2', family: 'dual' },
      { desc: 's3 dual', svc: 's3', family: 'dual', wantErr: true },
      { desc: 's4 dual', svc: 's4', family: 'dual', wantErr: true },
      { desc: 's5 dual', svc: 's5', family: 'dual', wantErr: true },
    ],
    (a, c) => a.allocate(c),
    () => valid,
  );
}

describe('allocator_test.go TestConfigReload', () => {
  const cases: {
    desc: string;
    pools: IPAddressPool[];
    poolS1: string | undefined;
    poolS2: string | undefined;
  }[] = [
    {
      desc: 'set same config is no-op',
      pools: [pool('test', ['1.2.3.0/30', '1000::/126'])],
      poolS1: 'test',
      poolS2: 'test',
    },
    {
      desc: 'expand pool',
      pools: [pool('test', ['1.2.3.0/24', '1000::/120'])],
      poolS1: 'test',
      poolS2: 'test',
    },
    {
      desc: 'shrink pool',
      pools: [pool('test', ['1.2.3.0/30', '1000::/126'])],
      poolS1: 'test',
      poolS2: 'test',
    },
    {
      desc: "can't shrink further, removing the service allocation",
      pools: [pool('test', ['1.2.3.2/31', '1000::0/126'])],
      poolS1: undefined,
      poolS2: 'test',
    },
    {
      desc: "can't shrink further ipv6, removing the service allocation",
      pools: [pool('test', ['1.2.3.0/30', '1000::2/127'])],
      poolS1: 'test',
      poolS2: undefined,
    },
    {
      desc: 'rename the pool',
      pools: [pool('test2', ['1.2.3.0/30', '1000::0/126'])],
      poolS1: 'test2',
      poolS2: 'test2',
    },
    {
      desc: 'split pool',
      pools: [pool('test', ['1.2.3.0/31', '1000::2/127']), pool('test2', ['1.2.3.2/31', '1000::/127'])],
      poolS1: 'test',
      poolS2: 'test2',
    },
    {
      desc: 'enable buggy IPs not allowed',
      pools: [pool('test2', ['1.2.3.0/31', '1000::/127'], { avoidBuggyIPs: true })],
      poolS1: undefined,
      poolS2: 'test2',
    },
  ];
  for (const t of cases) {
    it(t.desc, () => {
      const alloc = new Allocator([
        pool('test', ['1.2.3.0/30', '1000::/126']),
        pool('unused', ['1.2.4.0/30', '1001::/126']),
      ]);
      expect(alloc.assign(claimant('s1'), ips('1.2.3.0')).ok).toBe(true);
      expect(alloc.assign(claimant('s2', { families: { want: 6 } }), ips('1000::')).ok).toBe(true);
      const report = alloc.setPools(t.pools);
      expect(alloc.assignment('s1')?.pool).toBe(t.poolS1);
      expect(alloc.assignment('s2')?.pool).toBe(t.poolS2);
      const lost = [t.poolS1 === undefined && 's1', t.poolS2 === undefined && 's2'].filter(Boolean);
      expect(report.released.map((r) => r.service)).toEqual(lost);
    });
  }
});

describe('allocator_test.go TestPoolCount', () => {
  const cases = [
    { desc: 'BGP /24', pool: pool('p', ['1.2.3.0/24']), ipv4: 256n, ipv6: 0n },
    { desc: 'BGP /24 and /25', pool: pool('p', ['1.2.3.0/24', '2.3.4.128/25']), ipv4: 384n, ipv6: 0n },
    {
      desc: 'BGP /24 and /25, no buggy IPs',
      pool: pool('p', ['1.2.3.0/24', '2.3.4.128/25'], { avoidBuggyIPs: true }),
      ipv4: 381n,
      ipv6: 0n,
    },
    {
      desc: 'BGP a BIG ipv6 range (exact here, MaxInt64 in MetalLB)',
      pool: pool('p', ['1.2.3.0/24', '2.3.4.128/25', '1000::/64'], { avoidBuggyIPs: true }),
      ipv4: 381n,
      ipv6: 1n << 64n,
    },
    {
      desc: 'ipv4 and ipv6 range',
      pool: pool('p', ['1.2.3.0/31', '1000::/127'], { avoidBuggyIPs: true }),
      ipv4: 1n,
      ipv6: 2n,
    },
  ];
  for (const t of cases) {
    it(t.desc, () => {
      const s = new Allocator([t.pool]).stats('p')!;
      expect([s.capacityIPv4, s.capacityIPv6]).toEqual([t.ipv4, t.ipv6]);
      expect([s.availableIPv4, s.availableIPv6]).toEqual([t.ipv4, t.ipv6]);
    });
  }
});

describe('allocator_test.go TestPoolMetrics', () => {
  const events: AllocatorEvent[] = [];
  const alloc = new Allocator([pool('test', ['1.2.3.4/30', '1000::4/126'])], {
    onEvent: (e) => events.push(e),
  });
  const counters = (inUse: bigint) => ({
    capacityIPv4: 4n,
    capacityIPv6: 4n,
    availableIPv4: 4n - inUse,
    availableIPv6: 4n,
    assignedIPv4: inUse,
    assignedIPv6: 0n,
  });

  it('initial counters: 4 + 4 addresses, none in use', () => {
    expect(alloc.stats('test')).toEqual(counters(0n));
  });

  const rows: {
    desc: string;
    svc: string;
    ips?: string[];
    sharingKey?: string;
    ports?: Port[];
    inUse: bigint;
  }[] = [
    { desc: 'assign s1', svc: 's1', ips: ['1.2.3.4'], inUse: 1n },
    { desc: 'assign s2', svc: 's2', ips: ['1.2.3.5'], inUse: 2n },
    { desc: 'unassign s1', svc: 's1', inUse: 1n },
    { desc: 'unassign s2', svc: 's2', inUse: 0n },
    {
      desc: 'assign s1 shared',
      svc: 's1',
      ips: ['1.2.3.4'],
      sharingKey: 'key',
      ports: ports('tcp/80'),
      inUse: 1n,
    },
    {
      desc: 'assign s2 shared',
      svc: 's2',
      ips: ['1.2.3.4'],
      sharingKey: 'key',
      ports: ports('tcp/443'),
      inUse: 1n,
    },
    {
      desc: 'assign s3 shared',
      svc: 's3',
      ips: ['1.2.3.4'],
      sharingKey: 'key',
      ports: ports('tcp/23'),
      inUse: 1n,
    },
    { desc: 'unassign s1 shared', svc: 's1', inUse: 1n },
    { desc: 'unassign s2 shared', svc: 's2', inUse: 1n },
    { desc: 'unassign s3 shared', svc: 's3', inUse: 0n },
  ];
  rows.forEach((row, i) => {
    it(`#${i + 1} ${row.desc}`, () => {
      const before = events.length;
      if (row.ips) {
        const c = claimant(row.svc, { sharingKey: row.sharingKey ?? '', ports: row.ports ?? [] });
        expect(alloc.assign(c, ips(...row.ips)).ok).toBe(true);
      } else {
        alloc.release(row.svc);
      }
      expect(alloc.stats('test')).toEqual(counters(row.inUse));
      // MetalLB calls its counters callback once per change; lblab publishes one event per change.
      expect(events.length).toBe(before + 1);
    });
  });

  it('removing the pool drops its counters', () => {
    expect(alloc.assign(claimant('s1'), ips('1.2.3.4')).ok).toBe(true);
    const report = alloc.setPools([]);
    expect(report.released.map((r) => r.service)).toEqual(['s1']);
    expect(alloc.stats('test')).toBeUndefined();
  });
});
