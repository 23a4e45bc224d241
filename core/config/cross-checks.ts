/**
 * The checks that span resources, run once every document has been read: overlaps, names and
 * references, and what advertisements and peers imply together. Builds the model as it goes.
 */
import { selectedPools, warnUnknownNames } from './checks/advertisement-pools.ts';
import { checkAggregation } from './checks/aggregation.ts';
import { resolveBfdAuth } from './checks/bfd-auth.ts';
import { checkBfdEcho } from './checks/bfd-echo.ts';
import { collectAliases, resolveCommunities } from './checks/communities.ts';
import { checkDuplicateNames } from './checks/duplicate-names.ts';
import { checkDuplicatePeers } from './checks/duplicate-peers.ts';
import { checkLocalPrefs } from './checks/local-pref.ts';
import type { NodeLabels } from './checks/node-overlap.ts';
import { checkPeerReferences } from './checks/peer-references.ts';
import { checkPoolOverlaps } from './checks/pool-overlaps.ts';
import { contextOf } from './checks/where.ts';
import type { IssueLog } from './issues.ts';
import type { BGPAdvertisement, IPAddressPool, LbConfig } from './model.ts';
import type { Kind, ParsedOf } from './parsed.ts';
import type { Declared } from './resources.ts';

export function crossCheck(
  declared: readonly Declared[],
  log: IssueLog,
  nodes: readonly NodeLabels[] | undefined,
): LbConfig {
  const parsed = <K extends Kind>(kind: K): ParsedOf<K>[] =>
    declared.flatMap((d) => (d.parsed?.kind === kind ? [d.parsed as ParsedOf<K>] : []));
  const names = (kind: Kind, which: 'all' | 'broken' = 'all') =>
    new Set(
      declared
        .filter((d) => d.kind === kind && (which === 'all' || d.parsed === undefined))
        .map((d) => d.name),
    );

  checkDuplicateNames(declared, log);
  const pools = parsed('IPAddressPool').map((p) => p.value);
  checkPoolOverlaps(pools, log);

  const aliases = collectAliases(
    parsed('Community').map((c) => c.value),
    log,
  );
  const bgpAdvs = parsed('BGPAdvertisement');
  for (const adv of bgpAdvs) resolveCommunities(adv, aliases, names('Community', 'broken').size === 0, log);

  const poolNames = names('IPAddressPool');
  const l2Advertisements = parsed('L2Advertisement').map((a) => a.value);
  for (const adv of l2Advertisements) {
    warnUnknownNames(
      contextOf('L2Advertisement', adv.meta),
      adv.ipAddressPools,
      'spec.ipAddressPools',
      'IPAddressPool',
      poolNames,
      log,
    );
  }
  const attachments = new Map<IPAddressPool, BGPAdvertisement[]>();
  for (const { value: adv } of bgpAdvs) {
    const ctx = contextOf('BGPAdvertisement', adv.meta);
    warnUnknownNames(ctx, adv.ipAddressPools, 'spec.ipAddressPools', 'IPAddressPool', poolNames, log);
    warnUnknownNames(ctx, adv.peers, 'spec.peers', 'BGPPeer', names('BGPPeer'), log);
    const selected = selectedPools(adv, pools);
    checkAggregation(adv, selected, log);
    for (const pool of selected) attachments.set(pool, [...(attachments.get(pool) ?? []), adv]);
  }
  checkLocalPrefs(attachments, nodes, log);

  const secrets = {
    secrets: new Map(parsed('Secret').map((s) => [s.value.meta.name, s.value])),
    brokenSecrets: names('Secret', 'broken'),
  };
  const parsedProfiles = parsed('BFDProfile');
  for (const profile of parsedProfiles) resolveBfdAuth(profile, secrets, log);
  const bfdProfiles = parsedProfiles.map((p) => p.value);
  const peers = parsed('BGPPeer').map((p) => p.value);
  const targets = {
    ...secrets,
    bfdProfiles: new Set(bfdProfiles.map((p) => p.meta.name)),
    brokenBfdProfiles: names('BFDProfile', 'broken'),
  };
  for (const peer of peers) checkPeerReferences(peer, targets, log);
  checkDuplicatePeers(peers, nodes, log);
  checkBfdEcho(peers, new Map(bfdProfiles.map((p) => [p.meta.name, p])), attachments, log);

  return {
    pools,
    l2Advertisements,
    bgpAdvertisements: bgpAdvs.map((a) => a.value),
    bfdProfiles,
    peers,
    communities: aliases,
  };
}
