/** Partitions drop frames between two groups of hosts at the switch, until healed. */
import { describe, expect, it } from 'vitest';
import { lan, record, v4 } from './test-support.ts';

describe('partition', () => {
  it('cuts the groups apart, leaves the rest connected, and heals', () => {
    const { net, hosts } = lan(3);
    const [h1, h2, h3] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
    const events = record(net);
    const got: string[] = [];
    for (const h of [h1, h2, h3])
      h.udp('0.0.0.0', 9).onMessage((_p, f) => got.push(`${f.address}>${h.name}`));
    const send = (from: typeof h1, to: string) =>
      from.udp('0.0.0.0', 0).send({ address: to, port: 9 }, new Uint8Array(1));
    const cut = net.partition(['h1'], ['h2']);
    send(h1, v4(12));
    send(h1, v4(13));
    send(h3, v4(12));
    net.runSync(10);
    expect(got.sort()).toEqual([`${v4(11)}>h3`, `${v4(13)}>h2`]);
    expect(events.some((e) => e.kind === 'frame' && e.action === 'dropped' && e.reason === 'partition')).toBe(
      true,
    );
    cut.heal();
    got.length = 0;
    send(h1, v4(12));
    net.runSync(5000);
    // h1 was still resolving h2 (its request was cut): its next solicitation, 1 s in, is answered and
    // both the datagram queued during the partition and the new one go out.
    expect(got).toEqual([`${v4(11)}>h2`, `${v4(11)}>h2`]);
    expect(
      events.filter((e) => e.kind === 'partition').map((e) => e.kind === 'partition' && e.action),
    ).toEqual(['partitioned', 'healed']);
  });

  it('heal() ends every partition', () => {
    const { net } = lan(3);
    net.partition(['h1'], ['h2']);
    net.partition(['h3'], ['h2']);
    net.heal();
    const got: string[] = [];
    net
      .host('h2')
      .udp('0.0.0.0', 9)
      .onMessage((_p, f) => got.push(f.address));
    for (const h of ['h1', 'h3'])
      net
        .host(h)
        .udp('0.0.0.0', 0)
        .send({ address: v4(12), port: 9 }, new Uint8Array(1));
    net.runSync(10);
    expect(got.sort()).toEqual([v4(11), v4(13)]);
  });
});
