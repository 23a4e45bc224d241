/**
 * A node-crash scenario at scale, on the emulated wire: every node runs the real Membership and
 * L2Announcer in a process, holds every service address on lo, and answers probes; a client probes an
 * address whose owner then dies silently (frozen speaker, all its traffic dropped). Ownership here is a
 * simple ring rule rather than the MetalLB election, whose sha256 ranking of every node for every
 * address is what the speaker itself pays, not the network. Set LBLAB_SIM_HOSTS=2000 to run it at 2000
 * hosts (about 10,000 service addresses).
 */
import { describe, expect, it } from 'vitest';
import { L2Announcer } from '../../core/l2/announcer/index.ts';
import { Membership, type NodeRef } from '../../core/membership/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { AddressSet } from './address-set.ts';
import { Network } from './network.ts';
import { ownedAddressFilter } from './owned-filter.ts';

const HOSTS = Number(process.env['LBLAB_SIM_HOSTS'] ?? 300);
const UNFILTERED = process.env['LBLAB_SIM_UNFILTERED'] === '1';
const VIPS_PER_NODE = 5;
const PORT = 7777;

const nodeAddress = (i: number) => `198.18.${1 + (i >> 8)}.${i & 255}`;
const vipAddress = (k: number) => `198.18.${128 + (k >> 8)}.${k & 255}`;

describe(`a node dies among ${HOSTS - 1}`, () => {
  it(
    'survivors take its addresses over and the client’s outage is detection plus one announcement',
    async () => {
      const wall = performance.now();
      const net = new Network({ seed: 42 });
      const n = HOSTS - 1;
      const nodes: NodeRef[] = Array.from({ length: n }, (_, i) => ({
        name: `n${i}`,
        address: nodeAddress(i),
      }));
      const vips = Array.from({ length: n * VIPS_PER_NODE }, (_, k) => vipAddress(k));
      const onLo = new AddressSet(vips);
      const primaries = nodes.map((_, i) =>
        vips.filter((_v, k) => k % n === i).map((vip) => IpAddress.parse(vip)),
      );
      const client = net.host('c1');
      client.attach('eth0', 'lan', { ipv4: '198.18.0.1/16' });
      let ready = false;
      const speakers = nodes.map((self, i) => {
        const host = net.host(self.name);
        host.attach('eth0', 'lan', { ipv4: `${self.address}/16` });
        host.addLoopbackSet(onLo);
        host.echoServer(PORT, self.name);
        const p = host.process('speaker');
        const membership = new Membership({
          clock: p.clock,
          random: net.random.fork(),
          port: p.udp(self.address, 7946),
          self,
          nodes,
        });
        // Each speaker's packet socket passes only frames about what it owns (see ownedAddressFilter);
        // LBLAB_SIM_UNFILTERED=1 gives every speaker every ARP broadcast, as the speaker's own filter does.
        const owned = new AddressSet();
        const filter = UNFILTERED ? undefined : ownedAddressFilter(owned);
        const announcer = new L2Announcer(p.clock, [p.rawPort('eth0', filter)], { name: self.name });
        announcer.onEvent((e) => {
          if (e.kind === 'took-over') owned.add(e.vip.toString());
          if (e.kind === 'released') owned.delete(e.vip.toString());
        });
        // Address k belongs to the first alive node from k mod n on, round the ring: node i owns its own
        // addresses and those of the dead nodes just before it.
        const elect = () => {
          if (!ready) return;
          const alive = membership.alive();
          const mine = [...primaries[i]!];
          for (let j = (i + n - 1) % n; j !== i && !alive.has(nodes[j]!.name); j = (j + n - 1) % n)
            mine.push(...primaries[j]!);
          announcer.setOwned(
            mine.map((ip) => ({ ip, interfaces: ['eth0'] })),
            'membership changed',
          );
        };
        membership.onChange(elect);
        membership.start();
        return { p, membership, elect };
      });
      const built = performance.now();

      await net.run(3000);
      expect(speakers.every((s) => s.membership.alive().size === n)).toBe(true);
      // Ownership starts once every speaker sees every other (a real speaker starts at sync, and hands
      // addresses back and forth while its view fills; that churn is not what this test is about).
      ready = true;
      for (const s of speakers) s.elect();
      await net.run(2000);
      const started = performance.now();

      const victim = 7;
      const vip = vipAddress(victim);
      const probe = client.prober({ target: vip, port: PORT, ratePps: 200, count: 1000, durationMs: 4000 });
      await net.run(1000);
      speakers[victim]!.p.freeze();
      net.partition([`n${victim}`], [...nodes.filter((_, i) => i !== victim).map((x) => x.name), 'c1']);
      const summary = await net.settle(probe, 10_000);
      const crashed = performance.now();

      const successor = `n${victim + 1}`;
      expect(summary.servers.map((s) => s.server)).toEqual([`n${victim}`, successor]);
      // Detection (4 missed 50 ms heartbeats, then a confirmation) plus a gratuitous ARP: well under 1 s.
      expect(summary.outageMs).toBeGreaterThan(100);
      expect(summary.outageMs).toBeLessThan(1000);
      expect(client.neighbour('eth0', vip)?.mac).toBe(net.host(successor).interface('eth0').mac.toString());

      const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `${HOSTS} hosts, ${vips.length} service addresses${UNFILTERED ? ', unfiltered' : ''}: build ${secs(built - wall)}, 5 s start-up ${secs(started - built)}, ` +
          `5 s crash scenario ${secs(crashed - started)}; outage ${summary.outageMs} ms, ${summary.lost} probes lost`,
      );
    },
    Math.max(60_000, HOSTS * 300),
  );
});
