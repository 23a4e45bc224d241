// connectTcp and listenTcp against the real kernel: two lab namespaces on a veth, one child process per
// namespace (tcp.netns-child.ts, because a socket belongs to the namespace of the process that creates
// it), and tcpdump on B's interface to see what is on the wire. The namespaces come from the lab's
// NetnsLab (a test may use lab/ test support; core code never does), so they carry the run id and a
// crashed run's leftovers are reaped like any other lab run's.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLinesChild } from '../json-lines-child.test-support.ts';
import { waitUntil } from '../wait-until.test-support.ts';
import { NetnsLab } from '../../../lab/backends/netns/lab.ts';
import type { Netns } from '../../../lab/backends/netns/namespace.ts';
import { requireNetns } from '../../../lab/backends/netns/test-support.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./tcp.netns-child.ts', import.meta.url));
const WAIT_MS = 5000;
/** Long enough for a SYN and its answer on a veth, short enough to keep the failing cases quick. */
const REFUSED_WITHIN_MS = 1200;

const mode = await requireNetns(['tcpdump']);

interface Reply {
  id?: number;
  ok?: boolean;
  event?: 'accepted';
  port?: number;
  code?: string;
  errno?: string;
  message?: string;
  echoed?: string;
  local?: { address: string; port: number };
  remote?: { address: string; port: number };
}

/** One tcp.netns-child.ts process in a namespace: requests by id, and the connections it accepted. */
class Child extends JsonLinesChild<Reply> {
  /** The connections its listeners accepted, in order (its only events). */
  get accepted(): Reply[] {
    return this.events;
  }

  /** Waits longer than any connect timeout the tests ask for, so the child always answers first. */
  override request(op: string, fields: object = {}, ms = 2 * WAIT_MS): Promise<Reply> {
    return super.request(op, fields, ms);
  }

  async listen(options: object): Promise<number> {
    const reply = await this.request('listen', { options });
    if (reply.ok !== true || reply.port === undefined)
      throw new Error(`listen failed: ${JSON.stringify(reply)}`);
    return reply.port;
  }

  connect(options: object): Promise<Reply> {
    return this.request('connect', { options });
  }

  async ok(op: string, fields: object): Promise<void> {
    const reply = await this.request(op, fields);
    if (reply.ok !== true) throw new Error(`${op} failed: ${JSON.stringify(reply)}`);
  }
}

/** One packet as tcpdump -v prints it. */
interface Packet {
  src: string;
  dst: string;
  flags: string;
  /** IPv4 TTL or IPv6 hop limit. */
  ttl: number;
  /** The TCP-MD5 option (kind 19): checked against the capture's secret, or absent. */
  md5: 'valid' | 'invalid' | 'absent';
  line: string;
}

/** tcpdump on one interface for one TCP port; with a secret it checks every MD5 signature it sees. */
class Capture {
  readonly packets: Packet[] = [];
  private readonly wake = new Set<() => void>();
  private pending = '';

