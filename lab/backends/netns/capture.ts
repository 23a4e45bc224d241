/**
 * Packet captures of a netns lab: tcpdump on chosen host interfaces for the lab's whole life, decoded with
 * lab/capture when the lab goes down so that ARP/NDP (and BGP/BFD) traffic joins the run's timeline.
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { IpAddress } from '../../../core/net/index.ts';
import type { TopologyNode } from '../../model/topology.ts';
import type { UpOptions } from '../../runner/backend.ts';
import { CaptureDecoder, CaptureFormatError, readCaptureFile } from '../../capture/index.ts';
import { checkInterfaceName } from './names.ts';
import type { Netns } from './namespace.ts';
import { wireTimelineEvents, type CapturePoint, type ClockAnchor, type HostOf } from './wire-timeline.ts';

/**
 * Only what lab/capture decodes (ARP, NDP in ICMPv6, BGP, single- and multi-hop BFD): the probes run at up
 * to 1000 pps and would fill the packet limit long before a run ends.
 */
const captureFilter = 'arp or icmp6 or tcp port 179 or udp port 3784 or udp port 4784';
/** Bounds each file (at most ~30 MB of full-size frames); tcpdump stops by itself once it is reached. */
const maxPackets = 20_000;
/** How long tcpdump may take to flush and exit after SIGTERM before it is killed. */
const stopTimeoutMs = 5_000;
const startTimeoutMs = 10_000;

export interface CaptureTarget extends CapturePoint {
  readonly ns: Netns;
}

interface Running {
  readonly at: CapturePoint;
  readonly file: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  stderr: string;
}

export class LabCaptures {
  private constructor(
    private readonly running: readonly Running[],
    private readonly anchor: ClockAnchor,
  ) {}

  /**
   * Starts tcpdump on every target, writing `<host>-<iface>.pcap` into `dir`, and returns once all of
   * them listen (a packet sent after this is captured). `now` is the lab's clock.
   */
  static async start(
    targets: readonly CaptureTarget[],
    dir: string,
    now: () => number,
  ): Promise<LabCaptures> {
    await mkdir(dir, { recursive: true });
    const running: Running[] = [];
    try {
      for (const t of targets) running.push(await startOne(t, dir));
    } catch (err) {
      await Promise.all(running.map(stopOne));
      throw err;
    }
    return new LabCaptures(running, { wallMs: Date.now(), labMs: now() });
  }

  /**
   * Stops every capture (tcpdump flushes its file), decodes the files and puts their events on the
   * timeline where they happened, plus one "capture" event per file naming it (relative to the report when
   * it is kept in `artifactsDir`) with what tcpdump or the decoder had to say. A file that turns out corrupt
   * still gives the events before the damage.
   */
  async finish(hostOf: HostOf, o: Pick<UpOptions, 'timeline' | 'artifactsDir'>): Promise<void> {
    await Promise.all(this.running.map(stopOne));
    for (const r of this.running) {
      const notes = tcpdumpNotes(r.stderr);
      let placed = 0;
      try {
        const decoder = new CaptureDecoder(await readCaptureFile(r.file), r.file);
        const decoded = [];
        try {
          for (const e of decoder.events()) decoded.push(e);
        } catch (err) {
          if (!(err instanceof CaptureFormatError)) throw err;
          notes.push(err.message);
        }
        const events = wireTimelineEvents(decoded, r.at, this.anchor, hostOf);
        for (const e of events) o.timeline(e);
        placed = events.length;
        notes.push(...decoder.notes());
      } catch (err) {
        notes.push(`not decoded: ${(err as Error).message}`);
      }
      // The artifacts directory sits next to report.md, so "<its name>/<file>" is the path from the report.
      const kept =
        o.artifactsDir === undefined ? 'not kept' : join(basename(o.artifactsDir), basename(r.file));
      o.timeline({
        source: r.at.host,
        kind: 'capture',
        message: [`${r.at.iface} captured to ${kept}, ${placed} events on this timeline`, ...notes].join(
          '; ',
        ),
      });
    }
  }
}

