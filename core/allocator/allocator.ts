/**
 * MetalLB's IP allocator (internal/allocator/allocator.go) over balanced-tree free-space sets: taking
 * the lowest free address, a given address, or releasing one is O(log n) in the number of allocations,
 * for pools of any size and either family.
 */
import type { IPAddressPool } from '../config/model.ts';
import { IpAddress, type AddressRange, type IpFamily } from '../net/index.ts';
import { AllocatorConfigError, AllocatorInvariantError } from './errors.ts';
import { openPools, pinnedPools, poolAdmits } from './pool-selection.ts';
import { PoolSpace } from './pool-space.ts';
import { fail, type AllocationFailure, type Outcome } from './results.ts';
import { familyOf } from './service-request.ts';
import { SortedMap } from './sorted-map.ts';
import type { AllocatorEvent, Assignment, Claimant, FamilyWant, PoolStats, Port } from './types.ts';
import { compareText } from '../sort/compare-text.ts';

export interface AllocatorOptions {
  /**
   * Handle only services whose spec.loadBalancerClass is this (MetalLB's --lb-class). Undefined: handle
   * only services without a class.
   */
  loadBalancerClass?: string;
  /** Called after every change of a service's assignment. */
  onEvent?: (event: AllocatorEvent) => void;
}

/** What setPools did to existing assignments. */
export interface PoolChangeReport {
  /** Services whose addresses are in no pool of the new configuration; they hold nothing now. */
  released: { service: string; assignment: Assignment }[];
  /** Services that kept their addresses, now counted in a different (e.g. renamed) pool. */
  moved: { service: string; from: string; to: string }[];
}

/** One service's hold on its addresses. Never changed once made, so its arrays can be handed out. */
interface Holding {
  pool: string;
  ips: readonly IpAddress[];
  ports: readonly Port[];
  sharingKey: string;
  backendKey: string;
}

/** Who uses one address. All users agree on the sharing and backend keys. */
interface AddressUse {
  ip: IpAddress;
  pool: string;
  sharingKey: string;
  backendKey: string;
  /** Services using the address; more than one only when shared, and sharing groups are small. */
  users: string[];
}

interface RangeOwner {
  last: bigint;
  space: PoolSpace;
}

type FreeByFamily = Partial<Record<IpFamily, IpAddress>>;

const portId = (p: Port): string => `${p.protocol}/${p.port}`;
const samePort = (a: Port, b: Port): boolean => a.port === b.port && a.protocol === b.protocol;
const ipv6Tag = 1n << 128n;
/** A map key for an address; IPv6 values are moved above the IPv4 space so the two never collide. */
const addressId = (ip: IpAddress): bigint => (ip.family === 4 ? ip.value : ip.value | ipv6Tag);
const familyName = (f: FamilyWant): string => (f === 'dual' ? 'dual-stack' : `IPv${f}`);

export class Allocator {
  readonly loadBalancerClass: string | undefined;
  private readonly onEvent: ((event: AllocatorEvent) => void) | undefined;
  private spaces = new Map<string, PoolSpace>();
  /** Per family, every pool range keyed by its first address, to find an address's pool in O(log n). */
  private owners = new Map<IpFamily, SortedMap<RangeOwner>>();
  private all: IPAddressPool[] = [];
  /** The pools open to every service, in the order Allocate tries them. */
  private open: IPAddressPool[] = [];
  private readonly holdings = new Map<string, Holding>();
  private readonly uses = new Map<bigint, AddressUse>();
  /** Addresses in use that a service with the same keys could join, per pool, family and keys. */
  private readonly shareable = new Map<string, SortedMap<AddressUse>>();
  private readonly inUse = new Map<string, Record<IpFamily, bigint>>();

  constructor(pools: readonly IPAddressPool[] = [], options: AllocatorOptions = {}) {
    this.loadBalancerClass = options.loadBalancerClass;
    this.onEvent = options.onEvent;
    this.setPools(pools);
  }