  private constructor(private readonly proc: ChildProcess) {
    if (proc.stdout === null) throw new Error('tcpdump needs a piped stdout');
    createInterface({ input: proc.stdout }).on('line', (line) => {
      // -v prints an IPv4 packet on two lines, the second indented.
      if (/^\s/.test(line)) this.pending += ` ${line.trim()}`;
      else {
        this.flush();
        this.pending = line;
      }
      this.flush(/ length \d+$/.test(this.pending) && /Flags \[/.test(this.pending));
    });
  }

  static async start(ns: Netns, ifname: string, port: number, secret?: string): Promise<Capture> {
    const argv = ['tcpdump', '-i', ifname, '-n', '-l', '-v', '--immediate-mode'];
    const proc = ns.spawn([
      ...argv,
      ...(secret === undefined ? [] : ['-M', secret]),
      'tcp',
      'port',
      `${port}`,
    ]);
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

  /** The packets so far, once `ready` holds for them. */
  waitFor(what: string, ready: (packets: Packet[]) => boolean): Promise<Packet[]> {
    return waitUntil(what, WAIT_MS, this.wake, () => (ready(this.packets) ? this.packets : undefined)).catch(
      (e: unknown) => {
        throw new Error(`${String(e)}; captured:\n${this.packets.map((p) => p.line).join('\n')}`);
      },
    );
  }

  stop(): void {
    this.proc.kill('SIGTERM');
  }

  private flush(complete = true): void {
    if (!complete || this.pending === '') return;
    const line = this.pending;
    this.pending = '';
    const addresses = /\s(\S+)\.\d+ > (\S+)\.\d+: Flags \[([^\]]*)\]/.exec(line);
    const ttl = /\b(?:ttl|hlim) (\d+)/.exec(line);
    if (addresses === null || ttl === null) return;
    this.packets.push({
      src: addresses[1] ?? '',
      dst: addresses[2] ?? '',
      flags: addresses[3] ?? '',
      ttl: Number(ttl[1]),
      md5: /md5 valid/.test(line) ? 'valid' : /md5/.test(line) ? 'invalid' : 'absent',
      line,
    });
    for (const w of this.wake) w();
  }
}

const families = [
  { family: 4, a: '198.18.0.1', a2: '198.18.0.11', b: '198.18.0.2', any: '0.0.0.0', prefix: 24 },
  { family: 6, a: '2001:db8::1', a2: '2001:db8::11', b: '2001:db8::2', any: '::', prefix: 64 },
] as const;

describe.skipIf(mode === 'skip')('TCP with MD5, TTL and GTSM on a real kernel', () => {
  let lab: NetnsLab;
  let nsB: Netns;
  let a: Child;
  let b: Child;

  beforeAll(async () => {
    lab = await NetnsLab.create();
    const nsA = await lab.host('a');
    nsB = await lab.host('b');
    await lab.pointToPoint(nsA, 'eth0', nsB, 'eth0');
    for (const f of families) {
      await nsA.addAddress('eth0', `${f.a}/${f.prefix}`);
      // Only for the localAddress test: deprecated (preferred_lft 0), so the kernel never picks the
      // IPv6 one as the source of its own accord (the IPv4 one is secondary, which does the same).
      await nsA.ip('addr', 'add', `${f.a2}/${f.prefix}`, 'dev', 'eth0', 'preferred_lft', '0');
      await nsB.addAddress('eth0', `${f.b}/${f.prefix}`);
    }
    const start = (ns: Netns) =>
      new Child(ns.spawn([process.execPath, '--import', 'tsx', CHILD], { cwd: ROOT }), WAIT_MS);
    a = start(nsA);
    b = start(nsB);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await lab?.destroy();
  });

  describe.each(families)('IPv$family', (f) => {
    it('connects when both sides share a TCP-MD5 password, and every segment is signed', async () => {
      const port = await b.listen({ host: f.b, port: 0, passwords: [[f.a, 'bgp-secret']] });
      const capture = await Capture.start(nsB, 'eth0', port, 'bgp-secret');
      try {
        const reply = await a.connect({ host: f.b, port, md5Password: 'bgp-secret', timeoutMs: WAIT_MS });
        expect(reply).toMatchObject({ ok: true, echoed: 'ping' });
        // Both ends' data: the accepted socket got the key from the listener.
        const packets = await capture.waitFor('the echo from B', (ps) =>
          ps.some((p) => p.src === f.b && p.flags.includes('P')),
        );
        expect(packets.find((p) => p.flags === 'S')?.md5).toBe('valid');
        expect(packets.find((p) => p.flags === 'S.')?.md5).toBe('valid');
        expect(packets.map((p) => p.md5)).toEqual(packets.map(() => 'valid'));
      } finally {
        capture.stop();
        await b.ok('close', { port });
      }
    });

    it.each([
      ['a different password', 'right', 'wrong'],
      ['no password on the connecting side', 'right', undefined],
      ['no password on the listening side', undefined, 'right'],
    ])('cannot connect with %s: the kernel drops the SYNs', async (_case, listening, connecting) => {
      const passwords = listening === undefined ? [] : [[f.a, listening]];
      const port = await b.listen({ host: f.b, port: 0, passwords });
      try {
        const reply = await a.connect({
          host: f.b,
          port,
          md5Password: connecting,
          timeoutMs: REFUSED_WITHIN_MS,
        });
        expect(reply).toMatchObject({ ok: false, code: 'TCP_CONNECT_TIMEOUT' });
        expect(b.accepted.filter((r) => r.port === port)).toEqual([]);
      } finally {
        await b.ok('close', { port });
      }
    });

    it('sends with the TTL each side asked for, the accepted connection included', async () => {
      const port = await b.listen({ host: f.b, port: 0, ttl: 2 });
      const capture = await Capture.start(nsB, 'eth0', port);
      try {
        expect(await a.connect({ host: f.b, port, ttl: 1, timeoutMs: WAIT_MS })).toMatchObject({ ok: true });
        const packets = await capture.waitFor('the echo from B', (ps) =>
          ps.some((p) => p.src === f.b && p.flags.includes('P')),
        );
        expect(new Set(packets.filter((p) => p.src === f.a).map((p) => p.ttl))).toEqual(new Set([1]));
        expect(new Set(packets.filter((p) => p.src === f.b).map((p) => p.ttl))).toEqual(new Set([2]));
      } finally {
        capture.stop();
        await b.ok('close', { port });
      }
    });

    it('GTSM: a listener with minTtl 255 drops a peer sending TTL 64 and takes one sending 255', async () => {
      const port = await b.listen({ host: f.b, port: 0, minTtl: 255 });
      try {
        const low = await a.connect({ host: f.b, port, timeoutMs: REFUSED_WITHIN_MS });
        expect(low).toMatchObject({ ok: false, code: 'TCP_CONNECT_TIMEOUT' });
        const high = await a.connect({ host: f.b, port, ttl: 255, timeoutMs: WAIT_MS });
        expect(high).toMatchObject({ ok: true, echoed: 'ping' });
      } finally {
        await b.ok('close', { port });
      }
    });

    it('GTSM: a connecting socket with minTtl 255 drops an answer sent with TTL 64', async () => {
      const low = await b.listen({ host: f.b, port: 0 });
      const high = await b.listen({ host: f.b, port: 0, ttl: 255 });
      try {
        const dropped = await a.connect({
          host: f.b,
          port: low,
          ttl: 255,
          minTtl: 255,
          timeoutMs: REFUSED_WITHIN_MS,
        });
        expect(dropped).toMatchObject({ ok: false, code: 'TCP_CONNECT_TIMEOUT' });
        expect(dropped.message).toContain('TTL below 255');
        const taken = await a.connect({ host: f.b, port: high, ttl: 255, minTtl: 255, timeoutMs: WAIT_MS });
        expect(taken).toMatchObject({ ok: true, echoed: 'ping' });
      } finally {
        await b.ok('close', { port: low });
        await b.ok('close', { port: high });
      }
    });

    it('takes a peer password set, and removed, while listening', async () => {
      const port = await b.listen({ host: f.b, port: 0 });
      const connect = (md5Password: string | undefined, timeoutMs: number) =>
        a.connect({ host: f.b, port, md5Password, timeoutMs });
      try {
        expect(await connect('later', REFUSED_WITHIN_MS)).toMatchObject({ code: 'TCP_CONNECT_TIMEOUT' });
        await b.ok('password', { port, peer: f.a, password: 'later' });
        expect(await connect('later', WAIT_MS)).toMatchObject({ ok: true, echoed: 'ping' });
        expect(await connect(undefined, REFUSED_WITHIN_MS)).toMatchObject({ code: 'TCP_CONNECT_TIMEOUT' });
        await b.ok('password', { port, peer: f.a, password: undefined });
        expect(await connect(undefined, WAIT_MS)).toMatchObject({ ok: true, echoed: 'ping' });
        // Removing a password that is not set is not an error.
        await b.ok('password', { port, peer: f.a, password: undefined });
      } finally {
        await b.ok('close', { port });
      }
    });

    it('connects from the localAddress asked for, signed with the key for that address', async () => {
      const port = await b.listen({ host: f.b, port: 0, passwords: [[f.a2, 'second']] });
      try {
        const reply = await a.connect({
          host: f.b,
          port,
          localAddress: f.a2,
          md5Password: 'second',
          timeoutMs: WAIT_MS,
        });
        expect(reply).toMatchObject({ ok: true, local: { address: f.a2 } });
        expect(b.accepted.filter((r) => r.port === port).map((r) => r.remote?.address)).toEqual([f.a2]);
      } finally {
        await b.ok('close', { port });
      }
    });

    it('rejects a refused connection, a source address the host does not have, and a closed listener', async () => {
      const port = await b.listen({ host: f.b, port: 0 });
      await b.ok('close', { port });
      expect(await b.request('password', { port, peer: f.a, password: 'x' })).toMatchObject({
        ok: false,
        code: 'TCP_LISTENER_CLOSED',
      });
      // Closed at once: the port answers with a reset now.
      expect(await a.connect({ host: f.b, port, timeoutMs: WAIT_MS })).toMatchObject({
        ok: false,
        code: 'TCP_CONNECT_REFUSED',
      });
      expect(await a.connect({ host: f.b, port, localAddress: f.b, timeoutMs: WAIT_MS })).toMatchObject({
        ok: false,
        code: 'TCP_SYSTEM',
        errno: 'EADDRNOTAVAIL',
      });
    });
  });

  it('refuses to listen on a port that is taken', async () => {
    const port = await b.listen({ host: '198.18.0.2', port: 0 });
    try {
      expect(await b.request('listen', { options: { host: '198.18.0.2', port } })).toMatchObject({
        ok: false,
        code: 'TCP_SYSTEM',
        errno: 'EADDRINUSE',
      });
    } finally {
      await b.ok('close', { port });
    }
  });

  it('a dual-stack listener on :: signs IPv4 peers with their IPv4 password', async () => {
    const port = await b.listen({ host: '::', port: 0, ttl: 3, passwords: [['198.18.0.1', 'v4-peer']] });
    const capture = await Capture.start(nsB, 'eth0', port, 'v4-peer');
    try {
      const reply = await a.connect({ host: '198.18.0.2', port, md5Password: 'v4-peer', timeoutMs: WAIT_MS });
      expect(reply).toMatchObject({ ok: true, echoed: 'ping' });
      const packets = await capture.waitFor('the echo from B', (ps) =>
        ps.some((p) => p.src === '198.18.0.2' && p.flags.includes('P')),
      );
      const fromB = packets.filter((p) => p.src === '198.18.0.2');
      expect(fromB.map((p) => [p.md5, p.ttl])).toEqual(fromB.map(() => ['valid', 3]));
    } finally {
      capture.stop();
      await b.ok('close', { port });
    }
  });

  it('lets the child processes exit once their listeners are closed', async () => {
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  });
});
