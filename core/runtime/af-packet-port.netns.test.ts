// AfPacketPort against the real kernel: two fresh network namespaces joined by a veth pair, one child
// process per namespace (af-packet-port.netns-child.ts), because a raw socket belongs to the namespace
// of the process that opens it and this process stays in the host's. Needs root; without it the suite
// fails, unless LBLAB_SKIP_NETNS=1 asks explicitly for a skip.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  type Frame,
  NEXT_HEADER_ICMPV6,
  decodeEthernet,
  decodeFrame,
  encodeEthernet,
  encodeFrame,
  encodeIpv6,
  gratuitousArp,
  internetChecksum,
  neighborSolicitation,
} from '../l2/wire/index.ts';
import { IpAddress, MacAddress } from '../net/index.ts';
import { missingNetworkCapabilities } from './capabilities.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./af-packet-port.netns-child.ts', import.meta.url));
const RUN = `lblab-t${randomBytes(3).toString('hex')}`;
const NS_A = `${RUN}-a`;
const NS_B = `${RUN}-b`;
const IF_A = 'lblab-a';
const IF_B = 'lblab-b';
const WAIT_MS = 5000;

const skipReason = process.env.LBLAB_SKIP_NETNS === '1' ? 'LBLAB_SKIP_NETNS=1 is set' : undefined;
if (skipReason !== undefined) console.warn(`af-packet-port netns tests skipped: ${skipReason}`);

interface ChildEvent {
  event: 'ready' | 'rx' | 'sent' | 'send-error' | 'error';
  hex?: string;
  mac?: string;
  ifindex?: number;
  code?: string;
  errno?: string;
  message?: string;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** One af-packet-port.netns-child.ts process in a namespace, with everything it printed. */
class Child {
  readonly events: ChildEvent[] = [];
  readonly exited: Promise<number | null>;
  private stderr = '';
  private readonly wake = new Set<() => void>();

  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      this.events.push(JSON.parse(line) as ChildEvent);
      for (const w of this.wake) w();
    });
    proc.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    void this.exited.then(() => this.wake.forEach((w) => w()));
  }

  get received(): string[] {
    return this.events.flatMap((e) => (e.event === 'rx' && e.hex !== undefined ? [e.hex] : []));
  }

  send(frame: Uint8Array): void {
    this.proc.stdin.write(`send ${hex(frame)}\n`);
  }

  /** The first event (already printed or still to come) that matches, within WAIT_MS. */
  waitFor(what: string, match: (e: ChildEvent) => boolean): Promise<ChildEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(match);
        const dead = this.proc.exitCode !== null || this.proc.signalCode !== null;
        if (found === undefined && !dead) return;
        clearTimeout(timer);
        this.wake.delete(check);
        if (found !== undefined) resolve(found);
        else reject(new Error(`the child exited while waiting for ${what}; stderr:\n${this.stderr}`));
      };
      const timer = setTimeout(() => {
        this.wake.delete(check);
        reject(new Error(`timed out after ${WAIT_MS} ms waiting for ${what}; stderr:\n${this.stderr}`));
      }, WAIT_MS);
      this.wake.add(check);
      check();
    });
  }

  /** The first received frame that decodes and matches, so a frame that arrives altered shows as a diff. */
  waitForDecoded(what: string, match: (frame: Frame) => boolean): Promise<ChildEvent> {
    return this.waitFor(what, (e) => {
      if (e.event !== 'rx' || e.hex === undefined) return false;
      try {
        return match(decodeFrame(Buffer.from(e.hex, 'hex')));
      } catch {
        return false; // a malformed frame is not the one awaited
      }
    });
  }

  waitForFrame(frame: Uint8Array, what: string): Promise<ChildEvent> {
    const wanted = hex(frame);
    return this.waitFor(what, (e) => e.event === 'rx' && e.hex === wanted);
  }

  /** Closes stdin (the child closes its port and should exit by itself); kills it after WAIT_MS. */
  async stop(): Promise<number | null> {
    this.proc.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), WAIT_MS)),
    );
    if ((await Promise.race([this.exited, timeout])) === 'timeout') this.proc.kill('SIGKILL');
    clearTimeout(timer);
    return this.exited;
  }
}

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8', stdio: 'pipe' });

/** An IPv4 UDP datagram from 198.18.0.1 to 198.18.0.2, broadcast: data-plane traffic the filter drops. */
function udpOverIpv4(src: MacAddress): Uint8Array {
  const packet = Uint8Array.of(
    ...[0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 17, 0, 0, 198, 18, 0, 1, 198, 18, 0, 2],
    ...[0x9c, 0x40, 0x9c, 0x40, 0, 8, 0, 0],
  );
  new DataView(packet.buffer).setUint16(10, internetChecksum(packet.subarray(0, 20)));
  return encodeEthernet({ dst: MacAddress.broadcast, src, etherType: ETHERTYPE_IPV4, payload: packet });
}