  /**
   * Replaces the pools. Assignments whose addresses still lie in one pool are kept (under that pool's
   * name); the others are released and reported, so the caller can converge those services again (as
   * MetalLB reprocesses every service after a config change). Whether a kept address still suits its
   * service (serviceAllocation, requested pool) is the next convergence's business, as in MetalLB.
   */
  setPools(pools: readonly IPAddressPool[]): PoolChangeReport {
    refuseInvalid(pools);
    const spaces = new Map(pools.map((pool) => [pool.meta.name, new PoolSpace(pool)]));
    this.owners = indexRanges(spaces);
    this.spaces = spaces;
    this.all = [...pools];
    this.open = openPools(pools);

    const previous = [...this.holdings].sort(([a], [b]) => compareText(a, b));
    this.holdings.clear();
    this.uses.clear();
    this.shareable.clear();
    this.inUse.clear();
    const report: PoolChangeReport = { released: [], moved: [] };
    for (const [service, holding] of previous) {
      const pool = this.poolFor(holding.ips);
      const before = { ips: holding.ips, pool: holding.pool };
      if (pool === undefined) {
        report.released.push({ service, assignment: before });
        this.onEvent?.({
          kind: 'released',
          service,
          assignment: before,
          reason: 'address no longer in any pool',
        });
        continue;
      }
      this.record(service, { ...holding, pool });
      if (pool !== holding.pool) {
        report.moved.push({ service, from: holding.pool, to: pool });
        this.onEvent?.({
          kind: 'assigned',
          service,
          assignment: { ips: holding.ips, pool },
          previous: before,
        });
      }
    }
    return report;
  }

  hasPools(): boolean {
    return this.spaces.size > 0;
  }

  /** The configured pools' names, in configuration order. */
  poolNames(): string[] {
    return this.all.map((p) => p.meta.name);
  }

  /** The addresses held by a service, if any. */
  assignment(service: string): Assignment | undefined {
    const h = this.holdings.get(service);
    return h && { ips: h.ips, pool: h.pool };
  }

  /** Every assignment, by service key. */
  assignments(): Map<string, Assignment> {
    const keys = [...this.holdings.keys()].sort();
    return new Map(keys.map((k) => [k, this.assignment(k)!]));
  }

  /** The one pool that may hand out all of `ips`, if there is one (MetalLB's PoolForIP). */
  poolFor(ips: readonly IpAddress[]): string | undefined {
    const located = this.locate(ips);
    return located.ok ? located.space.name : undefined;
  }

  /** Counters of one pool; undefined for a pool that is not configured. */
  stats(pool: string): PoolStats | undefined {
    const space = this.spaces.get(pool);
    if (!space) return undefined;
    const used = this.inUse.get(pool) ?? { 4: 0n, 6: 0n };
    return {
      capacityIPv4: space.capacity(4),
      capacityIPv6: space.capacity(6),
      assignedIPv4: used[4],
      assignedIPv6: used[6],
      availableIPv4: space.capacity(4) - used[4],
      availableIPv6: space.capacity(6) - used[6],
    };
  }

  /**
   * Gives the service exactly `ips` (one, or one per family), all from one pool that admits the
   * service, if every address is free or shareable with it (MetalLB's Assign). Re-asserting what the
   * service holds is idempotent; it also updates the ports and keys recorded for it.
   */
  assign(c: Claimant, ips: readonly IpAddress[]): Outcome<Assignment> {
    if (familyOf(ips) === undefined) {
      return fail(
        'INVALID_IP_SET',
        `an assignment is one address or one of each family, not [${ips.join(', ')}]`,
      );
    }
    const located = this.locate(ips);
    if (!located.ok) return located;
    const { space } = located;
    if (!poolAdmits(space.config, c)) {
      return fail(
        'POOL_NOT_ALLOWED',
        `pool ${space.name} is not allowed for service ${c.key} (serviceAllocation)`,
      );
    }
    for (const ip of ips) {
      const refused = this.sharingRefusal(c, ip);
      if (refused) return { ok: false, reason: refused };
    }
    const previous = this.holdings.get(c.key);
    if (previous) this.unrecord(c.key, previous);
    const next: Holding = {
      pool: space.name,
      ips: [...ips],
      ports: [...c.ports],
      sharingKey: c.sharingKey,
      backendKey: c.backendKey,
    };
    this.record(c.key, next);
    const assignment = { ips: next.ips, pool: space.name };
    if (!previous || !sameAssignment(previous, next)) {
      this.onEvent?.({
        kind: 'assigned',
        service: c.key,
        assignment,
        ...(previous && { previous: { ips: previous.ips, pool: previous.pool } }),
      });
    }
    return { ok: true, ...assignment };
  }

