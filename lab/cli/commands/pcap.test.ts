import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETHERTYPE_ARP, arpRequest, encodeArp, encodeFrame } from '../../../core/l2/wire/index.ts';
import { IpAddress } from '../../../core/net/index.ts';
import { PcapngWriter, pcapFile } from '../../capture/capture-files.test-support.ts';
import { LINKTYPE_LINUX_SLL2 } from '../../capture/link-layer.ts';
import { MAC_A, bgpOpen, sll2, tcp4Frame } from '../../capture/packets.test-support.ts';
import { TRAFFIC, trafficPcap, trafficPcapng } from '../../capture/traffic.test-support.ts';
import { runLblab, startLblab } from '../run-lblab.test-support.ts';
import { decodeCaptureFile, followCaptureFile } from './pcap.ts';

const request = arpRequest({
  targetIp: IpAddress.parse('198.18.100.1'),
  senderIp: IpAddress.parse('198.18.0.1'),
  senderMac: MAC_A,
});
const SECONDS = Date.UTC(2026, 10, 21, 4, 12, 33) / 1000;
const open = tcp4Frame('198.18.0.11', '198.18.0.10', {
  srcPort: 40000,
  dstPort: 179,
  seq: 1,
  flags: 'PA',
  payload: bgpOpen({ as: 64513, id: '198.18.0.11' }),
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-pcap-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

async function decode(path: string, json = false) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await decodeCaptureFile(
    path,
    { json },
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
  );
  return { code, stdout, stderr };
}

const twoPackets = pcapFile(
  [
    { seconds: SECONDS, fraction: 123456789, data: encodeFrame(request) },
    { seconds: SECONDS + 1, fraction: 5, data: open },
  ],
  { nano: true },
);

describe('lblab pcap decode', () => {
  it('prints one line per event with the capture’s own time precision', async () => {
    const r = await decode(await file('two.pcap', twoPackets));
    expect(r).toEqual({
      code: 0,
      stdout: [
        '2026-11-21T04:12:33.123456789Z  ARP request who-has 198.18.100.1 tell 198.18.0.1 (02:00:00:00:00:0a)',
        '2026-11-21T04:12:34.000000005Z  BGP OPEN 198.18.0.11:40000 → 198.18.0.10:179 as 64513 id 198.18.0.11 hold 90s caps ipv4-unicast,4-octet-as',
      ],
      stderr: [
        'lblab pcap decode: note: 1 BGP stream direction(s) joined after their start (no SYN seen); 0 bytes before the first whole message were skipped',
      ],
    });
  });

  it('prints JSON Lines with exact timestamps as strings', async () => {
    const r = await decode(await file('two-json.pcap', twoPackets), true);
    expect(r.code).toBe(0);
    const events = r.stdout.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      events.map((e) => [e['frame'], e['timeNs'], e['time'], e['protocol'], e['src'], e['dst']]),
    ).toEqual([
      [1, `${SECONDS}123456789`, '2026-11-21T04:12:33.123456789Z', 'arp', '198.18.0.1', '198.18.100.1'],
      [
        2,
        `${SECONDS + 1}000000005`,
        '2026-11-21T04:12:34.000000005Z',
        'bgp',
        '198.18.0.11:40000',
        '198.18.0.10:179',
      ],
    ]);
    expect(events[0]!['details']).toEqual({
      kind: 'arp',
      arp: {
        op: 'request',
        senderMac: '02:00:00:00:00:0a',
        senderIp: '198.18.0.1',
        targetMac: '00:00:00:00:00:00',
        targetIp: '198.18.100.1',
      },
    });
    expect(events[1]!['details']).toMatchObject({
      kind: 'bgp-message',
      message: {
        type: 'open',
        myAs: 64513,
        bgpId: '198.18.0.11',
        capabilities: [
          { code: 'multiprotocol', afi: 1, safi: 1 },
          { code: 'four-octet-as', asn: 64513 },
        ],
      },
    });
  });

  it('names the interface when the capture has more than one', async () => {
    const ng = new PcapngWriter()
      .section()
      .interface({ name: 'veth0', tsresol: 9 })
      .interface({ name: 'any', linkType: LINKTYPE_LINUX_SLL2 })
      .packet(0, BigInt(SECONDS) * 1_000_000_000n, encodeFrame(request))
      .packet(1, BigInt(SECONDS) * 1_000_000n + 1n, sll2(ETHERTYPE_ARP, encodeArp(request.arp)))
      .done();
    const r = await decode(await file('two-if.pcapng', ng));
    expect(r.stdout.map((l) => l.split('  ').slice(0, 2))).toEqual([
      ['2026-11-21T04:12:33.000000000Z', 'veth0'],
      ['2026-11-21T04:12:33.000001Z', 'any'],
    ]);
  });

  it('exits 2 naming the file and the byte offset of a truncated capture, after the events before it', async () => {
    const path = await file('cut.pcap', twoPackets.subarray(0, twoPackets.length - 20));
    const r = await decode(path);
    expect(r.code).toBe(2);
    expect(r.stdout).toHaveLength(1);
    const second = 24 + 16 + encodeFrame(request).length;
    expect(r.stderr).toEqual([
      `lblab pcap decode: ${path}: corrupt capture at byte ${second + 16}: packet record 2 (${open.length} bytes) needs ${open.length} bytes, the file has ${open.length - 20} left (truncated?)`,
    ]);
  });

  it('exits 2 for a file that is missing or is not a capture', async () => {
    const missing = join(dir, 'nope.pcap');
    expect(await decode(missing)).toEqual({
      code: 2,
      stdout: [],
      stderr: [`lblab pcap decode: ${missing}: cannot read the capture: no such file`],
    });
    const text = await decode(await file('text.pcap', new TextEncoder().encode('not a capture')));
    expect(text.code).toBe(2);
    expect(text.stderr[0]).toContain('text.pcap: corrupt capture at byte 0: neither pcap nor pcapng');
  });

  it('is registered with the lblab command', async () => {
    const path = await file('cli.pcap', twoPackets);
    const ok = await runLblab('pcap', 'decode', path, '--json');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n')).toHaveLength(2);
    const missing = await runLblab('pcap', 'decode', join(dir, 'missing.pcapng'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.pcapng: cannot read the capture: no such file');
    const help = await runLblab('pcap', 'decode', '--help');
    expect(help.stdout).toContain('--json prints JSON Lines');
    // Each run starts node and tsx (seconds on a loaded runner).
  }, 30_000);
});

/** The byte offsets in trafficPcap() where each record ends. */
function recordEnds(): number[] {
  let at = 24;
  return TRAFFIC.map((frame) => (at += 16 + frame.length));
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = performance.now() + 20_000; !done(); await sleep(5)) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('lblab pcap decode --follow', () => {
  it('prints each event while the capture is still being written, then stops after the timeout', async () => {
    const path = join(dir, 'growing.pcap');
    const file = trafficPcap();
    const stdout: string[] = [];
    const stderr: string[] = [];
    const out = { stdout: (l: string) => stdout.push(l), stderr: (l: string) => stderr.push(l) };
    const follow = followCaptureFile(path, { json: true, idleMs: 500, pollMs: 10 }, out);
    // The file appears after the follower started, with the file header only.
    await sleep(30);
    await writeFile(path, file.subarray(0, 24));
    const ends = recordEnds();
    // The ARP request: split in two writes, printed only once whole, before the writer goes on.
    await appendFile(path, file.subarray(24, ends[0]! - 10));
    await sleep(100);
    expect(stdout).toEqual([]);
    await appendFile(path, file.subarray(ends[0]! - 10, ends[0]));
    await until(() => stdout.length === 1, 'the ARP event');
    // The SYN, then the OPEN in two segments: one event each for the SYN and the second segment.
    await appendFile(path, file.subarray(ends[0], ends[1]));
    await until(() => stdout.length === 2, 'the BGP connect');
    await appendFile(path, file.subarray(ends[1], ends[3]));
    await until(() => stdout.length === 3, 'the BGP OPEN');
    await appendFile(path, file.subarray(ends[3]));
    const lastWrite = performance.now();
    expect(await follow).toBe(0);
    expect(performance.now() - lastWrite).toBeGreaterThanOrEqual(450);
    const events = stdout.map((l) => JSON.parse(l) as { frame: number; summary: string });
    expect(events.map((e) => e.frame)).toEqual([1, 2, 4, 7, 8, 5]);
    expect(events[2]!.summary).toMatch(/^BGP OPEN 198\.18\.0\.11:40000 → 198\.18\.0\.10:179 as 64513/);
    // The stream gap is known only once the file is complete.
    expect(events[5]!.summary).toMatch(/^BGP stream .* the capture misses bytes/);
    expect(stderr).toEqual([
      'lblab pcap decode: note: 1 packet: IP fragments are not reassembled (first: frame 6)',
    ]);
  });

  it('exits 2 naming the file and byte when the capture stays cut inside a record until the timeout', async () => {
    const path = await file('follow-cut.pcap', trafficPcap().subarray(0, recordEnds()[0]! + 20));
    const r = { stdout: [] as string[], stderr: [] as string[] };
    const out = { stdout: (l: string) => r.stdout.push(l), stderr: (l: string) => r.stderr.push(l) };
    expect(await followCaptureFile(path, { json: false, idleMs: 100, pollMs: 10 }, out)).toBe(2);
    expect(r.stdout).toHaveLength(1);
    expect(r.stderr).toEqual([
      `lblab pcap decode: ${path}: corrupt capture at byte ${recordEnds()[0]! + 16}: packet record 2 (${TRAFFIC[1]!.length} bytes) needs ${TRAFFIC[1]!.length} bytes, the file has 4 left (truncated?)`,
    ]);
  });

  it('refuses to follow pcapng', async () => {
    const path = await file('follow.pcapng', trafficPcapng());
    const stderr: string[] = [];
    const out = { stdout: () => expect.fail('no events'), stderr: (l: string) => stderr.push(l) };
    expect(await followCaptureFile(path, { json: false, idleMs: 100, pollMs: 10 }, out)).toBe(2);
    expect(stderr).toEqual([
      `lblab pcap decode: ${path}: pcapng is only read whole; --follow reads classic pcap (tcpdump -w, or dumpcap -P); decode this file without --follow once it is complete`,
    ]);
  });

  it('stops on SIGINT with exit 0 after printing what was written, noting a record cut by the stop', async () => {
    const path = join(dir, 'interrupted.pcap');
    const cut = recordEnds()[0]! + 20;
    await writeFile(path, trafficPcap().subarray(0, cut));
    const child = startLblab('pcap', 'decode', '--follow', path);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(() => child.output().includes('ARP request'), 'the first event');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(child.output().split('\n')).toEqual([
      '2026-11-21T04:12:33.000000Z  ARP request who-has 198.18.0.10 tell 198.18.0.11 (02:00:00:00:00:0a)',
      `lblab pcap decode: note: stopped inside an unfinished record at byte ${cut - 4}: packet record 2 (${TRAFFIC[1]!.length} bytes) needs ${TRAFFIC[1]!.length} bytes, the file has 4 left (truncated?)`,
      '',
    ]);
  }, 30_000);
});
