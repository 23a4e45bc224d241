import { describe, expect, it } from 'vitest';
import {
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  decodeEthernet,
  decodeIpv6,
  internetChecksum,
  upperLayerChecksum,
} from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { SimAddressInUseError, SimAddressNotLocalError } from './errors.ts';
import { lan, record, v4, v6 } from './test-support.ts';

describe('UDP over the emulated stack', () => {
  it.each([
    // The protocol byte's offset in the frame, and the first payload byte's.
    ['IPv4', v4(12), v4(11), 23, 42],
    ['IPv6', v6(12), v6(11), 20, 62],
  ])(
    '%s: a datagram from the stack is not summed again on arrival; the same bytes from a packet socket are, and a bad checksum is dropped',
    async (_family, to, from, protocolAt, payloadAt) => {
      const { net, hosts } = lan(2);
      const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
      const events = record(net);
      const got: string[] = [];
      h2.udp(to, 9000).onMessage((p) => got.push(new TextDecoder().decode(p)));
      h1.udp(from, 4000).send({ address: to, port: 9000 }, new TextEncoder().encode('stack'));
      await net.run(10);
      expect(got).toEqual(['stack']);
      const sent = events.find(
        (e) => e.kind === 'frame' && e.action === 'sent' && e.host === 'h1' && e.bytes[protocolAt] === 17,
      ) as { bytes: Uint8Array };
      // Replayed through a packet socket, once intact and once with one payload byte changed.
      const raw = h1.process('replay').rawPort('eth0');
      raw.send(sent.bytes.slice());
      const bad = sent.bytes.slice();
      bad[payloadAt] = bad[payloadAt]! ^ 0xff;
      raw.send(bad);
      await net.run(10);
      expect(got).toEqual(['stack', 'stack']);
      expect(
        events.filter((e) => e.kind === 'packet' && e.reason === 'bad-checksum' && e.host === 'h2'),
      ).toHaveLength(1);
    },
  );

  it.each([
    ['IPv4', v4(12), v4(11)],
    ['IPv6', v6(12), v6(11)],
  ])('%s: a datagram crosses with real headers, after neighbour resolution', async (family, to, from) => {
    const { net, hosts } = lan(2);
    const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
    const events = record(net);
    const got: { text: string; from: string; port: number }[] = [];
    h2.udp(to, 9000).onMessage((p, f) =>
      got.push({ text: new TextDecoder().decode(p), from: f.address, port: f.port }),
    );
    const sock = h1.udp(from, 4000);
    sock.send({ address: to, port: 9000 }, new TextEncoder().encode('hello'));
    await net.run(10);
    expect(got).toEqual([{ text: 'hello', from, port: 4000 }]);

    const data = events.find(
      (e) =>
        e.kind === 'frame' &&
        e.action === 'delivered' &&
        e.host === 'h2' &&
        decodeEthernet(e.bytes).etherType !== 0x0806 &&
        !isNdp(e.bytes),
    );
    expect(data?.kind).toBe('frame');
    const eth = decodeEthernet((data as { bytes: Uint8Array }).bytes);
    expect(eth.src.toString()).toBe('02:00:00:00:00:01');
    expect(eth.dst.toString()).toBe('02:00:00:00:00:02');
    if (family === 'IPv4') {
      expect(eth.etherType).toBe(ETHERTYPE_IPV4);
      const ip = eth.payload;
      expect(ip[0]).toBe(0x45);
      expect(internetChecksum(ip.subarray(0, 20))).toBe(0);
      expect(IpAddress.fromBytes(ip.subarray(12, 16)).toString()).toBe(from);
      expect(IpAddress.fromBytes(ip.subarray(16, 20)).toString()).toBe(to);
      expect(ip[9]).toBe(17);
      const udp = ip.subarray(20, (ip[2]! << 8) | ip[3]!);
      expect((udp[0]! << 8) | udp[1]!).toBe(4000);
      expect((udp[2]! << 8) | udp[3]!).toBe(9000);
      expect((udp[4]! << 8) | udp[5]!).toBe(13);
      const pseudo = new Uint8Array([...ip.subarray(12, 20), 0, 17, 0, udp.length]);
      expect(internetChecksum(new Uint8Array([...pseudo, ...udp]))).toBe(0);
    } else {
      expect(eth.etherType).toBe(ETHERTYPE_IPV6);
      const ip = decodeIpv6(eth.payload);
      expect(ip.nextHeader).toBe(17);
      expect(ip.hopLimit).toBe(64);
      expect(ip.src.toString()).toBe(from);
      expect(upperLayerChecksum(ip.src, ip.dst, 17, ip.payload)).toBe(0);
      expect(new TextDecoder().decode(ip.payload.subarray(8))).toBe('hello');
    }
  });

  it('sends off-subnet traffic to the default gateway’s MAC, and drops it without one', () => {
    const { net, hosts } = lan(2);
    const [h1] = hosts as [(typeof hosts)[0]];
    const events = record(net);
    const s = h1.udp('0.0.0.0', 0);
    s.send({ address: '198.18.5.5', port: 9 }, new Uint8Array(1));
    net.runSync(10);
    expect(events.some((e) => e.kind === 'packet' && e.reason === 'no-route' && e.dst === '198.18.5.5')).toBe(
      true,
    );
    h1.setDefaultGateway(v4(12));
    s.send({ address: '198.18.5.5', port: 9 }, new Uint8Array(1));
    net.runSync(10);
    const data = events.find(
      (e) =>
        e.kind === 'frame' &&
        e.action === 'sent' &&
        e.host === 'h1' &&
        decodeEthernet(e.bytes).etherType === ETHERTYPE_IPV4,
    );
    const eth = decodeEthernet((data as { bytes: Uint8Array }).bytes);
    expect(eth.dst.toString()).toBe('02:00:00:00:00:02');
    expect(IpAddress.fromBytes(eth.payload.subarray(16, 20)).toString()).toBe('198.18.5.5');
    expect(h1.neighbour('eth0', v4(12))?.state).toBe('REACHABLE');
  });

  it('binds only local addresses, once per address and port', () => {
    const { hosts } = lan(1);
    const h1 = hosts[0]!;
    expect(() => h1.udp(v4(99), 9)).toThrow(SimAddressNotLocalError);
    h1.udp(v4(11), 9);
    expect(() => h1.udp(v4(11), 9)).toThrow(SimAddressInUseError);
    // The wildcard is another binding; the exact address wins for datagrams to it.
    h1.udp('0.0.0.0', 9).close();
    h1.addLoopbackAddress(v4(200));
    expect(h1.udp(v4(200), 9).local).toEqual({ address: v4(200), port: 9 });
  });

  it('a wildcard socket answers from the address the route picks', async () => {
    const { net, hosts } = lan(2);
    const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
    const server = h2.udp('0.0.0.0', 7);
    server.onMessage((p, f) => server.send(f, p));
    const client = h1.udp('0.0.0.0', 0);
    const from: string[] = [];
    client.onMessage((_p, f) => from.push(`${f.address}:${f.port}`));
    client.send({ address: v4(12), port: 7 }, new Uint8Array(4));
    await net.run(10);
    expect(from).toEqual([`${v4(12)}:7`]);
    expect(client.local.port).toBeGreaterThanOrEqual(32768);
  });
});

function isNdp(frame: Uint8Array): boolean {
  return frame[12] === 0x86 && frame[13] === 0xdd && frame[20] === 58;
}
