/**
 * The switch hands flooded ARP/NDP frames only to hosts that can act on them when untraced, and to every
 * host when traced. Nothing else may differ: the same run with and without a trace listener ends in the
 * same state, with impaired links, packet sockets of both kinds, partitions and carrier loss on the way.
 */
import { describe, expect, it } from 'vitest';
import { L2Announcer } from '../../core/l2/announcer/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { AddressSet } from './address-set.ts';
import type { Host } from './host.ts';
import { ownedAddressFilter } from './owned-filter.ts';
import { garp, lan, poke, unsolicitedNa, v4, v6 } from './test-support.ts';

const VIP4 = v4(200);
const VIP6 = v6(0x200);

async function run(traced: boolean) {
  const { net, hosts } = lan(6, { seed: 9 });
  const [h1, h2, h3, h4, h5, h6] = hosts as [Host, Host, Host, Host, Host, Host];
  if (traced) net.onTrace(() => undefined);
  net.link('h2', 'eth0').impair({ delayMs: 1, jitterMs: 0.5, lossPct: 10 });
  net.link('h3', 'eth0').impair({ delayMs: 2 });
  // h4: a speaker whose socket is filtered to what it owns; h5: one that sees everything.
  const owned = new AddressSet();
  const speaker = h4.process('speaker');
  const announcer = new L2Announcer(speaker.clock, [speaker.rawPort('eth0', ownedAddressFilter(owned))]);
  announcer.onEvent((e) => {
    if (e.kind === 'took-over') owned.add(e.vip.toString());
    if (e.kind === 'released') owned.delete(e.vip.toString());
  });
  const events: string[] = [];
  announcer.onEvent((e) => events.push(`${e.atMs} ${e.kind}`));
  for (const h of [h4, h5]) {
    h.addLoopbackAddress(VIP4);
    h.addLoopbackAddress(VIP6);
    h.echoServer(7777, h.name);
  }
  const seen: number[] = [];
  h5.rawPort('eth0').onFrame((f) => seen.push(f.length));
  announcer.setOwned(
    [VIP4, VIP6].map((ip) => ({ ip: IpAddress.parse(ip), interfaces: ['eth0'] })),
    'start',
  );
  const probes = [h1, h2, h3].flatMap((h) =>
    [VIP4, VIP6].map((target) => h.prober({ target, port: 7777, ratePps: 50, count: 300, durationMs: 6000 })),
  );
  for (let i = 1; i <= 6; i++) {
    poke(h6, v4(10 + i));
    poke(h6, v6(10 + i));
  }
  await net.run(1000);
  const cut = net.partition(['h2'], ['h4']);
  await net.run(1000);
  cut.heal();
  // The address moves to h5, announced by hand; h3 loses carrier meanwhile.
  announcer.setOwned([], 'moved');
  h6.rawPort('eth0').send(garp(VIP4, '02:00:00:00:00:05'));
  h6.rawPort('eth0').send(unsolicitedNa(VIP6, '02:00:00:00:00:05'));
  h3.linkDown('eth0');
  await net.run(500);
  h3.linkUp('eth0');
  const summaries = await Promise.all(probes.map((p) => net.settle(p, 20_000)));
  return {
    summaries,
    neighbours: hosts.map((h) => h.neighbours('eth0')),
    events,
    seen: seen.length,
    stats: announcer.stats(),
    now: net.now(),
  };
}

describe('flood delivery by interest', () => {
  it('tracing changes nothing', async () => {
    const untraced = await run(false);
    const traced = await run(true);
    expect(untraced).toEqual(traced);
    // The run did exercise something: replies from both owners, and entries moved to h5.
    expect(untraced.summaries[0]!.servers.map((s) => s.server)).toEqual(['h4', 'h5']);
    expect(untraced.neighbours[0]!.find((n) => n.ip === VIP4)?.mac).toBe('02:00:00:00:00:05');
    expect(untraced.seen).toBeGreaterThan(10);
  });
});
