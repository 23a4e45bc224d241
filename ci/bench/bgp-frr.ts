/**
 * How long FRR takes to hold 100,000 /32 routes advertised by our BGP session, beside BIRD advertising
 * the same set to FRR in the same run (a fresh FRR for each, so neither finds the table filled): from the
 * session's Established (as FRR sees it) to FRR counting every prefix received from that neighbor. Needs root and the Debian daemons (as the netns
 * tests do). The ratio lblab/BIRD goes to stderr; each run is one row per speaker.
 */
import { performance } from 'node:perf_hooks';
import { IpAddress } from '../../core/net/index.ts';
import { NetnsLab, type Netns } from '../../lab/backends/netns/index.ts';
import { netnsPrerequisites } from '../../lab/backends/netns/prerequisites.ts';
import { startBird } from '../../lab/sut/bird.ts';
import { startFrr, type FrrRouter } from '../../lab/sut/frr.ts';
import { phase, result, type BenchResult } from './types.ts';

const COUNT = Number(process.env['BGP_BENCH_COUNT'] ?? 100_000);
const LIMIT_MS = Number(process.env['LIMIT_MS'] ?? 120_000);

/** Polls FRR until the neighbor is established, then until it holds every prefix; returns the ms between. */
async function timeToFull(frr: FrrRouter, neighbor: string): Promise<number> {
  const deadline = performance.now() + LIMIT_MS;
  let upAt: number | undefined;
  for (;;) {
    const n = (await frr.neighbors()).find((x) => x.address === neighbor);
    const now = performance.now();
    if (n?.state === 'established' && upAt === undefined) upAt = now;
    if (upAt !== undefined && (n?.receivedPrefixes ?? 0) >= COUNT) return now - upAt;
    if (now > deadline)
      throw new Error(
        `FRR held ${n?.receivedPrefixes ?? 0} of ${COUNT} prefixes from ${neighbor} after ${LIMIT_MS} ms`,
      );
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function host(
  lab: NetnsLab,
  name: string,
  address: string,
  seg: Awaited<ReturnType<NetnsLab['segment']>>,
): Promise<Netns> {
  const ns = await lab.host(name);
  await lab.attach(ns, 'eth0', seg);
  await ns.addAddress('eth0', `${address}/24`);
  return ns;
}

/** A fresh FRR for each measurement, so neither speaker finds the table (and the FIB) filled by the other. */
function frrFor(r1: Netns, neighbor: string): Promise<FrrRouter> {
  return startFrr({
    name: 'r1',
    ns: r1,
    asn: 64512,
    routerId: '198.18.0.1',
    neighbors: [{ address: neighbor, asn: 64513, holdTimeSec: 90, keepaliveSec: 30, connectRetrySec: 1 }],
  });
}

async function measureLblab(r1: Netns, node: Netns): Promise<number> {
  const frr = await frrFor(r1, '198.18.0.11');
  const peer = node.spawn(['node', '--import', 'tsx', 'ci/bench/bgp-peer-main.ts'], {
    env: { ...process.env, PEER: '198.18.0.1', LOCAL: '198.18.0.11', COUNT: String(COUNT), LIMIT_SEC: '150' },
  });
  const said: string[] = [];
  peer.stdout?.on('data', (d: Buffer) => said.push(d.toString()));
  peer.stderr?.on('data', (d: Buffer) => said.push(d.toString()));
  try {
    return await timeToFull(frr, '198.18.0.11').catch((err: Error) => {
      throw new Error(`${err.message}; our peer said: ${said.join('').slice(-2000)}`);
    });
  } finally {
    peer.kill('SIGKILL');
    await frr.stop();
  }
}

async function measureBird(r1: Netns, node: Netns): Promise<number> {
  const frr = await frrFor(r1, '198.18.0.12');
  // The same prefixes as bgp-peer-main.ts: 198.18.128.0 onwards (still inside 198.18.0.0/15).
  const base = IpAddress.parse('198.18.128.0');
  const originate = Array.from({ length: COUNT }, (_, i) => ({
    prefix: `${base.add(BigInt(i)).toString()}/32`,
  }));
  const bird = await startBird(
    {
      name: 'n2',
      ns: node,
      asn: 64513,
      routerId: '198.18.0.12',
      neighbors: [{ address: '198.18.0.1', asn: 64512, holdTimeSec: 90, keepaliveSec: 30 }],
      originate,
    },
    { startTimeoutMs: 60_000 },
  );
  try {
    return await timeToFull(frr, '198.18.0.12');
  } finally {
    await bird.stop();
    await frr.stop();
  }
}

export async function benchBgpFrr(): Promise<BenchResult[]> {
  const missing = await netnsPrerequisites(['/usr/lib/frr/bgpd', 'bird']);
  if (missing.length > 0)
    throw new Error(`bgp-frr needs root, namespaces and the daemons: missing ${missing.join('; ')}`);
  const lab = await NetnsLab.create();
  try {
    const seg = await lab.segment('lan');
    const r1 = await host(lab, 'r1', '198.18.0.1', seg);
    const lblabMs = await measureLblab(r1, await host(lab, 'n1', '198.18.0.11', seg));
    const birdMs = await measureBird(r1, await host(lab, 'n2', '198.18.0.12', seg));
    process.stderr.write(
      `FRR holds ${COUNT} /32s: from lblab in ${Math.round(lblabMs)} ms, from BIRD in ${Math.round(birdMs)} ms, ratio lblab/BIRD ${(lblabMs / birdMs).toFixed(2)}\n`,
    );
    return [
      result(`FRR receives ${COUNT} /32s from lblab (prefixes/s)`, [
        phase('established→held', COUNT, lblabMs),
      ]),
      result(`FRR receives ${COUNT} /32s from BIRD (prefixes/s)`, [phase('established→held', COUNT, birdMs)]),
    ];
  } finally {
    await lab.destroy();
  }
}
