// The BFD Echo function against real FRR bfdd (RFC 5880 §6.4, §6.8.5; RFC 5881 §4): r1 runs FRR with a
// BFD peer in echo mode, n1 runs our BfdEngine on real sockets and the raw echo network (in a child
// process, echo-engine.netns-child.ts, because sockets belong to the namespace of the process that opens
// them). Each side's echoes are addressed to itself and looped back by the other side's kernel, so both
// namespaces forward IPv4, and n1 accepts packets from its own address (accept_local), since its looped
// echoes come back from it. A drop of forwarded UDP 3785 in one namespace breaks only the other side's
// echoes, while the Control packets (never forwarded) keep flowing.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetnsLab } from '../../../lab/backends/netns/lab.ts';
import type { Netns } from '../../../lab/backends/netns/namespace.ts';
import { requireNetns } from '../../../lab/backends/netns/test-support.ts';
import { startFrr, type BfdSessionView, type FrrRouter } from '../../../lab/sut/index.ts';
import { waitFor } from '../../../lab/sut/wait.ts';
import type { BfdSessionInfo } from '../../bfd/engine/index.ts';
import { Diagnostic } from '../../bfd/packet/types.ts';
import { BFD_ECHO_PORT } from '../../bfd/ports.ts';
import { JsonLinesChild } from '../json-lines-child.test-support.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./echo-engine.netns-child.ts', import.meta.url));
const R1 = '198.18.0.1';
const N1 = '198.18.0.2';
const ECHO_MS = 50;
const MULTIPLIER = 3;
/** Our echo detection time (RFC 5880 §6.8.5 as EchoFunction applies it): Detect Mult × echo interval. */
const ECHO_DETECTION_MS = MULTIPLIER * ECHO_MS;
/** Process scheduling, the child's stdout pipe and nft's own latency on a loaded CI machine. */
const MARGIN_MS = 250;
const WAIT_MS = 15_000;

const mode = await requireNetns(['vtysh', 'nft', 'tcpdump']);

/** A line of the engine child: a state change, its start, or the reply to an info request. */
interface EngineLine {
  id?: number;
  event?: 'change' | 'started';
  state: string;
  previous: string;
  diagnostic: number;
  reason: string;
  session: BfdSessionInfo;
}

/** A state change, with when the test process read it. */
type Change = EngineLine & { atMs: number };

/** Our engine in n1's namespace: its state changes as they come, and its session on request. */
class Engine extends JsonLinesChild<EngineLine> {
  static async start(ns: Netns, spec: object): Promise<Engine> {
    const e = new Engine(
      ns.spawn([process.execPath, '--import', 'tsx', CHILD, JSON.stringify(spec)], { cwd: ROOT }),
      WAIT_MS,
    );
    await e.until('the engine to start', () =>
      e.events.some((x) => x.event === 'started') ? true : undefined,
    );
    return e;
  }

  get changes(): Change[] {
    return this.events.filter((x) => x.event === 'change');
  }

  async session(): Promise<BfdSessionInfo> {
    return (await this.request('info')).session;
  }

  /** Resolves once the session is in `state`, asking every 20 ms. */
  async reach(state: string): Promise<void> {
    const deadline = performance.now() + WAIT_MS;
    while ((await this.session()).state !== state) {
      if (performance.now() > deadline) throw new Error(`our session never reached ${state}`);
      await sleep(20);
    }
  }

  /** The first change after `sinceMs` that `match` accepts. */
  change(what: string, sinceMs: number, match: (c: Change) => boolean): Promise<Change> {
    return this.until(what, () => this.changes.find((c) => c.atMs >= sinceMs && match(c)));
  }
}

/** One UDP 3785 packet as tcpdump -n -v prints it. */
interface EchoOnWire {
  src: string;
  dst: string;
  ttl: number;
}

/** tcpdump on n1's interface for UDP port 3785 (our echoes out and back, r1's echoes in and forwarded). */
class Capture {
  readonly packets: EchoOnWire[] = [];
  private header = '';