/** Every interface of every client and router the lab built (routers once the backend runs them). */
export function captureTargets(
  nodes: readonly TopologyNode[],
  hosts: ReadonlyMap<string, Netns>,
): CaptureTarget[] {
  return nodes.flatMap((n) => {
    const ns = hosts.get(n.name);
    if (!ns || (n.kind !== 'client' && n.kind !== 'router')) return [];
    return n.attachments.map((a) => ({ host: n.name, iface: a.interface, ns }));
  });
}

/** Which host a MAC (from the lab's `ip link`) or one of the topology's interface addresses belongs to. */
export function hostLookup(nodes: readonly TopologyNode[], macs: ReadonlyMap<string, string>): HostOf {
  const addresses = new Map<string, string>();
  for (const n of nodes)
    for (const a of n.attachments)
      for (const cidr of [a.ipv4, a.ipv6])
        addresses.set(IpAddress.parse(cidr.split('/')[0]!).toString(), n.name);
  return (key) => macs.get(key.toLowerCase()) ?? addresses.get(key);
}

/**
 * tcpdump writes the capture to its stdout, and this process writes it to the file: the host may be a
 * container that cannot see `dir` (the docker backend), and the file is the runner's either way.
 */
function startOne(t: CaptureTarget, dir: string): Promise<Running> {
  const file = join(dir, `${t.host}-${t.iface}.pcap`);
  const child = t.ns.spawn([
    'tcpdump',
    ...['-i', checkInterfaceName(t.iface)],
    // Packets reach tcpdump as they arrive (not in kernel batches) and each is written at once (-U), so a
    // stop loses nothing.
    ...['--immediate-mode', '-U', '-n'],
    ...['-c', String(maxPackets), '-w', '-'],
    captureFilter,
  ]);
  const sink = createWriteStream(file);
  const written = new Promise<void>((resolve) => sink.once('close', () => resolve()));
  child.stdout!.pipe(sink);
  const r: Running = {
    at: { host: t.host, iface: t.iface },
    file,
    child,
    // Done once tcpdump is gone and everything it wrote is in the file.
    exited: Promise.all([new Promise((resolve) => child.once('exit', resolve)), written]).then(
      () => undefined,
    ),
    stderr: '',
  };
  return new Promise((resolve, reject) => {
    const what = `tcpdump on ${t.host} ${t.iface}`;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start listening within ${startTimeoutMs / 1000} s: ${r.stderr}`));
    }, startTimeoutMs);
    child.stderr!.on('data', (d: Buffer) => {
      r.stderr += d.toString();
      if (!r.stderr.includes('listening on')) return;
      clearTimeout(timer);
      resolve(r);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}): ${r.stderr.trim()}`));
    });
  });
}

/** SIGTERM lets tcpdump close its file and print its counters; SIGKILL if it does not go. */
async function stopOne(r: Running): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return;
  r.child.kill('SIGTERM');
  const timer = setTimeout(() => r.child.kill('SIGKILL'), stopTimeoutMs);
  await r.exited;
  clearTimeout(timer);
}

/** What tcpdump reported that a reader should know: packets the kernel dropped, the packet limit hit. */
function tcpdumpNotes(stderr: string): string[] {
  const notes: string[] = [];
  const captured = /(\d+) packets? captured/.exec(stderr)?.[1];
  const dropped = /(\d+) packets? dropped by kernel/.exec(stderr)?.[1];
  if (dropped !== undefined && dropped !== '0')
    notes.push(`tcpdump: ${dropped} packets dropped by the kernel`);
  if (captured !== undefined && Number(captured) >= maxPackets)
    notes.push(`tcpdump stopped at its limit of ${maxPackets} packets; later traffic is not in the file`);
  return notes;
}
