/** The echo server and the prober in virtual time, against a scripted outage. */
import { describe, expect, it } from 'vitest';
import { lan, v4, v6 } from './test-support.ts';

describe('probes', () => {
  it.each([v4(12), v6(12)])('probes %s at a fixed rate and sees every reply', async (target) => {
    const { net, hosts } = lan(2);
    hosts[1]!.echoServer(7777, 'h2');
    const summary = await net.settle(
      hosts[0]!.prober({ target, port: 7777, ratePps: 100, count: 1000, durationMs: 1000 }),
      5000,
    );
    expect(summary).toEqual({
      sent: 100,
      received: 100,
      lost: 0,
      outageMs: 10,
      gaps: [],
      servers: [{ server: 'h2', replies: 100 }],
      runs: [{ server: 'h2', firstSeq: 0, lastSeq: 99 }],
    });
    expect(net.now()).toBe(990 + 200);
  });

  it('measures a scripted outage exactly: the link is down from 305 to 805 ms', async () => {
    const { net, hosts } = lan(2);
    const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
    h2.echoServer(7777, 'h2');
    const probe = h1.prober({ target: v4(12), port: 7777, ratePps: 100, count: 100, durationMs: 10_000 });
    await net.run(305);
    h2.linkDown('eth0');
    await net.run(500);
    h2.linkUp('eth0');
    const summary = await net.settle(probe, 5000);
    // Probes 31..80 (sent at 310..800 ms) are lost; the replies at 300 and 810 ms bound the gap.
    expect(summary).toMatchObject({ sent: 100, received: 50, lost: 50, outageMs: 510 });
    expect(summary.gaps).toEqual([
      {
        gapMs: 510,
        lastSeqBefore: 30,
        firstSeqAfter: 81,
        sentApartMs: 510,
        serverBefore: 'h2',
        serverAfter: 'h2',
      },
    ]);
    // The lost probes split the served-by runs exactly where the link was down.
    expect(summary.runs).toEqual([
      { server: 'h2', firstSeq: 0, lastSeq: 30 },
      { server: 'h2', firstSeq: 81, lastSeq: 99 },
    ]);
  });

  it('is bounded by count and by duration', async () => {
    const { net, hosts } = lan(2);
    hosts[1]!.echoServer(7777, 'h2');
    const byCount = hosts[0]!.prober({
      target: v4(12),
      port: 7777,
      ratePps: 1000,
      count: 7,
      durationMs: 60_000,
    });
    expect((await net.settle(byCount, 1000)).sent).toBe(7);
    const byTime = hosts[0]!.prober({
      target: v4(12),
      port: 7777,
      ratePps: 1000,
      count: 1e9,
      durationMs: 50,
    });
    expect((await net.settle(byTime, 1000)).sent).toBe(50);
    expect(() =>
      hosts[0]!.prober({ target: v4(12), port: 7777, ratePps: 0, count: 1, durationMs: 1 }),
    ).toThrow(/ratePps/);
  });

  it('an echo server in a process stops answering while the process is frozen and catches up on resume', async () => {
    const { net, hosts } = lan(2);
    const p = hosts[1]!.process('echo');
    const server = p.echoServer(7777, 'h2');
    const probe = hosts[0]!.prober({
      target: v4(12),
      port: 7777,
      ratePps: 100,
      count: 100,
      durationMs: 1000,
    });
    await net.run(200);
    p.freeze();
    await net.run(300);
    p.resume();
    const summary = await net.settle(probe, 5000);
    // Nothing is lost (the socket buffer held them), but no reply came between 200 and 500 ms.
    expect(summary).toMatchObject({ sent: 100, received: 100, lost: 0, outageMs: 300 });
    expect(server.served).toBe(100);
  });
});
