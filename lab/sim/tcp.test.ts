/** TCP streams between emulated processes: handshake, reliable delivery, closes, kills, freezes. */
import { describe, expect, it } from 'vitest';
import {
  decodeEthernet,
  decodeIpv6,
  internetChecksum,
  upperLayerChecksum,
} from '../../core/l2/wire/index.ts';
import { Random } from '../../core/runtime/random.ts';
import { SimConnectTimeoutError, SimConnectionRefusedError } from './errors.ts';
import type { AttachOptions } from './interface.ts';
import type { SimStream } from './tcp-stream.ts';
import type { TraceEvent } from './trace.ts';
import { lan, poke, record, v4, v6 } from './test-support.ts';

const PORT = 179;

/** What one end has read and how it ended. */
function reader(conn: SimStream) {
  const chunks: Uint8Array[] = [];
  let length = 0;
  conn.onData((chunk) => {
    chunks.push(chunk.slice());
    length += chunk.length;
  });
  return {
    get length() {
      return length;
    },
    bytes(): Uint8Array {
      const out = new Uint8Array(length);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
      return out;
    },
  };
}

/** h1's process "client" connected to h2's process "server", which echoes unless told not to. */
async function connected(o: { attach?: Partial<AttachOptions>; echo?: boolean; family?: 4 | 6 } = {}) {
  const { net, hosts } = lan(2, { seed: 11 }, o.attach);
  const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
  const server = h2.process('server');
  const accepted: SimStream[] = [];
  server.tcpListen(PORT, (conn) => {
    accepted.push(conn);
    if (o.echo ?? true) conn.onData((chunk) => conn.send(chunk));
  });
  const client = h1.process('client');
  const remote = o.family === 6 ? v6(12) : v4(12);
  const conn = await net.settle(client.tcpConnect({ remote, port: PORT, timeoutMs: 5000 }), 5000);
  await net.runUntil(() => accepted.length === 1, 1000);
  return { net, h1, h2, server, client, conn, peer: accepted[0]! };
}

function closes(conn: SimStream, now: () => number) {
  const seen: { reason: string; atMs: number }[] = [];
  conn.onClose((reason) => seen.push({ reason, atMs: now() }));
  return seen;
}

/** TCP segments `host` put on the wire, with their flags. */
function segments(events: readonly TraceEvent[], host: string) {
  return events.flatMap((e) => {
    if (e.kind !== 'frame' || e.action !== 'sent' || e.host !== host) return [];
    const eth = decodeEthernet(e.bytes);
    const ip = eth.payload;
    const v4 = eth.etherType === 0x0800;
    if ((v4 ? ip[9] : ip[6]) !== 6) return [];
    const tcp = ip.subarray(v4 ? 20 : 40);
    const flags = tcp[13]!;
    const dataLength = (v4 ? (ip[2]! << 8) | ip[3]! : 40 + ((ip[4]! << 8) | ip[5]!)) - (v4 ? 20 : 40) - 20;
    return [
      { atMs: e.atMs, syn: (flags & 2) !== 0, rst: (flags & 4) !== 0, fin: (flags & 1) !== 0, dataLength },
    ];
  });
}

