/**
 * The owned-address socket filter changes nothing the announcer does: the same frames thrown at a
 * filtered and an unfiltered speaker give the same answers and the same conflict reports.
 */
import { describe, expect, it } from 'vitest';
import { L2Announcer } from '../../core/l2/announcer/index.ts';
import type { AnnouncerEvent } from '../../core/l2/announcer/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { AddressSet } from './address-set.ts';
import { ownedAddressFilter } from './owned-filter.ts';
import { arpFrom, garp, lan, poke, record, sent, unsolicitedNa, v4, v6 } from './test-support.ts';

const VIPS = [v4(200), v6(0x200)];
const MAC3 = '02:00:00:00:00:03';

function world(filtered: boolean) {
  const { net, hosts } = lan(3);
  const [h1, h2, h3] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
  const owned = new AddressSet();
  const announcer = new L2Announcer(net.clock, [
    h2.rawPort('eth0', filtered ? ownedAddressFilter(owned) : undefined),
  ]);
  const events: AnnouncerEvent[] = [];
  announcer.onEvent((e) => {
    events.push(e);
    if (e.kind === 'took-over') owned.add(e.vip.toString());
    if (e.kind === 'released') owned.delete(e.vip.toString());
  });
  announcer.setOwned(
    VIPS.map((ip) => ({ ip: IpAddress.parse(ip), interfaces: ['eth0'] })),
    'test',
  );
  const trace = record(net);
  net.runSync(2000);
  const inject = h3.rawPort('eth0');
  for (const vip of VIPS) poke(h1, vip);
  poke(h1, v4(13));
  inject.send(arpFrom(v4(13), MAC3, v4(201)));
  inject.send(garp(VIPS[0]!, MAC3));
  inject.send(unsolicitedNa(VIPS[1]!, MAC3));
  net.runSync(100);
  announcer.setOwned([], 'done');
  inject.send(garp(VIPS[0]!, MAC3));
  net.runSync(100);
  return { events, answers: sent(trace, 'h2'), stats: announcer.stats() };
}

describe('ownedAddressFilter', () => {
  it('gives the announcer every frame it acts on, and spares it the rest', () => {
    const plain = world(false);
    const filtered = world(true);
    expect(filtered.events).toEqual(plain.events);
    expect(filtered.answers).toEqual(plain.answers);
    expect(filtered.events.filter((e) => e.kind === 'conflict')).toHaveLength(2);
    expect(filtered.answers.length).toBeGreaterThan(1);
    expect(plain.stats.arpRequestsNotOwned).toBeGreaterThan(0);
    expect(filtered.stats.arpRequestsNotOwned).toBe(0);
  });
});