  private constructor(private readonly proc: ChildProcess) {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      // -v prints the IPv4 header on one line and the addresses on the next, indented; tcpdump then
      // dumps a BFD echo's payload on further indented lines.
      if (!/^\s/.test(line)) return void (this.header = line);
      const ttl = /\bttl (\d+)\b/.exec(this.header);
      const addresses = /^\s*(\S+)\.\d+ > (\S+)\.\d+:/.exec(line);
      if (ttl === null || addresses === null) return;
      this.packets.push({ ttl: Number(ttl[1]), src: addresses[1]!, dst: addresses[2]! });
      this.header = '';
    });
  }

  static async start(ns: Netns, ifname: string): Promise<Capture> {
    const proc = ns.spawn([
      'tcpdump',
      '-i',
      ifname,
      '-n',
      '-l',
      '-v',
      '--immediate-mode',
      'udp',
      'port',
      `${BFD_ECHO_PORT}`,
    ]);
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      proc.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on')) resolve();
      });
      proc.once('exit', () => reject(new Error(`tcpdump exited: ${stderr}`)));
    });
    return new Capture(proc);
  }

  count(src: string, ttl: number): number {
    return this.packets.filter((p) => p.src === src && p.dst === src && p.ttl === ttl).length;
  }

  stop(): void {
    this.proc.kill('SIGTERM');
  }
}

/** Drops forwarded UDP to port 3785 in `ns`, as a firewall on the looping node would; returns the undo. */
async function dropForwardedEchoes(ns: Netns): Promise<() => Promise<void>> {
  await ns.exec(['nft', 'add', 'table', 'inet', 'lblab_echo']);
  await ns.exec(['nft', 'add chain inet lblab_echo forward { type filter hook forward priority 0; }']);
  await ns.exec([
    'nft',
    'add',
    'rule',
    'inet',
    'lblab_echo',
    'forward',
    'udp',
    'dport',
    `${BFD_ECHO_PORT}`,
    'drop',
  ]);
  return async () => void (await ns.exec(['nft', 'delete', 'table', 'inet', 'lblab_echo']));
}

/** FRR's view of its session with n1, once `match` accepts it (polled every 20 ms). */
async function frrSession(r1: FrrRouter, what: string, match: (s: BfdSessionView) => boolean) {
  return waitFor(
    async () => {
      const s = (await r1.bfdSessions()).find((x) => x.peer === N1);
      return s !== undefined && match(s) ? s : undefined;
    },
    {
      what: `FRR r1: BFD with ${N1} ${what}`,
      withinMs: WAIT_MS,
      diagnostics: async () => `${JSON.stringify(await r1.bfdSessions())}\n${await r1.logTail()}`,
    },
  );
}

