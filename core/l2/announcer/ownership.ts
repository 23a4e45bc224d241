import type { IpAddress } from '../../net/index.ts';

/** Which interfaces each owned address is answered on, keyed by the address's text. */
export type Ownership = ReadonlyMap<
  string,
  { readonly vip: IpAddress; readonly interfaces: ReadonlySet<string> }
>;

export interface OwnedVip {
  readonly ip: IpAddress;
  readonly interfaces: readonly string[];
}

/**
 * The ownership a setOwned call asks for. An address listed twice (two services sharing it) is owned on
 * the union of its interfaces; an address with no interface is not owned.
 */
export function ownershipOf(vips: readonly OwnedVip[]): Ownership {
  const out = new Map<string, { vip: IpAddress; interfaces: Set<string> }>();
  for (const { ip, interfaces } of vips) {
    if (interfaces.length === 0) continue;
    const key = ip.toString();
    const entry = out.get(key) ?? { vip: ip, interfaces: new Set<string>() };
    for (const i of interfaces) entry.interfaces.add(i);
    out.set(key, entry);
  }
  return out;
}

export interface OwnershipChange {
  readonly vip: IpAddress;
  /** Sorted interface names. */
  readonly interfaces: string[];
}

/** Per address, the interfaces gained and lost going from `from` to `to`, each list in address order. */
export function diffOwnership(
  from: Ownership,
  to: Ownership,
): { gained: OwnershipChange[]; lost: OwnershipChange[] } {
  return { gained: minus(to, from), lost: minus(from, to) };
}

function minus(a: Ownership, b: Ownership): OwnershipChange[] {
  const out: OwnershipChange[] = [];
  for (const [key, { vip, interfaces }] of a) {
    const other = b.get(key)?.interfaces;
    const only = [...interfaces].filter((i) => !other?.has(i)).sort();
    if (only.length > 0) out.push({ vip, interfaces: only });
  }
  return out.sort((x, y) => x.vip.compare(y.vip));
}
