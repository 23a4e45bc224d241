import type { L2Assignment } from '../l2/election/index.ts';
import type { IpAddress } from '../net/index.ts';
import { compareText } from '../sort/compare-text.ts';

/**
 * What changed between two elections, and who owns what in one, each worked out once per pair of result
 * arrays. In the emulator every speaker with the same view holds the very same arrays (the shared
 * election), so 2000 speakers reading a change of 10,000 services cost one walk, not 2000; a real speaker
 * works each out once, as it did inline.
 */

/** One service's change, in service order: its addresses went (or changed), or its owner did. */
export type ElectionStep =
  | { readonly kind: 'gone'; readonly was: L2Assignment }
  | { readonly kind: 'owner'; readonly now: L2Assignment; readonly was: string | undefined };

const diffs = new WeakMap<readonly L2Assignment[], WeakMap<readonly L2Assignment[], ElectionStep[]>>();

/**
 * The changes from `before` to `after`. Both lists are sorted by service, so one walk compares them: no
 * map of 10,000 keys. A service whose addresses changed is gone, then new with no previous owner.
 */
export function electionDiff(
  before: readonly L2Assignment[],
  after: readonly L2Assignment[],
): readonly ElectionStep[] {
  let byAfter = diffs.get(before);
  if (byAfter === undefined) diffs.set(before, (byAfter = new WeakMap()));
  let steps = byAfter.get(after);
  if (steps !== undefined) return steps;
  steps = [];
  let i = 0;
  for (const a of after) {
    while (i < before.length && compareText(before[i]!.service, a.service) < 0)
      steps.push({ kind: 'gone', was: before[i++]! });
    let prev = before[i]?.service === a.service ? before[i++] : undefined;
    if (prev !== undefined && !sameAddresses(prev.ips, a.ips)) {
      steps.push({ kind: 'gone', was: prev });
      prev = undefined;
    }
    if (prev !== undefined && prev.result.owner === a.result.owner) continue;
    steps.push({ kind: 'owner', now: a, was: prev?.result.owner });
  }
  while (i < before.length) steps.push({ kind: 'gone', was: before[i++]! });
  byAfter.set(after, steps);
  return steps;
}

const concerning = new WeakMap<readonly ElectionStep[], Map<string, number[]>>();
const noSteps: readonly number[] = [];

/**
 * Where in `diff` the steps that concern `node` are (it owns or owned the service), in order; worked out
 * once per diff. After a mass start every one of 2000 emulated speakers walked the same 10,000 steps to
 * find its five.
 */
export function stepsConcerning(diff: readonly ElectionStep[], node: string): readonly number[] {
  let byNode = concerning.get(diff);
  if (byNode === undefined) {
    byNode = indexByNode(diff);
    concerning.set(diff, byNode);
  }
  return byNode.get(node) ?? noSteps;
}

function indexByNode(diff: readonly ElectionStep[]): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  const add = (owner: string | undefined, k: number) => {
    if (owner === undefined) return;
    const list = byNode.get(owner);
    if (list === undefined) byNode.set(owner, [k]);
    else list.push(k);
  };
  for (let k = 0; k < diff.length; k++) {
    const step = diff[k]!;
    if (step.kind === 'gone') add(step.was.result.owner, k);
    else {
      add(step.now.result.owner, k);
      // An owner step's two owners differ (same owners make no step).
      add(step.was, k);
    }
  }
  return byNode;
}

const owners = new WeakMap<readonly L2Assignment[], Map<string | undefined, L2Assignment[]>>();
const none: readonly L2Assignment[] = [];

/** The assignments `node` won in `results`, in service order; the same array for the same results. */
export function ownedBy(results: readonly L2Assignment[], node: string): readonly L2Assignment[] {
  let byOwner = owners.get(results);
  if (byOwner === undefined) {
    byOwner = new Map();
    for (const a of results) {
      const list = byOwner.get(a.result.owner);
      if (list === undefined) byOwner.set(a.result.owner, [a]);
      else list.push(a);
    }
    owners.set(results, byOwner);
  }
  return byOwner.get(node) ?? none;
}

/** The same addresses in the same order (usually the very same array: elections remember them). */
function sameAddresses(a: readonly IpAddress[], b: readonly IpAddress[]): boolean {
  return a === b || (a.length === b.length && a.every((ip, k) => ip.equals(b[k]!)));
}