  /**
   * Allocates for the service from the best pool it may use (MetalLB's Allocate): first the pools whose
   * serviceAllocation selects it, by priority, then the auto-assign pools open to all; within a pool
   * the lowest free (or shareable) address of its first range that has one. A service that already
   * holds addresses keeps them.
   */
  allocate(c: Claimant): Outcome<Assignment> {
    const held = this.holdings.get(c.key);
    if (held) return this.assign(c, held.ips);
    for (const candidates of [pinnedPools(this.all, c), this.open]) {
      const best = this.bestPool(candidates, c);
      if (!best) continue;
      const ips = selectIps(best.free, c, best.space.name);
      if (ips.ok) {
        const assigned = this.assign(c, ips.ips);
        if (assigned.ok) return assigned;
      }
    }
    return fail('NO_FREE_ADDRESS', `no available IPs of family ${familyName(c.families.want)} for ${c.key}`);
  }

  /** Allocates from the named pool only (the address-pool annotation); auto-assign does not matter. */
  allocateFromPool(c: Claimant, pool: string): Outcome<Assignment> {
    const held = this.holdings.get(c.key);
    if (held) {
      // "Should not happen": a Service's families are immutable. PreferDualStack may hold fewer.
      const heldFamily = familyOf(held.ips);
      if (c.families.policy !== 'PreferDualStack' && heldFamily !== c.families.want) {
        return fail(
          'FAMILY_MISMATCH',
          `${c.key} holds ${held.ips.join(', ')}, not ${familyName(c.families.want)}`,
        );
      }
      return this.assign(c, held.ips);
    }
    const space = this.spaces.get(pool);
    if (!space) return fail('POOL_NOT_FOUND', `unknown pool "${pool}"`);
    if (!poolAdmits(space.config, c)) {
      return fail('POOL_NOT_ALLOWED', `pool ${pool} is not allowed for service ${c.key} (serviceAllocation)`);
    }
    const ips = selectIps(this.freeIps(space, c, familiesToSearch(c.families.want)), c, pool);
    return ips.ok ? this.assign(c, ips.ips) : ips;
  }

  /**
   * For a PreferDualStack service holding one address: adds one of the other family from the same pool,
   * keeping the first (MetalLB's AllocateFromPoolForAdditionalFamily).
   */
  allocateAdditionalFamily(c: Claimant): Outcome<Assignment> {
    const held = this.holdings.get(c.key);
    const existing = held?.ips.length === 1 ? held.ips[0] : undefined;
    if (!held || !existing) throw new AllocatorInvariantError(`${c.key} does not hold exactly one address`);
    const other: IpFamily = existing.family === 4 ? 6 : 4;
    const space = this.spaces.get(held.pool);
    if (!space) throw new AllocatorInvariantError(`${c.key} holds an address of unknown pool ${held.pool}`);
    const ip = this.freeIps(space, c, [other])[other];
    if (!ip) return fail('POOL_EXHAUSTED', `no available IPv${other} in pool ${held.pool}`);
    return this.assign(c, [existing, ip]);
  }

  /** Frees the service's addresses (MetalLB's Unassign); returns what it held. */
  release(service: string, reason = 'released'): Assignment | undefined {
    const h = this.holdings.get(service);
    if (!h) return undefined;
    this.unrecord(service, h);
    const assignment = { ips: h.ips, pool: h.pool };
    this.onEvent?.({ kind: 'released', service, assignment, reason });
    return assignment;
  }

  private locate(ips: readonly IpAddress[]): Outcome<{ space: PoolSpace }> {
    let space: PoolSpace | undefined;
    for (const ip of ips) {
      const owner = this.owners.get(ip.family)?.floor(ip.value)?.value;
      const here = owner && ip.value <= owner.last && owner.space.contains(ip) ? owner.space : undefined;
      if (!here) return fail('NOT_IN_POOL', `"${ip}" is not allowed in config`);
      if (space && space !== here) {
        return fail(
          'IPS_IN_DIFFERENT_POOLS',
          `[${ips.join(', ')}] are in pools ${space.name} and ${here.name}`,
        );
      }
      space = here;
    }
    if (!space) return fail('INVALID_IP_SET', 'no addresses given');
    return { ok: true, space };
  }

