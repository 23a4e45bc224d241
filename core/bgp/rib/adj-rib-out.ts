import type { Prefix } from '../../net/index.ts';
import { attributesKey, type Route } from './route.ts';

/** What changed since the last sync: announcements grouped by identical attributes, and withdrawals. */
export interface RibChanges {
  readonly announce: readonly { readonly routes: readonly Route[] }[];
  readonly withdraw: readonly Prefix[];
}

/**
 * The routes advertised to one peer (RFC 4271 §3.2 Adj-RIB-Out). `sync` takes what should be advertised
 * now and returns only the difference from what the peer has been told, so a service change costs one
 * small UPDATE, not a full table.
 */
export class AdjRibOut {
  /** prefix text → route as the peer last heard it. */
  private readonly sent = new Map<string, Route>();

  sync(desired: readonly Route[]): RibChanges {
    const want = new Map(desired.map((r) => [r.prefix.toString(), r]));
    const groups = new Map<string, Route[]>();
    for (const [key, route] of want) {
      const had = this.sent.get(key);
      if (had !== undefined && attributesKey(had.attributes) === attributesKey(route.attributes)) continue;
      addTo(groups, route);
      this.sent.set(key, route);
    }
    const withdraw: Prefix[] = [];
    for (const [key, route] of this.sent) {
      if (want.has(key)) continue;
      withdraw.push(route.prefix);
      this.sent.delete(key);
    }
    return { announce: [...groups.values()].map((routes) => ({ routes })), withdraw };
  }

  /** Everything, as for a new session or a ROUTE-REFRESH (RFC 2918 §4: re-advertise the Adj-RIB-Out). */
  all(): RibChanges {
    const groups = new Map<string, Route[]>();
    for (const route of this.sent.values()) addTo(groups, route);
    return { announce: [...groups.values()].map((routes) => ({ routes })), withdraw: [] };
  }

  /** The session went down: the peer has forgotten (or keeps as stale) what we told it. */
  reset(): void {
    this.sent.clear();
  }

  get size(): number {
    return this.sent.size;
  }
}

/** Groups routes by attributes, so routes that share them share UPDATEs. */
function addTo(groups: Map<string, Route[]>, route: Route): void {
  const key = attributesKey(route.attributes);
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [route]);
  else group.push(route);
}