describe('TCP streams', () => {
  it.each([4, 6] as const)(
    'IPv%s: a large payload over a lossy link arrives intact and in order, both ways',
    async (family) => {
      const { net, conn } = await connected({ attach: { impairment: { delayMs: 2, lossPct: 5 } }, family });
      const events = record(net);
      const got = reader(conn);
      const payload = new Uint8Array(100_000);
      const random = new Random(5);
      for (let i = 0; i < payload.length; i++) payload[i] = random.nextUint32() & 0xff;
      // Written in uneven pieces: a byte stream, chunk boundaries are not kept.
      for (let at = 0; at < payload.length; at += 7_777) conn.send(payload.subarray(at, at + 7_777));
      await net.runUntil(() => got.length >= payload.length, 120_000);
      // Compared as buffers: toEqual walks 100,000 elements slowly.
      expect(Buffer.from(got.bytes()).equals(payload)).toBe(true);
      // Frames were lost, so this went through retransmission.
      expect(
        events.filter((e) => e.kind === 'frame' && e.action === 'dropped' && e.reason === 'loss').length,
      ).toBeGreaterThan(10);
      expect(conn.localAddress.family).toBe(family);
    },
  );

  it.each([4, 6] as const)('IPv%s: segments carry real TCP headers with valid checksums', async (family) => {
    const { net, hosts } = lan(2);
    const events = record(net);
    let server: SimStream | undefined;
    hosts[1]!.process('server').tcpListen(PORT, (c) => (server = c));
    const remote = family === 4 ? v4(12) : v6(12);
    const conn = await net.settle(
      hosts[0]!.process('client').tcpConnect({ remote, port: PORT, timeoutMs: 5000 }),
      5000,
    );
    conn.send(new TextEncoder().encode('OPEN'));
    await net.run(10);
    expect(server?.remoteAddress.toString()).toBe(family === 4 ? v4(11) : v6(11));
    const frames = events.flatMap((e) =>
      e.kind === 'frame' && e.action === 'sent' && e.host === 'h1' ? [decodeEthernet(e.bytes)] : [],
    );
    const data = frames.flatMap((eth) => {
      if (family === 4) {
        const ip = eth.payload;
        if (eth.etherType !== 0x0800 || ip[9] !== 6) return [];
        const tcp = ip.subarray(20, (ip[2]! << 8) | ip[3]!);
        const pseudo = new Uint8Array([...ip.subarray(12, 20), 0, 6, tcp.length >> 8, tcp.length & 0xff]);
        return [{ tcp, sum: internetChecksum(new Uint8Array([...pseudo, ...tcp])) }];
      }
      if (eth.etherType !== 0x86dd || eth.payload[6] !== 6) return [];
      const ip = decodeIpv6(eth.payload);
      return [{ tcp: ip.payload, sum: upperLayerChecksum(ip.src, ip.dst, 6, ip.payload) }];
    });
    // SYN, ACK, the data segment: every checksum verifies, ports and flags are where RFC 9293 puts them.
    expect(data.map((d) => d.sum)).toEqual(data.map(() => 0));
    expect(data.map((d) => d.tcp[13]! & 0x3f)).toEqual([0x02, 0x10, 0x18]);
    expect(data.every((d) => ((d.tcp[2]! << 8) | d.tcp[3]!) === PORT)).toBe(true);
    expect(new TextDecoder().decode(data[2]!.tcp.subarray(20))).toBe('OPEN');
  });

  it('a SYN to a port nobody listens on is refused at once', async () => {
    const { net, hosts } = lan(2);
    const start = net.now();
    const p = hosts[0]!.process('client');
    await expect(
      net.settle(p.tcpConnect({ remote: v4(12), port: 80, timeoutMs: 10_000 }), 20_000),
    ).rejects.toThrow(SimConnectionRefusedError);
    // One round trip (with ARP): well inside the first SYN retransmission.
    expect(net.now() - start).toBeLessThan(100);
  });

  it('a SYN nobody answers is sent again at 1, 3, 7 s, and connect gives up at its timeout', async () => {
    const { net, hosts } = lan(2);
    hosts[1]!.process('server').tcpListen(PORT, () => undefined);
    // h1 knows h2's MAC before the cut, so every SYN reaches the wire (and the partition drops it).
    poke(hosts[0]!, v4(12));
    await net.run(10);
    net.partition(['h1'], ['h2']);
    const events = record(net);
    const start = net.now();
    const p = hosts[0]!.process('client');
    const attempt = p.tcpConnect({ remote: v4(12), port: PORT, timeoutMs: 10_000 });
    await expect(net.settle(attempt, 20_000)).rejects.toThrow(SimConnectTimeoutError);
    expect(net.now() - start).toBe(10_000);
    const syns = segments(events, 'h1').filter((s) => s.syn);
    expect(syns.map((s) => s.atMs - start)).toEqual([0, 1000, 3000, 7000]);
  });

  it('close() sends the FIN after the queued data; the peer reads everything, then hears the close', async () => {
    const { net, conn, peer } = await connected({ echo: false });
    const got = reader(peer);
    const peerCloses = closes(peer, () => net.now());
    const ours = closes(conn, () => net.now());
    const data = new Uint8Array(100_000).fill(7);
    conn.send(data);
    conn.close();
    expect(ours).toEqual([{ reason: 'closed by us', atMs: net.now() }]);
    await net.runUntil(() => peerCloses.length > 0, 5000);
    expect(Buffer.from(got.bytes()).equals(data)).toBe(true);
    expect(peerCloses.map((c) => c.reason)).toEqual(['the peer closed the connection']);
  });

  it('killing a process closes its connections with a FIN the peer hears at once', async () => {
    const { net, server, conn } = await connected();
    const seen = closes(conn, () => net.now());
    const killedAt = net.now();
    server.kill();
    await net.runUntil(() => seen.length > 0, 1000);
    expect(seen).toEqual([{ reason: 'the peer closed the connection', atMs: expect.any(Number) }]);
    expect(seen[0]!.atMs - killedAt).toBeLessThan(10);
  });

  it('killed behind a cut wire: the peer hears nothing, until its next send is answered with RST', async () => {
    const { net, h2, server, conn } = await connected();
    const seen = closes(conn, () => net.now());
    h2.linkDown('eth0');
    server.kill();
    await net.run(60_000);
    expect(seen).toEqual([]);
    h2.linkUp('eth0');
    const sentAt = net.now();
    conn.send(new TextEncoder().encode('keepalive'));
    await net.runUntil(() => seen.length > 0, 5000);
    expect(seen[0]!.reason).toBe('connection reset');
    expect(seen[0]!.atMs - sentAt).toBeLessThan(100);
  });

  it('a host revived after a crash answers the old connection with RST', async () => {
    const { net, h2, server, conn } = await connected();
    const seen = closes(conn, () => net.now());
    net.partition(['h1'], ['h2']);
    server.kill();
    const revived = h2.process('server');
    revived.tcpListen(PORT, () => undefined);
    await net.run(5000);
    net.heal();
    conn.send(Uint8Array.of(1, 2, 3));
    await net.runUntil(() => seen.length > 0, 5000);
    expect(seen[0]!.reason).toBe('connection reset');
  });

  it('a frozen process’s kernel acknowledges and buffers; it reads everything on resume', async () => {
    const { net, h1, server, conn, peer } = await connected({ echo: false });
    const got = reader(peer);
    const events = record(net);
    server.freeze();
    const text = new TextEncoder();
    conn.send(text.encode('one,'));
    await net.run(30_000);
    conn.send(text.encode('two'));
    await net.run(30_000);
    expect(got.length).toBe(0);
    // Acknowledged, so never sent again: one data segment per send.
    expect(segments(events, h1.name).filter((s) => s.dataLength > 0)).toHaveLength(2);
    server.resume();
    await net.run(1);
    expect(new TextDecoder().decode(got.bytes())).toBe('one,two');
  });

  it('a process killed with unread data resets its connections instead (tcp_close)', async () => {
    const { net, server, conn } = await connected({ echo: false });
    const seen = closes(conn, () => net.now());
    server.freeze();
    conn.send(Uint8Array.of(1));
    await net.run(100);
    server.kill();
    await net.runUntil(() => seen.length > 0, 1000);
    expect(seen[0]!.reason).toBe('connection reset');
  });

  it('a frozen listener completes handshakes in the kernel and accepts on resume', async () => {
    const { net, hosts } = lan(2);
    const server = hosts[1]!.process('server');
    const accepted: string[] = [];
    server.tcpListen(PORT, (c) => accepted.push(c.remoteAddress.toString()));
    server.freeze();
    const conn = await net.settle(
      hosts[0]!.process('client').tcpConnect({ remote: v4(12), port: PORT, timeoutMs: 5000 }),
      5000,
    );
    expect(conn.remoteAddress.toString()).toBe(v4(12));
    await net.run(1000);
    expect(accepted).toEqual([]);
    server.resume();
    expect(accepted).toEqual([v4(11)]);
  });

  it('with the path cut, data is retransmitted 15 times from 200 ms doubling, then the connection times out', async () => {
    const { net, h1, conn } = await connected();
    const seen = closes(conn, () => net.now());
    const events = record(net);
    net.partition(['h1'], ['h2']);
    const start = net.now();
    conn.send(Uint8Array.of(1));
    await net.runUntil(() => seen.length > 0, 2_000_000);
    expect(seen[0]!.reason).toBe('timed out');
    const data = segments(events, h1.name).filter((s) => s.dataLength > 0);
    // Sent once, then 15 retransmissions (tcp_retries2). The first two gaps are RTT + 200 ms, then doubled.
    expect(data.length).toBeLessThanOrEqual(16);
    const elapsed = seen[0]!.atMs - start;
    // Linux's figure for tcp_retries2 = 15 with a 200 ms RTO: 924.6 s (plus the RTT in the first RTO).
    expect(elapsed).toBeGreaterThanOrEqual(924_600);
    expect(elapsed).toBeLessThan(930_000);
  });

  it('connections survive a link down and up again: nothing is signalled, data resumes', async () => {
    const { net, h2, conn } = await connected();
    const got = reader(conn);
    const seen = closes(conn, () => net.now());
    h2.linkDown('eth0');
    conn.send(Uint8Array.of(9, 9));
    await net.run(5000);
    expect(got.length).toBe(0);
    h2.linkUp('eth0');
    await net.runUntil(() => got.length === 2, 30_000);
    expect(seen).toEqual([]);
  });
});
