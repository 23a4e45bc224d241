import type { Capability } from '../../runner/backend.ts';

type Support = true | string;

/**
 * A backend's capabilities where some depend on the machine (netem is a kernel option): those are
 * checked the first time anyone reads the map, not when the module loads, and then kept.
 */
export class MachineCapabilities implements ReadonlyMap<Capability, Support> {
  private settled: Map<Capability, Support> | undefined;

  constructor(
    private readonly fixed: readonly (readonly [Capability, Support])[],
    private readonly checked: readonly (readonly [Capability, () => Support])[],
  ) {}

  private get map(): Map<Capability, Support> {
    this.settled ??= new Map([...this.fixed, ...this.checked.map(([c, check]) => [c, check()] as const)]);
    return this.settled;
  }

  get size(): number {
    return this.map.size;
  }
  get(key: Capability): Support | undefined {
    return this.map.get(key);
  }
  has(key: Capability): boolean {
    return this.map.has(key);
  }
  forEach(fn: (value: Support, key: Capability, map: ReadonlyMap<Capability, Support>) => void): void {
    this.map.forEach((v, k) => fn(v, k, this));
  }
  entries(): MapIterator<[Capability, Support]> {
    return this.map.entries();
  }
  keys(): MapIterator<Capability> {
    return this.map.keys();
  }
  values(): MapIterator<Support> {
    return this.map.values();
  }
  [Symbol.iterator](): MapIterator<[Capability, Support]> {
    return this.map[Symbol.iterator]();
  }
}
