/**
 * The fault helpers on the real kernel: silence() freezes and cuts off a namespace (and nothing else),
 * the CPU hog burns one core until its own deadline, and the FIB watcher times route removals, those
 * that go through nexthop objects (as FRR installs them) included.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sh } from './command.ts';
import { startCpuHog, stopAllCpuHogs } from './cpu-hog.ts';
import { lossSince, watchFibRoute } from './fib-watch.ts';
import { NetnsLab } from './lab.ts';
import type { Netns } from './namespace.ts';
import { silence, unsilence, unsilenceAll } from './silence.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['ping', 'arping', 'nft', 'taskset']);

/** The scheduler state letter of a process (R, S, T for stopped, ...). */
async function procState(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
}

/** User plus system CPU time of a process, in seconds. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process in `ns`, returned once `ip netns exec` has exec'd into it (and so entered the namespace). */
async function started(ns: Netns, argv: string[]) {
  const child = ns.spawn(argv);
  for (let i = 0; i < 400; i++) {
    const comm = await readFile(`/proc/${child.pid}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === argv[0]) return child;
    await sleep(5);
  }
  throw new Error(`${argv[0]} did not start`);
}

const reaches = (from: Netns, argv: string[]) =>
  from.exec(argv, { timeoutMs: 5000 }).then(
    () => true,
    () => false,
  );

describe.skipIf(mode === 'skip')('fault helpers on the real kernel', () => {
  let lab: NetnsLab;
  let a: Netns;
  let b: Netns;

  beforeAll(async () => {
    lab = await NetnsLab.create();
    const seg = await lab.segment('lan');
    a = await lab.host('a');
    b = await lab.host('b');
    for (const [ns, i] of [
      [a, 1],
      [b, 2],
    ] as const) {
      await lab.attach(ns, 'eth0', seg);
      await ns.addAddress('eth0', `198.18.0.${i}/24`);
      await ns.addAddress('eth0', `2001:db8::${i}/64`);
    }
  });
  afterEach(async () => {
    await unsilenceAll();
    await stopAllCpuHogs();
  });
  afterAll(async () => {
    await lab?.destroy();
  });

  describe('silence', () => {
    it('freezes the processes and drops IPv4, IPv6 and ARP both ways; unsilence restores both', async () => {
      const proc = await started(b, ['sleep', '300']);
      const ping4 = ['ping', '-c', '1', '-W', '1', '198.18.0.2'];
      const ping6 = ['ping', '-6', '-c', '1', '-W', '1', '2001:db8::2'];
      expect(await reaches(a, ping4)).toBe(true);
      expect(await reaches(a, ping6)).toBe(true);

      const s = await silence(b, [proc.pid!]);
      expect(await procState(proc.pid!)).toBe('T');
      expect(s.filterMs).toBeLessThan(1000);
      expect(await reaches(a, ping4)).toBe(false);
      expect(await reaches(a, ping6)).toBe(false);
      expect(await reaches(b, ['ping', '-c', '1', '-W', '1', '198.18.0.1'])).toBe(false);
      // ARP too: with a's cache entry gone, b no longer answers who-has.
      await a.ip('neigh', 'flush', 'dev', 'eth0');
      expect(await reaches(a, ['arping', '-c', '1', '-w', '1', '-I', 'eth0', '198.18.0.2'])).toBe(false);

      await unsilence(s);
      expect(await procState(proc.pid!)).not.toBe('T');
      expect(await reaches(a, ping4)).toBe(true);
      expect(await reaches(a, ping6)).toBe(true);
      expect(await reaches(a, ['arping', '-c', '1', '-w', '1', '-I', 'eth0', '198.18.0.2'])).toBe(true);
      // Nothing of the ruleset is left behind.
      expect(await b.exec(['nft', 'list', 'ruleset'])).toBe('');
      proc.kill('SIGKILL');
    });

    it('touches only the namespace it is given, and refuses a process that runs elsewhere', async () => {
      const hostRules = await sh(['nft', 'list', 'ruleset']);
      const s = await silence(b, []);
      expect(await a.exec(['nft', 'list', 'ruleset'])).toBe('');
      expect(await sh(['nft', 'list', 'ruleset'])).toBe(hostRules);
      await unsilence(s);
      // The test runner itself lives in the host's namespace.
      await expect(silence(b, [process.pid])).rejects.toThrow(/not running in/);
      const inA = await started(a, ['sleep', '300']);
      await expect(silence(b, [inA.pid!])).rejects.toThrow(/not running in/);
      expect(await procState(inA.pid!)).not.toBe('T');
      inA.kill('SIGKILL');
    });

    it('unsilenceAll undoes whatever a failed test left in force', async () => {
      const proc = await started(b, ['sleep', '300']);
      await silence(b, [proc.pid!]);
      await unsilenceAll();
      expect(await procState(proc.pid!)).not.toBe('T');
      expect(await reaches(a, ['ping', '-c', '1', '-W', '1', '198.18.0.2'])).toBe(true);
      proc.kill('SIGKILL');
    });
  });

  describe('cpu hog', () => {
    it('burns one core, pinned where asked, and ends by itself at its deadline', async () => {
      const t0 = performance.now();
      const hog = await startCpuHog(b, { seconds: 1.5, cpu: 1 });
      const status = await readFile(`/proc/${hog.pid}/status`, 'utf8');
      expect(/Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1]).toBe('1');
      await sleep(1000);
      // Node starts in well under a second; after that it spins the whole time.
      expect(await cpuSeconds(hog.pid)).toBeGreaterThan(0.5);
      await hog.exited;
      const took = performance.now() - t0;
      expect(took).toBeGreaterThan(1400);
      expect(took).toBeLessThan(4000);
    });

    it('stop() kills it by PID at once', async () => {
      const hog = await startCpuHog(b, { seconds: 60 });
      await hog.stop();
      expect(() => process.kill(hog.pid, 0)).toThrow();
      await expect(startCpuHog(b, { seconds: 3600 })).rejects.toThrow(/at most 600/);
    });
  });

  describe('FIB watch', () => {
    it('times the removal of a plain route and of a route through a nexthop object', async () => {
      await a.ip('route', 'add', '198.18.100.1/32', 'via', '198.18.0.2');
      await a.ip('nexthop', 'add', 'id', '7', 'via', '198.18.0.2', 'dev', 'eth0');
      await a.ip('route', 'add', '198.18.100.2/32', 'nhid', '7');
      for (const [prefix, remove] of [
        ['198.18.100.1/32', ['route', 'del', '198.18.100.1/32']],
        // Removing the nexthop object takes the route with it: the case `ip monitor` misses here.
        ['198.18.100.2/32', ['nexthop', 'del', 'id', '7']],
      ] as const) {
        const w = watchFibRoute(a, prefix, { withinMs: 5000 });
        await w.present;
        await sleep(100);
        const t0 = performance.now();
        await a.ip(...remove);
        const { ms, resolutionMs } = lossSince(await w.lost, t0);
        // The removal is done when `ip` returns; the watcher sees it at its next poll.
        expect(ms).toBeLessThan(100);
        expect(resolutionMs).toBeLessThan(50);
      }
    });

    it('with `via`, counts an ECMP route that loses that next hop as lost', async () => {
      await a.ip(
        'route',
        'add',
        '198.18.100.3/32',
        'nexthop',
        'via',
        '198.18.0.2',
        'nexthop',
        'via',
        '198.18.0.3',
      );
      const other = watchFibRoute(a, '198.18.100.3/32', { via: '198.18.0.2', withinMs: 600 });
      const w = watchFibRoute(a, '198.18.100.3/32', { via: '198.18.0.3', withinMs: 5000 });
      await Promise.all([w.present, other.present]);
      await a.ip('route', 'replace', '198.18.100.3/32', 'via', '198.18.0.2');
      expect((await w.lost).polls).toBeGreaterThan(1);
      // The leg via .2 is still there.
      await expect(other.lost).rejects.toThrow(/not lost within 600 ms/);
      await a.ip('route', 'del', '198.18.100.3/32');
    });

    it('refuses to report a loss of a route it never saw', async () => {
      const w = watchFibRoute(a, '198.18.100.9/32', { withinMs: 100 });
      await expect(w.present).rejects.toThrow(/never seen within 100 ms/);
    });
  });
});
