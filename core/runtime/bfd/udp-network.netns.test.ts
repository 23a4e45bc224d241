// UdpBfdNetwork against the real kernel: two lab namespaces on a veth, one child process per namespace
// (udp-network.netns-child.ts, because a socket belongs to the namespace of the process that creates
// it), and tcpdump on B's interface to see what is on the wire. The crafted packets with a chosen TTL come
// from plain sockets in the children; each is followed by a TTL 255 packet on the same path, and a veth
// keeps order, so once that one arrived a dropped packet is known to have been dropped, not late.
// The namespaces come from the lab's NetnsLab (a test may use lab/ test support; core code never does),
// so they carry a random run id and a crashed run's leftovers are reaped like any other lab run's.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLinesChild } from '../json-lines-child.test-support.ts';
import { waitUntil } from '../wait-until.test-support.ts';
import { NetnsLab } from '../../../lab/backends/netns/lab.ts';
import type { Netns } from '../../../lab/backends/netns/namespace.ts';
import { requireNetns } from '../../../lab/backends/netns/test-support.ts';
import { BFD_MULTI_HOP_PORT, BFD_SINGLE_HOP_PORT, BFD_SOURCE_PORTS } from '../../bfd/ports.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./udp-network.netns-child.ts', import.meta.url));
const WAIT_MS = 5000;
/** A's network's default multihop minimum, so the test tells it apart from MetalLB's default (254). */
const A_MINIMUM_TTL = 250;

const mode = await requireNetns(['tcpdump']);

interface Endpoint {
  address: string;
  port: number;
}

interface Reply {
  id?: number;
  ok?: boolean;
  event?: 'packet';
  hex?: string;
  from?: Endpoint;
  multihop?: boolean;
  path?: number;
  sourcePort?: number;
  code?: string;
  errno?: string;
  message?: string;
}

/** A payload no other test sends, to recognise a packet by. */
const unique = () => randomBytes(8).toString('hex');

/** One udp-network.netns-child.ts process in a namespace: requests by id, and the packets it received. */
class Child extends JsonLinesChild<Reply> {
  static start(ns: Netns, options: object = {}): Child {
    return new Child(
      ns.spawn([process.execPath, '--import', 'tsx', CHILD, JSON.stringify(options)], { cwd: ROOT }),
      WAIT_MS,
    );
  }

  /** The packets it received, in order (its only events). */
  get packets(): Reply[] {
    return this.events;
  }

  async ok(op: string, fields: object = {}): Promise<Reply> {
    const reply = await this.request(op, fields);
    if (reply.ok !== true) throw new Error(`${op} failed: ${JSON.stringify(reply)}`);
    return reply;
  }

  /** Opens a session's path; resolves with its id and source port. */
  async open(spec: object): Promise<{ path: number; sourcePort: number }> {
    const { path, sourcePort } = await this.ok('open', { spec });
    if (path === undefined || sourcePort === undefined) throw new Error('open replied without a path');
    return { path, sourcePort };
  }

  /** One datagram from a plain socket with the TTL / hop limit asked for; resolves with its source port. */
  async raw(from: string, to: string, port: number, ttl: number, hex: string): Promise<number> {
    const { sourcePort } = await this.ok('raw', { from, to, port, ttl, hex });
    if (sourcePort === undefined) throw new Error('raw replied without a source port');
    return sourcePort;
  }

  /** The packet with this payload, once it has arrived. */
  received(hex: string): Promise<Reply> {
    return this.until(`a packet with payload ${hex}`, () => this.packets.find((p) => p.hex === hex));
  }

  has(hex: string): boolean {
    return this.packets.some((p) => p.hex === hex);
  }
}

/** One UDP packet as tcpdump -q -v prints it. */
interface Packet {
  src: Endpoint;
  dst: Endpoint;
  /** IPv4 TTL or IPv6 hop limit. */
  ttl: number;
  line: string;
}

/** tcpdump on one interface for UDP. */
class Capture {
  readonly packets: Packet[] = [];
  private readonly wake = new Set<() => void>();
  private pending = '';

