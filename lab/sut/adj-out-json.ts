/**
 * What a daemon sends one neighbor (its adj-RIB-out), from FRR 8.4's `show bgp <afi> unicast neighbors
 * X advertised-routes json` and GoBGP 3's `gobgp -j neighbor X adj-out -a <afi>`: the canonical prefixes.
 */
import { SutOutputError } from './errors.ts';
import { isObject, parseJson } from './json.ts';
import { canonicalPrefix } from './normalise.ts';

/** FRR: `{"advertisedRoutes": {prefix: {...}}, ...}`. */
export function parseFrrAdvertised(text: string): string[] {
  const doc = parseJson(text, 'FRR advertised routes');
  if (!isObject(doc)) throw new SutOutputError(`FRR advertised routes: not an object: ${text.slice(0, 200)}`);
  const routes = doc['advertisedRoutes'];
  // An empty adj-RIB-out has no "advertisedRoutes"; a neighbor without the family has a "warning" only.
  if (routes === undefined) return [];
  if (!isObject(routes))
    throw new SutOutputError(
      `FRR advertised routes: "advertisedRoutes" is not an object: ${text.slice(0, 200)}`,
    );
  return Object.keys(routes).map(canonicalPrefix).sort();
}

/** GoBGP: an object keyed by prefix (empty when nothing is sent; GoBGP may also print nothing). */
export function parseGobgpAdjOut(text: string): string[] {
  const doc = parseJson(text, 'GoBGP adj-out', { emptyIsNull: true });
  if (doc === null) return [];
  if (!isObject(doc)) throw new SutOutputError(`GoBGP adj-out: not an object: ${text.slice(0, 200)}`);
  return Object.keys(doc).map(canonicalPrefix).sort();
}
