/** Link impairments, observed as frame arrival times and counts at the far host. */
import { describe, expect, it } from 'vitest';
import { encodeEthernet } from '../../core/l2/wire/index.ts';
import type { Impairment } from './impairment.ts';
import { lan, record } from './test-support.ts';

/** Sends `n` frames of `size` bytes from h1 to h2 at once; returns their arrival times at h2. */
function blast(
  n: number,
  impair: { h1?: Partial<Impairment>; h2?: Partial<Impairment> },
  seed = 1,
  size = 60,
) {
  const { net, hosts } = lan(2, { seed });
  const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
  if (impair.h1) net.link('h1', 'eth0').impair(impair.h1);
  if (impair.h2) net.link('h2', 'eth0').impair(impair.h2);
  const events = record(net);
  const port = h1.rawPort('eth0');
  const to = h2.interface('eth0').mac;
  const frame = encodeEthernet({
    dst: to,
    src: port.mac,
    etherType: 0x88b5,
    payload: new Uint8Array(size - 14),
  });
  for (let i = 0; i < n; i++) port.send(frame);
  net.runSync(60_000);
  return events.flatMap((e) =>
    e.kind === 'frame' && e.action === 'delivered' && e.host === 'h2' ? [e.atMs] : [],
  );
}

describe('link impairments', () => {
  it('adds both ends’ delays', () => {
    expect(blast(3, { h1: { delayMs: 7 }, h2: { delayMs: 3 } })).toEqual([10, 10, 10]);
  });

  it('draws jitter uniformly within delay ± jitter', () => {
    const times = blast(2000, { h1: { delayMs: 10, jitterMs: 5 } });
    expect(times).toHaveLength(2000);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...times)).toBeLessThanOrEqual(15);
    expect(Math.min(...times)).toBeLessThan(5.1);
    expect(Math.max(...times)).toBeGreaterThan(14.9);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    expect(Math.abs(mean - 10)).toBeLessThan(0.2);
    // Both halves of the range are used about equally (uniform, not normal).
    const low = times.filter((t) => t < 7.5).length / times.length;
    expect(Math.abs(low - 0.25)).toBeLessThan(0.03);
  });

  it('loses frames at the configured rate, the same frames for the same seed', () => {
    const a = blast(10_000, { h1: { lossPct: 20 } }, 7);
    expect(Math.abs(a.length / 10_000 - 0.8)).toBeLessThan(0.015);
    expect(blast(10_000, { h1: { lossPct: 20 } }, 7)).toHaveLength(a.length);
    // Loss on both ends compounds: 0.8 × 0.9.
    const both = blast(10_000, { h1: { lossPct: 20 }, h2: { lossPct: 10 } }, 7);
    expect(Math.abs(both.length / 10_000 - 0.72)).toBeLessThan(0.015);
  });

  it('serialises at the configured rate: frames queue behind each other', () => {
    // 1000 bytes + 24 of preamble, FCS and gap at 1 Mbit/s: 8.192 ms each.
    const times = blast(5, { h1: { rateMbps: 1 } }, 1, 1000);
    expect(times.map((t) => Number(t.toFixed(3)))).toEqual([8.192, 16.384, 24.576, 32.768, 40.96]);
  });

  it('drops frames both ways while down, including those on the wire when it went down', () => {
    const { net, hosts } = lan(2);
    const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
    net.link('h2', 'eth0').impair({ delayMs: 5 });
    const events = record(net);
    const got: number[] = [];
    h2.udp('0.0.0.0', 9).onMessage(() => got.push(net.now()));
    h1.udp('0.0.0.0', 9).onMessage(() => got.push(-net.now()));
    const send = () => h1.udp('0.0.0.0', 0).send({ address: '198.18.0.12', port: 9 }, new Uint8Array(1));
    send();
    net.runSync(100);
    // The request reaches h2 at 5 ms, the reply h1 at 10, the datagram h2 at 15.
    expect(got).toEqual([15]);
    send();
    net.runSync(2);
    net.link('h2', 'eth0').down();
    net.runSync(100);
    send();
    net.runSync(100);
    h2.udp('0.0.0.0', 0).send({ address: '198.18.0.11', port: 9 }, new Uint8Array(1));
    net.runSync(100);
    expect(got).toEqual([15]);
    expect(events.some((e) => e.kind === 'frame' && e.action === 'dropped' && e.reason === 'link-down')).toBe(
      true,
    );
    net.link('h2', 'eth0').up();
    send();
    net.runSync(100);
    expect(got).toHaveLength(2);
  });

  it('refuses impairments that make no sense', () => {
    const { net } = lan(1);
    const link = net.link('h1', 'eth0');
    expect(() => link.impair({ lossPct: 101 })).toThrow(/lossPct/);
    expect(() => link.impair({ delayMs: -1 })).toThrow(/delayMs/);
    expect(() => link.impair({ rateMbps: 0 })).toThrow(/rateMbps/);
  });
});