describe.skipIf(mode === 'skip')('BFD Echo function against FRR bfdd (RFC 5880 §6.4, RFC 5881 §4)', () => {
  let lab: NetnsLab;
  let r1ns: Netns;
  let n1ns: Netns;
  let r1: FrrRouter;
  let engine: Engine;

  beforeAll(async () => {
    lab = await NetnsLab.create();
    r1ns = await lab.host('r1');
    n1ns = await lab.host('n1');
    await lab.pointToPoint(r1ns, 'eth0', n1ns, 'eth0');
    await r1ns.addAddress('eth0', `${R1}/24`);
    await n1ns.addAddress('eth0', `${N1}/24`);
    for (const ns of [r1ns, n1ns]) await ns.sysctl('net.ipv4.ip_forward', 1);
    await n1ns.sysctl('net.ipv4.conf.eth0.accept_local', 1);
    r1 = await startFrr({
      name: 'r1',
      ns: r1ns,
      asn: 64512,
      routerId: R1,
      neighbors: [
        {
          address: N1,
          asn: 64513,
          bfd: {
            receiveMs: 100,
            transmitMs: 100,
            multiplier: MULTIPLIER,
            echo: { transmitMs: ECHO_MS, receiveMs: ECHO_MS },
          },
        },
      ],
    });
    engine = await Engine.start(n1ns, {
      localAddress: N1,
      peerAddress: R1,
      multihop: false,
      receiveIntervalMs: 100,
      transmitIntervalMs: 100,
      detectMultiplier: MULTIPLIER,
      passive: false,
      echo: { intervalMs: ECHO_MS },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await r1?.stop();
    await lab?.destroy();
  });

  it('comes Up, and echoes flow both ways: each side looped back by the other side forwarding', async () => {
    await engine.reach('up');
    await frrSession(r1, 'Up with echoes', (s) => s.state === 'up' && s.echoTransmitMs === ECHO_MS);
    const capture = await Capture.start(n1ns, 'eth0');
    const before = (await engine.session()).echo;
    await sleep(1000);
    capture.stop();
    const after = await engine.session();
    expect(after).toMatchObject({ state: 'up', remoteMinEchoRxMs: ECHO_MS, requiredMinEchoRxMs: ECHO_MS });
    expect(after.echo).toMatchObject({ active: true, transmitIntervalMs: ECHO_MS });
    const sent = after.echo.sent - before.sent;
    expect(sent).toBeGreaterThanOrEqual(1000 / ECHO_MS - 2);
    expect(after.echo.returned - before.returned).toBeGreaterThanOrEqual(sent - 2);
    // On n1's wire: ours leave with TTL 255 and come back with 254 (forwarded once, by r1); r1's arrive
    // with 255 and leave again with 254 (forwarded once, by n1's kernel).
    for (const address of [N1, R1]) {
      const out = capture.count(address, 255);
      expect(out).toBeGreaterThanOrEqual(1000 / ECHO_MS / 2);
      expect(capture.count(address, 254)).toBeGreaterThanOrEqual(out - 2);
    }
    // While echoes run we ask for a sedate Control rate (RFC 5880 §6.8.3), and FRR sends at it; our own
    // Control packets keep the rate FRR asks for, since FRR may rely on them (RFC 5880 §6.4).
    expect(after).toMatchObject({ requiredMinRxMs: 1000, transmitIntervalMs: 100 });
    expect((await r1.bfdSessions())[0]).toMatchObject({ transmitMs: 1000 });
  });

  it('r1 not forwarding our echoes takes our session Down with diagnostic 2 within the echo detection time, while Control packets flow', async () => {
    await engine.reach('up');
    const undo = await dropForwardedEchoes(r1ns);
    const droppedAt = performance.now();
    try {
      const down = await engine.change('our session Down', droppedAt, (c) => c.previous === 'up');
      expect(down.diagnostic).toBe(Diagnostic.echoFunctionFailed);
      expect(down.atMs - droppedAt).toBeLessThanOrEqual(ECHO_DETECTION_MS + MARGIN_MS);
      // Our Control packets carried the diagnostic to FRR...
      await frrSession(
        r1,
        'hearing "echo function failed"',
        (s) => s.remoteDiagnostic === 'echo-function-failed',
      );
      // ...and FRR's keep coming: the session comes back Up over them, and the echoes fail it again.
      const up = await engine.change('our session Up again', down.atMs, (c) => c.state === 'up');
      const again = await engine.change('the echoes failing again', up.atMs, (c) => c.previous === 'up');
      expect(again.diagnostic).toBe(Diagnostic.echoFunctionFailed);
    } finally {
      await undo();
    }
    await engine.reach('up');
  });

  it("n1 not forwarding r1's echoes makes FRR report the Echo function failed, and tell us over Control packets", async () => {
    await engine.reach('up');
    await frrSession(r1, 'Up', (s) => s.state === 'up');
    const undo = await dropForwardedEchoes(n1ns);
    const droppedAt = performance.now();
    try {
      await frrSession(
        r1,
        'Down with "echo function failed"',
        (s) => s.diagnostic === 'echo-function-failed',
      );
      // FRR's Down reached us in a Control packet (diagnostic 3), not by our detection timer expiring.
      const down = await engine.change('our session Down', droppedAt, (c) => c.previous === 'up');
      expect(down.diagnostic).toBe(Diagnostic.neighborSignaledSessionDown);
    } finally {
      await undo();
    }
    await engine.reach('up');
  });
});