  private constructor(private readonly proc: ChildProcess) {
    if (proc.stdout === null) throw new Error('tcpdump needs a piped stdout');
    createInterface({ input: proc.stdout }).on('line', (line) => {
      // -v prints an IPv4 packet on two lines, the second indented; -q ends each with its UDP length.
      this.pending = /^\s/.test(line) ? `${this.pending} ${line.trim()}` : line;
      if (/UDP, length \d+$/.test(this.pending)) this.flush();
    });
  }

  static async start(ns: Netns, ifname: string): Promise<Capture> {
    const proc = ns.spawn(['tcpdump', '-i', ifname, '-n', '-l', '-q', '-v', '--immediate-mode', 'udp']);
    const capture = new Capture(proc);
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      proc.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on')) resolve();
      });
      proc.once('exit', () => reject(new Error(`tcpdump exited: ${stderr}`)));
    });
    return capture;
  }

  /** The captured packets matching `match`, once there are `count` of them. */
  waitFor(what: string, count: number, match: (p: Packet) => boolean): Promise<Packet[]> {
    return waitUntil(what, WAIT_MS, this.wake, () => {
      const found = this.packets.filter(match);
      return found.length >= count ? found : undefined;
    }).catch((e: unknown) => {
      throw new Error(`${String(e)}; captured:\n${this.packets.map((p) => p.line).join('\n')}`);
    });
  }

  stop(): void {
    this.proc.kill('SIGTERM');
  }

  private flush(): void {
    const line = this.pending;
    this.pending = '';
    const addresses = /\s(\S+)\.(\d+) > (\S+)\.(\d+):/.exec(line);
    const ttl = /\b(?:ttl|hlim) (\d+)/.exec(line);
    if (addresses === null || ttl === null) return;
    this.packets.push({
      src: { address: addresses[1] ?? '', port: Number(addresses[2]) },
      dst: { address: addresses[3] ?? '', port: Number(addresses[4]) },
      ttl: Number(ttl[1]),
      line,
    });
    for (const w of this.wake) w();
  }
}

const inSourceRange = (port: number) => port >= BFD_SOURCE_PORTS.min && port <= BFD_SOURCE_PORTS.max;

const families = [
  { family: 4, a: '198.18.0.1', a2: '198.18.0.11', b: '198.18.0.2', prefix: 24 },
  { family: 6, a: '2001:db8::1', a2: '2001:db8::11', b: '2001:db8::2', prefix: 64 },
] as const;