  /** Why the service may not use `ip` next to its current users (MetalLB's checkSharing), if it may not. */
  private sharingRefusal(c: Claimant, ip: IpAddress): AllocationFailure | undefined {
    const use = this.uses.get(addressId(ip));
    if (!use) return undefined;
    const mismatch = keyMismatch(use, c);
    if (mismatch) {
      // A service that is the address's only user may change its keys in place.
      const others = use.users.filter((u) => u !== c.key).sort();
      if (others.length > 0) {
        return {
          code: 'IP_IN_USE',
          message: `${ip} is in use by ${others.join(', ')} and cannot be shared: ${mismatch}`,
        };
      }
    }
    const clash = this.portClash(use, c);
    return (
      clash && {
        code: 'PORT_IN_USE',
        message: `port ${portId(clash.port)} is already in use on "${ip}" by ${clash.owner}`,
      }
    );
  }

  /** A port of the service that another user of the address already has, if any. */
  private portClash(use: AddressUse, c: Claimant): { port: Port; owner: string } | undefined {
    for (const owner of use.users) {
      if (owner === c.key) continue;
      const theirs = this.holdings.get(owner)!.ports;
      const port = c.ports.find((p) => theirs.some((q) => samePort(p, q)));
      if (port) return { port, owner };
    }
    return undefined;
  }

  /**
   * MetalLB's findBestPoolForService: the first pool with an address of each wanted family; for a
   * PreferDualStack dual service that no pool serves fully, the first pool with an address of the
   * primary family, else of the secondary.
   */
  private bestPool(
    pools: readonly IPAddressPool[],
    c: Claimant,
  ): { space: PoolSpace; free: FreeByFamily } | undefined {
    const { want, policy, primary } = c.families;
    const secondary: IpFamily = primary === 4 ? 6 : 4;
    let primaryOnly: { space: PoolSpace; free: FreeByFamily } | undefined;
    let secondaryOnly: typeof primaryOnly;
    for (const pool of pools) {
      const space = this.spaces.get(pool.meta.name)!;
      const free = this.freeIps(space, c, familiesToSearch(want));
      if (want !== 'dual' ? free[want] : free[4] && free[6]) return { space, free };
      if (want !== 'dual' || policy !== 'PreferDualStack') continue;
      if (free[primary] && !primaryOnly) primaryOnly = { space, free };
      if (free[secondary] && !secondaryOnly) secondaryOnly = { space, free };
    }
    return primaryOnly ?? secondaryOnly;
  }

  private freeIps(space: PoolSpace, c: Claimant, families: readonly IpFamily[]): FreeByFamily {
    const out: FreeByFamily = {};
    for (const f of families) {
      const ip = this.freeAddress(space, f, c);
      if (ip) out[f] = ip;
    }
    return out;
  }

  /**
   * MetalLB's getIPFromCIDR over the pool's ranges in order: the lowest address of the first range that
   * has one the service may take, free or shareable. Shareable candidates are only the addresses with
   * the service's own keys below the range's lowest free address, so the walk is short.
   */
  private freeAddress(space: PoolSpace, family: IpFamily, c: Claimant): IpAddress | undefined {
    const joinable = c.sharingKey === '' ? undefined : this.shareable.get(shareId(space.name, family, c));
    for (const range of space.ranges(family)) {
      const free = space.lowestFree(family, range);
      if (joinable) {
        for (const { key, value: use } of joinable.entriesFrom(range.first)) {
          if (key > range.last || (free !== undefined && key >= free)) break;
          if (!this.portClash(use, c)) return use.ip;
        }
      }
      if (free !== undefined) return IpAddress.of(family, free);
    }
    return undefined;
  }

  private record(service: string, h: Holding): void {
    for (const ip of h.ips) {
      const id = addressId(ip);
      let use = this.uses.get(id);
      if (!use) {
        const space = this.spaces.get(h.pool)!;
        space.take(ip);
        use = {
          ip,
          pool: h.pool,
          sharingKey: h.sharingKey,
          backendKey: h.backendKey,
          users: [],
        };
        this.uses.set(id, use);
        this.countInUse(h.pool, ip.family, 1n);
        if (use.sharingKey !== '') {
          const key = shareId(h.pool, ip.family, use);
          let index = this.shareable.get(key);
          if (!index) this.shareable.set(key, (index = new SortedMap()));
          index.set(ip.value, use);
        }
      }
      use.users.push(service);
    }
    this.holdings.set(service, h);
  }

