/**
 * The BGP codec's throughput: 100,000 /32 service routes (and as many /128s) turned into UPDATEs the way
 * a session sends them (grouped, packed to 4096 octets), then decoded again. Rates are prefixes per
 * second of wall-clock time. The comparison with real daemons is ci/bench/bgp-frr.ts.
 */
import { performance } from 'node:perf_hooks';
import { decodeMessage, encodeMessage } from '../../core/bgp/codec.ts';
import type { Route } from '../../core/bgp/rib/route.ts';
import { updatesFor } from '../../core/bgp/rib/updates.ts';
import { IpAddress, Prefix } from '../../core/net/index.ts';
import { phase, result, type BenchResult } from './types.ts';

const COUNT = 100_000;

function routes(family: 4 | 6): Route[] {
  const base = IpAddress.parse(family === 4 ? '198.18.0.0' : '2001:db8:100::');
  const attributes = { communities: [64512 * 65536 + 100], largeCommunities: [] };
  return Array.from({ length: COUNT }, (_, i) => ({
    prefix: Prefix.of(base.add(BigInt(i)), family === 4 ? 32 : 128),
    attributes,
  }));
}

function run(family: 4 | 6): BenchResult {
  const ctx = {
    fourOctetAs: true,
    localAs: 64513,
    ibgp: false,
    nextHopV4: IpAddress.parse('198.18.0.11'),
    nextHopV6: IpAddress.parse('2001:db8::11'),
  };
  const all = routes(family);
  const t0 = performance.now();
  const wire = updatesFor({ announce: [{ routes: all }], withdraw: [] }, ctx).map((u) =>
    encodeMessage(u, ctx),
  );
  const t1 = performance.now();
  let decoded = 0;
  for (const bytes of wire) {
    const m = decodeMessage(bytes, ctx);
    if (m.type === 'update') decoded += m.nlri.length + (m.attributes.mpReach?.nlri.length ?? 0);
  }
  const t2 = performance.now();
  if (decoded !== COUNT) throw new Error(`decoded ${decoded} prefixes of ${COUNT}`);
  process.stderr.write(`bgp codec IPv${family}: ${COUNT} prefixes in ${wire.length} UPDATEs\n`);
  return result(`${COUNT} /${family === 4 ? 32 : 128} (prefixes/s)`, [
    phase('encode', COUNT, t1 - t0),
    phase('decode', COUNT, t2 - t1),
  ]);
}

export async function benchBgpCodec(): Promise<BenchResult[]> {
  return [run(4), run(6)];
}