describe.skipIf(mode === 'skip')('BFD over UDP on a real kernel (RFC 5881, RFC 5883)', () => {
  let lab: NetnsLab;
  let nsA: Netns;
  let nsB: Netns;
  let a: Child;
  let b: Child;

  beforeAll(async () => {
    lab = await NetnsLab.create();
    nsA = await lab.host('a');
    nsB = await lab.host('b');
    await lab.pointToPoint(nsA, 'eth0', nsB, 'eth0');
    for (const f of families) {
      await nsA.addAddress('eth0', `${f.a}/${f.prefix}`);
      await nsA.addAddress('eth0', `${f.a2}/${f.prefix}`);
      await nsB.addAddress('eth0', `${f.b}/${f.prefix}`);
    }
    a = Child.start(nsA, { minimumTtl: A_MINIMUM_TTL });
    b = Child.start(nsB);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await lab?.destroy();
  });

  describe.each(families)('IPv$family', (f) => {
    it('single-hop: each session sends from a source port of its own in 49152-65535, with TTL 255, to 3784', async () => {
      const capture = await Capture.start(nsB, 'eth0');
      const back = await b.open({ localAddress: f.b, peerAddress: f.a, multihop: false });
      const one = await a.open({ localAddress: f.a, peerAddress: f.b, multihop: false });
      const two = await a.open({ localAddress: f.a2, peerAddress: f.b, multihop: false });
      try {
        expect(inSourceRange(one.sourcePort) && inSourceRange(two.sourcePort)).toBe(true);
        expect(one.sourcePort).not.toBe(two.sourcePort);
        const sessions = [
          { ...one, local: f.a },
          { ...two, local: f.a2 },
        ];
        const sent = [...sessions, ...sessions].map((s) => ({ ...s, hex: unique() }));
        for (const s of sent) await a.ok('send', { path: s.path, hex: s.hex });
        for (const s of sent) {
          expect(await b.received(s.hex)).toMatchObject({
            from: { address: s.local, port: s.sourcePort },
            multihop: false,
          });
        }
        const wire = await capture.waitFor('the four packets on the wire', 4, (p) => p.dst.address === f.b);
        expect(wire.map((p) => [p.src.address, p.src.port, p.dst.port, p.ttl])).toEqual([
          [f.a, one.sourcePort, BFD_SINGLE_HOP_PORT, 255],
          [f.a2, two.sourcePort, BFD_SINGLE_HOP_PORT, 255],
          [f.a, one.sourcePort, BFD_SINGLE_HOP_PORT, 255],
          [f.a2, two.sourcePort, BFD_SINGLE_HOP_PORT, 255],
        ]);
      } finally {
        capture.stop();
        for (const p of [one, two]) await a.ok('close-path', { path: p.path });
        await b.ok('close-path', { path: back.path });
      }
    });

    it('single-hop: a packet that arrives with TTL 254 (or 1) is dropped in the kernel, 255 passes', async () => {
      const back = await b.open({ localAddress: f.b, peerAddress: f.a, multihop: false });
      const capture = await Capture.start(nsB, 'eth0');
      try {
        const [low, one, high] = [unique(), unique(), unique()];
        const lowPort = await a.raw(f.a, f.b, BFD_SINGLE_HOP_PORT, 254, low);
        await a.raw(f.a, f.b, BFD_SINGLE_HOP_PORT, 1, one);
        await a.raw(f.a, f.b, BFD_SINGLE_HOP_PORT, 255, high);
        expect(await b.received(high)).toMatchObject({ from: { address: f.a }, multihop: false });
        expect([b.has(low), b.has(one)]).toEqual([false, false]);
        // It reached B's interface: the socket filter, nothing on the way, dropped it.
        const [onWire] = await capture.waitFor('the TTL 254 packet', 1, (p) => p.src.port === lowPort);
        expect(onWire?.ttl).toBe(254);
      } finally {
        capture.stop();
        await b.ok('close-path', { path: back.path });
      }
    });

    it('multihop: sends with TTL 255 to 4784; the default minimum 254 takes 254 and 255, drops 253', async () => {
      const capture = await Capture.start(nsB, 'eth0');
      const back = await b.open({ localAddress: f.b, peerAddress: f.a, multihop: true });
      const path = await a.open({ localAddress: f.a, peerAddress: f.b, multihop: true });
      try {
        const hex = unique();
        await a.ok('send', { path: path.path, hex });
        expect(await b.received(hex)).toMatchObject({
          from: { address: f.a, port: path.sourcePort },
          multihop: true,
        });
        const [wire] = await capture.waitFor('the multihop packet', 1, (p) => p.src.port === path.sourcePort);
        expect([wire?.dst.port, wire?.ttl]).toEqual([BFD_MULTI_HOP_PORT, 255]);
        const [low, edge, high] = [unique(), unique(), unique()];
        await a.raw(f.a, f.b, BFD_MULTI_HOP_PORT, 253, low);
        await a.raw(f.a, f.b, BFD_MULTI_HOP_PORT, 254, edge);
        await a.raw(f.a, f.b, BFD_MULTI_HOP_PORT, 255, high);
        await b.received(high);
        expect([b.has(low), b.has(edge)]).toEqual([false, true]);
        // Port 3784 and its exact check are not involved: a single-hop session would have dropped 254.
        expect((await b.received(edge)).multihop).toBe(true);
      } finally {
        capture.stop();
        await a.ok('close-path', { path: path.path });
        await b.ok('close-path', { path: back.path });
      }
    });

    it("multihop: the network's own default minimum, from new UdpBfdNetwork({ minimumTtl })", async () => {
      const path = await a.open({ localAddress: f.a, peerAddress: f.b, multihop: true });
      try {
        const [below, at, sentinel] = [unique(), unique(), unique()];
        await b.raw(f.b, f.a, BFD_MULTI_HOP_PORT, A_MINIMUM_TTL - 1, below);
        await b.raw(f.b, f.a, BFD_MULTI_HOP_PORT, A_MINIMUM_TTL, at);
        await b.raw(f.b, f.a, BFD_MULTI_HOP_PORT, 255, sentinel);
        await a.received(sentinel);
        expect([a.has(below), a.has(at)]).toEqual([false, true]);
      } finally {
        await a.ok('close-path', { path: path.path });
      }
    });

    it('multihop: a session with its own minimumTtl holds its peer to it, until it closes', async () => {
      const strict = await b.open({ localAddress: f.b, peerAddress: f.a, multihop: true, minimumTtl: 255 });
      const send254 = async (from: string) => {
        const [hex, sentinel] = [unique(), unique()];
        await a.raw(from, f.b, BFD_MULTI_HOP_PORT, 254, hex);
        await a.raw(from, f.b, BFD_MULTI_HOP_PORT, 255, sentinel);
        await b.received(sentinel);
        return b.has(hex);
      };
      let open = true;
      try {
        // From the session's peer: held to 255. From another address of A: no session, the default 254.
        expect(await send254(f.a)).toBe(false);
        expect(await send254(f.a2)).toBe(true);
        await b.ok('close-path', { path: strict.path });
        open = false;
        expect(await send254(f.a)).toBe(true);
      } finally {
        if (open) await b.ok('close-path', { path: strict.path });
      }
    });

    it('rejects a local address the host does not have, and one that is not an address', async () => {
      const reply = await a.request('open', {
        spec: { localAddress: f.b, peerAddress: f.a, multihop: false },
      });
      expect(reply).toMatchObject({ ok: false, code: 'BFD_SOCKET', errno: 'EADDRNOTAVAIL' });
      expect(reply.message).toContain(`${f.b} is not an address of this host`);
      expect(
        await a.request('open', { spec: { localAddress: `${f.a}x`, peerAddress: f.b, multihop: true } }),
      ).toMatchObject({ ok: false, code: 'BFD_OPTION' });
    });
  });

  it('refuses to share port 3784 with another BFD implementation in the same namespace', async () => {
    const back = await b.open({ localAddress: '198.18.0.2', peerAddress: '198.18.0.1', multihop: false });
    const other = Child.start(nsB);
    try {
      const reply = await other.request('open', {
        spec: { localAddress: '198.18.0.2', peerAddress: '198.18.0.1', multihop: false },
      });
      expect(reply).toMatchObject({ ok: false, code: 'BFD_SOCKET', errno: 'EADDRINUSE' });
      expect(reply.message).toContain(`UDP port ${BFD_SINGLE_HOP_PORT}`);
      expect(reply.message).toContain('another BFD implementation');
    } finally {
      expect(await other.stop()).toBe(0);
      await b.ok('close-path', { path: back.path });
    }
  });

  it('close() closes every socket of the network, and the child exits', async () => {
    const udpSockets = async (ns: Netns) => (await ns.exec(['ss', '-H', '-u', '-a', '-n'])).trim();
    for (const f of families) {
      await a.open({ localAddress: f.a, peerAddress: f.b, multihop: false });
      await a.open({ localAddress: f.a, peerAddress: f.b, multihop: true });
    }
    // Four receive sockets (3784 and 4784, each family) and four sessions.
    expect((await udpSockets(nsA)).split('\n')).toHaveLength(8);
    await a.ok('close');
    expect(await udpSockets(nsA)).toBe('');
    expect(
      await a.request('open', {
        spec: { localAddress: '198.18.0.1', peerAddress: '198.18.0.2', multihop: false },
      }),
    ).toMatchObject({
      ok: false,
      code: 'BFD_NETWORK_CLOSED',
    });
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  });
});