  private unrecord(service: string, h: Holding): void {
    for (const ip of h.ips) {
      const id = addressId(ip);
      const use = this.uses.get(id);
      const at = use ? use.users.indexOf(service) : -1;
      if (!use || at < 0) throw new AllocatorInvariantError(`${service} is not a user of ${ip}`);
      use.users.splice(at, 1);
      if (use.users.length > 0) continue;
      this.uses.delete(id);
      this.spaces.get(use.pool)!.give(ip);
      this.countInUse(use.pool, ip.family, -1n);
      if (use.sharingKey !== '') {
        const key = shareId(use.pool, ip.family, use);
        const index = this.shareable.get(key)!;
        index.delete(ip.value);
        if (index.size === 0) this.shareable.delete(key);
      }
    }
    this.holdings.delete(service);
  }

  private countInUse(pool: string, family: IpFamily, delta: bigint): void {
    let counts = this.inUse.get(pool);
    if (!counts) this.inUse.set(pool, (counts = { 4: 0n, 6: 0n }));
    counts[family] += delta;
  }
}

/** Why a service with keys `b` may not share an address held under keys `a` (MetalLB's sharingOK). */
function keyMismatch(a: { sharingKey: string; backendKey: string }, b: Claimant): string | undefined {
  if (a.sharingKey === '') return 'existing service does not allow sharing';
  if (b.sharingKey === '') return 'new service does not allow sharing';
  if (a.sharingKey !== b.sharingKey) {
    return `sharing key "${b.sharingKey}" does not match existing sharing key "${a.sharingKey}"`;
  }
  if (a.backendKey !== b.backendKey) {
    return `backend key "${b.backendKey}" does not match existing backend key "${a.backendKey}"`;
  }
  return undefined;
}

function shareId(pool: string, family: IpFamily, keys: { sharingKey: string; backendKey: string }): string {
  return JSON.stringify([pool, family, keys.sharingKey, keys.backendKey]);
}

function familiesToSearch(want: FamilyWant): IpFamily[] {
  return want === 'dual' ? [4, 6] : [want];
}

/**
 * MetalLB's selectIPsForFamilyAndPolicy: the addresses to take from a pool's free ones. Dual-stack
 * addresses are always given IPv4 first, as MetalLB does.
 */
function selectIps(free: FreeByFamily, c: Claimant, pool: string): Outcome<{ ips: IpAddress[] }> {
  const { want, policy } = c.families;
  const v4 = free[4];
  const v6 = free[6];
  let ips: IpAddress[] | undefined;
  if (want !== 'dual') ips = free[want] && [free[want]];
  else if (v4 && v6 && policy !== 'SingleStack') ips = [v4, v6];
  else if (policy === 'PreferDualStack') ips = v4 ? [v4] : v6 && [v6];
  return ips
    ? { ok: true, ips }
    : fail('POOL_EXHAUSTED', `no available IPs in pool ${pool} for ${familyName(want)}`);
}

function sameAssignment(a: Holding, b: Holding): boolean {
  return a.pool === b.pool && a.ips.length === b.ips.length && a.ips.every((ip, i) => ip.equals(b.ips[i]!));
}

/** Refuses duplicate pool names and overlapping ranges, within or across pools. */
function refuseInvalid(pools: readonly IPAddressPool[]): void {
  const names = new Set<string>();
  const ranges: { pool: string; text: string; range: AddressRange }[] = [];
  for (const pool of pools) {
    if (names.has(pool.meta.name)) throw new AllocatorConfigError(`duplicate pool name ${pool.meta.name}`);
    names.add(pool.meta.name);
    for (const { text, range } of pool.addresses) ranges.push({ pool: pool.meta.name, text, range });
  }
  ranges.sort((a, b) => a.range.first.compare(b.range.first));
  for (let i = 1; i < ranges.length; i++) {
    const [a, b] = [ranges[i - 1]!, ranges[i]!];
    if (a.range.overlaps(b.range)) {
      throw new AllocatorConfigError(
        `address range ${b.text} of pool ${b.pool} overlaps ${a.text} of pool ${a.pool}`,
      );
    }
  }
}

/** Indexes every range by family and first address (ranges do not overlap: see refuseInvalid). */
function indexRanges(spaces: ReadonlyMap<string, PoolSpace>): Map<IpFamily, SortedMap<RangeOwner>> {
  const index = new Map<IpFamily, SortedMap<RangeOwner>>([
    [4, new SortedMap()],
    [6, new SortedMap()],
  ]);
  for (const space of spaces.values()) {
    for (const { range } of space.config.addresses) {
      index.get(range.family)!.set(range.first.value, { last: range.last.value, space });
    }
  }
  return index;
}