/** IPv6 carrying UDP (next header 17), not ICMPv6: the filter must look past the EtherType. */
function udpOverIpv6(src: MacAddress): Uint8Array {
  const payload = encodeIpv6({
    trafficClass: 0,
    flowLabel: 0,
    nextHeader: 17,
    hopLimit: 64,
    src: IpAddress.parse('2001:db8::1'),
    dst: IpAddress.parse('ff02::1'),
    payload: Uint8Array.of(0x9c, 0x40, 0x9c, 0x40, 0, 8, 0, 0),
  });
  return encodeEthernet({
    dst: MacAddress.parse('33:33:00:00:00:01'),
    src,
    etherType: ETHERTYPE_IPV6,
    payload,
  });
}

const isArpFor = (frame: Frame, ip4: string) =>
  frame.kind === 'arp' && frame.arp.senderIp.equals(IpAddress.parse(ip4));

const garp = (ip4: string, mac: MacAddress, vid?: number) =>
  encodeFrame(
    gratuitousArp({
      ip: IpAddress.parse(ip4),
      mac,
      form: 'request',
      ...(vid === undefined ? {} : { vlan: { pcp: 0, dei: false, vid } }),
    }),
  );

describe.skipIf(skipReason !== undefined)(
  `AfPacketPort on a real kernel${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const namespaces: string[] = [];
    const children: Child[] = [];
    const start = (ns: string, interfaceName: string, wrapper: string[] = []) => {
      const command = [...wrapper, process.execPath, '--import', 'tsx', CHILD, interfaceName];
      const child = new Child(spawn('ip', ['netns', 'exec', ns, ...command], { cwd: ROOT }));
      children.push(child);
      return child;
    };
    let a: Child;
    let b: Child;
    let macA: MacAddress;
    let macB: MacAddress;
    /** Every frame A sent, to check that none comes back to A. */
    const sentByA: string[] = [];
    const sendFromA = (frame: Uint8Array) => {
      sentByA.push(hex(frame));
      a.send(frame);
    };

    // Checked per test rather than in beforeAll: a failing beforeAll reports the tests as skipped, and a
    // run without root must read as failed.
    const missing = missingNetworkCapabilities();
    beforeEach(() => {
      if (missing.length === 0) return;
      throw new Error(
        `the netns tests need root: this process lacks ${missing.join(', ')} (ip netns add, veth pairs, ` +
          'raw sockets). Run them as root, or set LBLAB_SKIP_NETNS=1 to skip them explicitly.',
      );
    });

    beforeAll(async () => {
      if (missing.length > 0) return;
      for (const ns of [NS_A, NS_B]) {
        ip('netns', 'add', ns);
        namespaces.push(ns);
      }
      // Created inside A with its peer moved straight into B: the host namespace never holds either end.
      ip('-n', NS_A, 'link', 'add', IF_A, 'type', 'veth', 'peer', 'name', IF_B, 'netns', NS_B);
      ip('-n', NS_A, 'link', 'set', IF_A, 'up');
      ip('-n', NS_B, 'link', 'set', IF_B, 'up');
      a = start(NS_A, IF_A);
      b = start(NS_B, IF_B);
      const [readyA, readyB] = await Promise.all([
        a.waitFor('ready from A', (e) => e.event === 'ready'),
        b.waitFor('ready from B', (e) => e.event === 'ready'),
      ]);
      macA = MacAddress.parse(readyA.mac ?? '');
      macB = MacAddress.parse(readyB.mac ?? '');
    });

    afterAll(async () => {
      await Promise.all(children.map((c) => c.stop()));
      const failures: string[] = [];
      for (const ns of namespaces.reverse()) {
        try {
          ip('netns', 'del', ns);
        } catch (e) {
          failures.push(`${ns}: ${String(e)}`);
        }
      }
      if (failures.length > 0) throw new Error(`could not delete namespaces:\n${failures.join('\n')}`);
    });

    it('reports the MAC and ifindex the kernel gives the interface', async () => {
      const [link] = JSON.parse(ip('-n', NS_A, '-j', 'link', 'show', 'dev', IF_A)) as {
        ifindex: number;
        address: string;
      }[];
      const ready = await a.waitFor('ready from A', (e) => e.event === 'ready');
      expect(ready.mac).toBe(link?.address);
      expect(ready.ifindex).toBe(link?.ifindex);
    });

    it('delivers a gratuitous ARP from A to B byte-identical', async () => {
      const frame = garp('198.18.0.10', macA);
      sendFromA(frame);
      const rx = await b.waitForDecoded('the gratuitous ARP at B', (f) => isArpFor(f, '198.18.0.10'));
      expect(rx.hex).toBe(hex(frame));
    });

    it('delivers an 802.1Q-tagged frame with its tag back in place', async () => {
      // The kernel strips the tag on receive; the addon re-inserts it from PACKET_AUXDATA.
      const frame = garp('198.18.0.11', macA, 100);
      sendFromA(frame);
      const rx = await b.waitForDecoded('the tagged gratuitous ARP at B', (f) => isArpFor(f, '198.18.0.11'));
      expect(rx.hex).toBe(hex(frame));
    });

    it('passes a neighbor solicitation (ICMPv6) through the filter', async () => {
      const target = IpAddress.parse('2001:db8::10');
      const frame = encodeFrame(
        neighborSolicitation({ target, source: IpAddress.parse('2001:db8::1'), mac: macA }),
      );
      sendFromA(frame);
      const rx = await b.waitForDecoded(
        'the neighbor solicitation at B',
        (f) => f.kind === 'ns' && f.ns.target.equals(target),
      );
      expect(rx.hex).toBe(hex(frame));
    });

    it('filters out IPv4 and non-ICMPv6 IPv6 frames in the kernel', async () => {
      const dropped = [udpOverIpv4(macA), udpOverIpv6(macA)];
      // A veth keeps the order of one sender's frames, so once the marker is in, the others would be too.
      const marker = garp('198.18.0.12', macA);
      for (const frame of [...dropped, marker]) sendFromA(frame);
      await b.waitForFrame(marker, 'the marker ARP at B');
      expect(b.received).not.toContain(hex(dropped[0] ?? new Uint8Array()));
      expect(b.received).not.toContain(hex(dropped[1] ?? new Uint8Array()));
      // B's kernel traffic from A (DAD, router solicitations, MLD reports) is also subject to the filter.
      for (const frameHex of b.received) {
        const eth = decodeEthernet(Buffer.from(frameHex, 'hex'));
        const icmpv6 = eth.etherType === ETHERTYPE_IPV6 && eth.payload[6] === NEXT_HEADER_ICMPV6;
        expect(eth.etherType === ETHERTYPE_ARP || icmpv6, frameHex).toBe(true);
      }
    });

    it('does not deliver its own frames to a port', async () => {
      // A's receive path works (it gets B's frame), yet none of the frames A sent came back to it.
      const fromB = garp('198.18.0.20', macB);
      b.send(fromB);
      await a.waitForFrame(fromB, "B's gratuitous ARP at A");
      expect(sentByA.length).toBeGreaterThan(0);
      for (const frameHex of sentByA) expect(a.received).not.toContain(frameHex);
    });

    it('keeps receiving after its interface goes down and up', async () => {
      // Link down makes the socket report ENETDOWN through POLLERR, which stops a libuv poll handle.
      ip('-n', NS_B, 'link', 'set', IF_B, 'down');
      ip('-n', NS_B, 'link', 'set', IF_B, 'up');
      const frame = garp('198.18.0.13', macA);
      // The veth needs a moment to carry frames again, so send until one arrives (bounded).
      const arrived = b.waitForFrame(frame, 'the ARP at B after the link flap');
      for (let i = 0; i < 20 && !b.received.includes(hex(frame)); i++) {
        sendFromA(frame);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await arrived;
    });

    it('throws a clear error for an interface that does not exist', async () => {
      const child = start(NS_A, 'nope0');
      const error = await child.waitFor('the open error', (e) => e.event === 'error');
      expect(error).toMatchObject({ code: 'AF_PACKET', errno: 'ENODEV' });
      expect(error.message).toMatch(/"nope0".*no such interface in this network namespace/);
      expect(await child.exited).toBe(1);
    });

    it('says that CAP_NET_RAW is needed when the process lacks it', async () => {
      const child = start(NS_A, IF_A, ['setpriv', '--bounding-set', '-net_raw']);
      const error = await child.waitFor('the open error', (e) => e.event === 'error');
      expect(error).toMatchObject({ code: 'AF_PACKET', errno: 'EPERM' });
      expect(error.message).toContain('needs CAP_NET_RAW');
    });

    it('a worker thread ended with its port still open does not take the process down', async () => {
      // A speaker's BFD worker (echo frames) may be terminated with its port open; the addon used to
      // crash the process then (SIGSEGV: libuv called back into the unloaded addon).
      const worker = fileURLToPath(new URL('./af-packet-port.worker-child.ts', import.meta.url));
      const child = spawn('ip', ['netns', 'exec', NS_A, process.execPath, '--import', 'tsx', worker, IF_A], {
        cwd: ROOT,
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
        child.on('exit', (c, s) => resolve([c, s])),
      );
      expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: 'terminated\n' });
    });

    it('lets the process exit once the port is closed', async () => {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    });
  },
);
