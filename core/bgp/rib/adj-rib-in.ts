import type { Prefix } from '../../net/index.ts';
import type { AfiSafi } from '../afi.ts';
import type { PathAttributes, UpdateMessage } from '../codec.ts';

export interface ReceivedRoute {
  readonly prefix: Prefix;
  readonly attributes: PathAttributes;
  /** Kept from before the peer restarted, not yet refreshed (RFC 4724 §4.2). */
  readonly stale: boolean;
}

/**
 * What a peer sent us (RFC 4271 §3.2 Adj-RIB-In). lblab never installs these routes: it keeps them so
 * that operators and tests can see what the router offers, and to enforce a maximum-prefix limit.
 */
export class AdjRibIn {
  private readonly routes = new Map<string, ReceivedRoute>();
  private changes = 0;

  /**
   * Counts the changes to what is held (UPDATEs, stale marking, drops, clears): a reader that derives
   * something from the routes (a router's RIB) can skip the work while it stays the same.
   */
  get version(): number {
    return this.changes;
  }

  /** Applies an UPDATE; returns the number of routes held afterwards. */
  apply(u: UpdateMessage): number {
    this.changes++;
    const withdrawn = [...u.withdrawn, ...(u.attributes.mpUnreach?.withdrawn ?? [])];
    const reach = [...u.nlri, ...(u.attributes.mpReach?.nlri ?? [])];
    for (const p of withdrawn) this.routes.delete(p.toString());
    // RFC 7606 §2 treat-as-withdraw: the prefixes of a malformed UPDATE are removed, not replaced.
    if (u.treatAsWithdraw !== undefined) for (const p of reach) this.routes.delete(p.toString());
    else
      for (const p of reach)
        this.routes.set(p.toString(), { prefix: p, attributes: u.attributes, stale: false });
    return this.routes.size;
  }

  /** The peer restarts gracefully: keep everything, marked stale (RFC 4724 §4.2). */
  markStale(): void {
    this.changes++;
    for (const [key, r] of this.routes) this.routes.set(key, { ...r, stale: true });
  }

  /** End-of-RIB (or the restart timer) for a family: what is still stale is gone (RFC 4724 §4.2). */
  dropStale(family?: AfiSafi): number {
    let dropped = 0;
    for (const [key, r] of this.routes) {
      if (!r.stale || (family !== undefined && r.prefix.family !== (family.afi === 1 ? 4 : 6))) continue;
      this.routes.delete(key);
      dropped++;
    }
    if (dropped > 0) this.changes++;
    return dropped;
  }

  clear(): void {
    this.changes++;
    this.routes.clear();
  }

  list(): ReceivedRoute[] {
    return [...this.routes.values()];
  }

  get size(): number {
    return this.routes.size;
  }

  get staleCount(): number {
    let n = 0;
    for (const r of this.routes.values()) if (r.stale) n++;
    return n;
  }
}
