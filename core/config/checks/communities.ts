/**
 * Community aliases (Community resources) and the communities of BGPAdvertisements. As in MetalLB, an
 * advertisement's entry is first looked up as an alias name, then parsed as a literal.
 */
import { formatCommunity, parseCommunity } from '../communities.ts';
import type { IssueLog } from '../issues.ts';
import type { BgpCommunity } from '../model.ts';
import type { CommunityAliases, ParsedOf } from '../parsed.ts';
import { contextOf, where } from './where.ts';

/** Alias name → value; a name defined twice (in one resource or across resources) is an error. */
export function collectAliases(
  resources: readonly CommunityAliases[],
  log: IssueLog,
): Map<string, BgpCommunity> {
  const out = new Map<string, BgpCommunity>();
  const firstAt = new Map<string, string>();
  for (const r of resources) {
    for (const { name, community, index } of r.aliases) {
      const earlier = firstAt.get(name);
      if (earlier !== undefined) {
        const ctx = contextOf('Community', r.meta);
        log.error(
          ctx,
          `spec.communities[${index}].name`,
          `duplicate community alias ${JSON.stringify(name)}: already defined in ${earlier}`,
        );
        continue;
      }
      firstAt.set(name, `spec.communities[${index}] of ${where('Community', r.meta)}`);
      out.set(name, community);
    }
  }
  return out;
}

/**
 * Fills the advertisement's `communities`. `aliasesComplete` is false when a Community resource failed
 * to parse: an unknown name may be defined there, and that resource's error already rejects the config.
 */
export function resolveCommunities(
  adv: ParsedOf<'BGPAdvertisement'>,
  aliases: ReadonlyMap<string, BgpCommunity>,
  aliasesComplete: boolean,
  log: IssueLog,
): void {
  const ctx = contextOf('BGPAdvertisement', adv.value.meta);
  const seen = new Map<string, number>();
  adv.communityTexts.forEach((text, i) => {
    const path = `spec.communities[${i}]`;
    let community = aliases.get(text);
    if (community === undefined) {
      const parsed = parseCommunity(text);
      if (!parsed.ok) {
        if (parsed.problem === 'value')
          log.error(ctx, path, `community ${JSON.stringify(text)}: ${parsed.reason}`);
        else if (aliasesComplete) {
          log.error(
            ctx,
            path,
            `${JSON.stringify(text)} is not a community value and no Community resource defines an alias of that name`,
          );
        }
        return;
      }
      community = parsed.community;
    }
    const key = formatCommunity(community);
    const first = seen.get(key);
    if (first !== undefined) {
      // MetalLB keeps communities in a set, so an alias and a literal of one value are harmless, but
      // likely a mistake. (The same text twice is an error, reported when the advertisement was read.)
      if (adv.communityTexts[first] !== text) {
        log.warn(ctx, path, `${JSON.stringify(text)} is ${key}, already given at spec.communities[${first}]`);
      }
      return;
    }
    seen.set(key, i);
    adv.value.communities.push(community);
  });
}
