import { describe, expect, it } from 'vitest';
import { BfdEngine, type BfdPeerStateChange } from '../../../core/bfd/engine/index.ts';
import { peer } from '../../../core/bfd/engine/pair.test-support.ts';
import { Random } from '../../../core/runtime/random.ts';
import { Network } from '../../sim/index.ts';
import { simBfdNetwork } from './sim-bfd-network.ts';

function pair() {
  const net = new Network({ seed: 3 });
  const engines = (['a', 'b'] as const).map((name, i) => {
    const host = net.host(name);
    host.attach('eth0', 'lan', { ipv4: `198.18.0.${i + 1}/24`, ipv6: `2001:db8::${i + 1}/64` });
    const process = host.process('bfd');
    const engine = new BfdEngine({
      clock: process.clock,
      random: new Random(i + 1),
      network: simBfdNetwork(process),
    });
    const changes: BfdPeerStateChange[] = [];
    engine.onStateChange((c) => changes.push(c));
    return { process, engine, changes };
  });
  return { net, a: engines[0]!, b: engines[1]! };
}

describe('BFD over the emulated network', () => {
  it('brings single-hop sessions up over UDP, IPv4 and IPv6', async () => {
    const { net, a, b } = pair();
    await Promise.all([
      a.engine.add(peer('198.18.0.1', '198.18.0.2')),
      b.engine.add(peer('198.18.0.2', '198.18.0.1')),
      a.engine.add(peer('2001:db8::1', '2001:db8::2')),
      b.engine.add(peer('2001:db8::2', '2001:db8::1')),
    ]);
    await net.run(1000);
    expect(a.engine.sessions().map((s) => s.state)).toEqual(['up', 'up']);
    expect(b.engine.sessions().map((s) => s.state)).toEqual(['up', 'up']);
  });

  it('declares a frozen peer down after the detection time (3 × 100 ms)', async () => {
    const { net, a, b } = pair();
    await Promise.all([
      a.engine.add(peer('198.18.0.1', '198.18.0.2')),
      b.engine.add(peer('198.18.0.2', '198.18.0.1')),
    ]);
    await net.run(1000);
    const frozenAt = net.now();
    b.process.freeze();
    await net.run(1000);
    const down = a.changes.find((c) => c.state === 'down' && c.previous === 'up');
    expect(down).toBeDefined();
    // The last packet from b left up to one interval (less jitter) before the freeze.
    expect(down!.atMs - frozenAt).toBeGreaterThan(200);
    expect(down!.atMs - frozenAt).toBeLessThanOrEqual(300);
  });
});
