import type { L2Assignment } from '../l2/election/index.ts';
import type { IpAddress } from '../net/index.ts';
import { toEnd } from '../runtime/time-slice.ts';
import { compareText } from '../sort/compare-text.ts';

/**
 * What changed between two elections, and who owns what in one, each worked out once per pair of result
 * arrays. In the emulator every speaker with the same view holds the very same arrays (the shared
 * election), so 2000 speakers reading a change of 10,000 services cost one walk, not 2000; a real speaker
 * works each out once, as it did inline.
 *
 * Each walk is a generator that yields every ITEMS_PER_STEP items, for a speaker's time-sliced election
 * job (time-slice.ts): done at once, the diff of 10,000 services and its index took 30-60 ms of one turn
 * on the netns lab's two shared cores, and grouping the services by owner up to 34 ms. A walk that is
 * abandoned (its job was dropped) leaves nothing behind; one that ends is remembered.
 */

/** Items a walk takes between yields: well under a millisecond's work (the election job's own walks too). */
export const ITEMS_PER_STEP = 500;

/** One service's change, in service order: its addresses went (or changed), or its owner did. */
export type ElectionStep =
  | { readonly kind: 'gone'; readonly was: L2Assignment }
  | { readonly kind: 'owner'; readonly now: L2Assignment; readonly was: string | undefined };

const diffs = new WeakMap<readonly L2Assignment[], WeakMap<readonly L2Assignment[], ElectionStep[]>>();

/**
 * The changes from `before` to `after`. Both lists are sorted by service, so one walk compares them: no
 * map of 10,000 keys. A service whose addresses changed is gone, then new with no previous owner.
 */
export function* electionDiff(
  before: readonly L2Assignment[],
  after: readonly L2Assignment[],
): Generator<void, readonly ElectionStep[]> {
  let byAfter = diffs.get(before);
  if (byAfter === undefined) diffs.set(before, (byAfter = new WeakMap()));
  const known = byAfter.get(after);
  if (known !== undefined) return known;
  const steps: ElectionStep[] = [];
  let i = 0;
  for (let n = 0; n < after.length; n++) {
    if (n % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    const a = after[n]!;
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
export function* stepsConcerning(
  diff: readonly ElectionStep[],
  node: string,
): Generator<void, readonly number[]> {
  let byNode = concerning.get(diff);
  if (byNode === undefined) {
    byNode = yield* indexByNode(diff);
    concerning.set(diff, byNode);
  }
  return byNode.get(node) ?? noSteps;
}

function* indexByNode(diff: readonly ElectionStep[]): Generator<void, Map<string, number[]>> {
  const byNode = new Map<string, number[]>();
  const add = (owner: string | undefined, k: number) => {
    if (owner === undefined) return;
    const list = byNode.get(owner);
    if (list === undefined) byNode.set(owner, [k]);
    else list.push(k);
  };
  for (let k = 0; k < diff.length; k++) {
    if (k % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
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
  return toEnd(ownedInSteps(results, node));
}

/** ownedBy, in steps. */
export function* ownedInSteps(
  results: readonly L2Assignment[],
  node: string,
): Generator<void, readonly L2Assignment[]> {
  let byOwner = owners.get(results);
  if (byOwner === undefined) {
    byOwner = new Map();
    for (let n = 0; n < results.length; n++) {
      if (n % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
      const a = results[n]!;
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
