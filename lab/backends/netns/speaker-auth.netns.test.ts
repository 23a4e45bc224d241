/**
 * Authenticated membership on the real kernel: a host on the nodes' segment records what the serving
 * node's speaker sends, then forges and replays membership datagrams. With a shared key
 * (--membership-key-file) nothing moves while the owner lives, and when it dies its replayed datagrams,
 * sent from its own address, do not hold the failover off. Without a key the same replay does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { seal } from '../../../core/membership/auth/envelope.ts';
import { envelopeKey } from '../../../core/membership/auth/keyring.ts';
import { encodeMessage } from '../../../core/membership/index.ts';
import { expectedOwner, L2Lab, nodeNames, vip4, type NodeName } from './l2-lab.test-support.ts';
import type { Netns } from './namespace.ts';
import { lines as readLines } from './program-output.ts';
import { requireNetns } from './test-support.ts';
import { recordedDatagrams, type RecordedDatagram } from './udp-recording.test-support.ts';

const mode = await requireNetns(['tcpdump']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const replayScript = fileURLToPath(new URL('./datagram-replay.netns-child.ts', import.meta.url));
const attackerAddress = '198.18.0.99';
const key = 'a shared membership key, same on every node';

type Datagram = Omit<RecordedDatagram, 'from'>;

/** What `node`'s speaker sends on UDP 7946 for `ms`, captured in its own namespace. */
async function record(l2: L2Lab, node: NodeName, ms: number): Promise<RecordedDatagram[]> {
  const file = join(l2.dir, `${node}-membership.pcap`);
  const filter = ['udp', 'port', '7946', 'and', 'src', 'host', l2.address(node)];
  const tcpdump = l2.nodes
    .get(node)!
    .spawn(['tcpdump', '-i', 'eth0', '-U', '--immediate-mode', '-w', file, ...filter], { stdio: 'ignore' });
  await sleep(ms);
  const exited = new Promise((resolve) => tcpdump.once('exit', resolve));
  tcpdump.kill('SIGINT');
  await exited;
  const recorded = await recordedDatagrams(file);
  if (recorded.length < 10) throw new Error(`recorded only ${recorded.length} datagrams from ${node}`);
  return recorded;
}

/**
 * A replay of `datagrams` from `from`:7946 inside `ns` for `seconds`, bound and waiting: `go()` starts it
 * and resolves with how many went out.
 */
async function replayer(
  ns: Netns,
  dir: string,
  datagrams: readonly Datagram[],
  from: string,
  seconds: number,
): Promise<{ go(): Promise<number> }> {
  const file = join(dir, `replay-${from}-${Date.now()}.json`);
  await writeFile(file, JSON.stringify([...datagrams].sort((x, y) => x.atMs - y.atMs)));
  const args = ['--from', from, '--port', '7946', '--file', file, '--seconds', String(seconds)];
  const child = ns.spawn(['node', '--import', 'tsx', replayScript, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const said: string[] = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    readLines(child.stdout!, (line) => {
      said.push(line);
      if (line.includes('"ready"')) resolve();
    });
    void exited.then((code) =>
      reject(new Error(`the replayer exited (${String(code)}) before it was ready`)),
    );
  });
  return {
    async go() {
      child.stdin!.end('go\n');
      await exited;
      const done = JSON.parse(said.at(-1)!) as { sent?: number };
      if (done.sent === undefined) throw new Error(`the replayer did not finish: ${said.join('\n')}`);
      return done.sent;
    },
  };
}

/** What a forger sends without the key: a death rumour about `victim`, unsealed and sealed under a guess. */
function forgeries(l2: L2Lab, victim: NodeName): Datagram[] {
  const liar = nodeNames.find((n) => n !== victim)!;
  const rumour = encodeMessage({
    kind: 'gossip',
    from: liar,
    incarnation: 1000,
    updates: [{ node: victim, state: 'dead', incarnation: 1000, by: liar, silentMs: 300 }],
  });
  const guessed = seal(rumour, envelopeKey(new TextEncoder().encode('not the key, but a guess')), 2e15);
  return nodeNames
    .filter((n) => n !== victim)
    .flatMap((n, i) => [
      { to: l2.address(n), port: 7946, atMs: i * 10, hex: Buffer.from(rumour).toString('hex') },
      { to: l2.address(n), port: 7946, atMs: i * 10 + 5, hex: Buffer.from(guessed).toString('hex') },
    ]);
}

const marks = (l2: L2Lab) => new Map([...l2.speakers].map(([n, s]) => [n, s.log.length]));
const since = (l2: L2Lab, from: Map<string, number>) =>
  [...l2.speakers].flatMap(([name, s]) => s.log.slice(from.get(name) ?? 0).map((l) => `${name} ${l}`));

/**
 * The owner dies (speaker killed, link down) and at once a host starts replaying, from the owner's own
 * address, what it recorded of it, for `seconds`; returns the client's outage and the speakers' lines.
 */
async function deathUnderReplay(
  l2: L2Lab,
  attacker: Netns,
  seconds: number,
): Promise<{ outageMs: number; logged: string[] }> {
  const owner = expectedOwner(nodeNames, vip4);
  const recorded = await record(l2, owner, 3000);
  const replay = await replayer(attacker, l2.dir, recorded, l2.address(owner), seconds);
  const before = marks(l2);
  const probing = l2.probe(vip4, 1000, seconds + 2.5);
  await sleep(1000);
  await l2.stopSpeaker(owner, 'SIGKILL');
  await l2.nodes.get(owner)!.linkDown('eth0');
  // The owner's address becomes the attacker's: bound already, the replayer can now send from it.
  await attacker.addAddress('eth0', `${l2.address(owner)}/32`);
  expect(await replay.go()).toBeGreaterThan(50);
  const summary = await probing;
  const logged = since(l2, before);
  await attacker.ip('addr', 'del', `${l2.address(owner)}/32`, 'dev', 'eth0');
  await l2.nodes.get(owner)!.linkUp('eth0');
  l2.startSpeaker(owner);
  await sleep(2000);
  await l2.serving(vip4, 10_000);
  return { outageMs: summary.outageMs, logged };
}

describe.skipIf(mode === 'skip')(
  'membership with a shared key, against a host that forges and replays',
  () => {
    const cleanup: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of cleanup.reverse()) await c();
    });

    async function lab(withKey: boolean): Promise<{ l2: L2Lab; attacker: Netns }> {
      const keyDir = await mkdtemp(join(tmpdir(), 'lblab-key-'));
      cleanup.push(() => rm(keyDir, { recursive: true, force: true }));
      await writeFile(join(keyDir, 'key'), `${key}\n`);
      const l2 = await L2Lab.create({
        speakerArgs: withKey ? ['--membership-key-file', join(keyDir, 'key')] : [],
      });
      cleanup.push(() => l2.destroy());
      const attacker = await l2.host('x1', attackerAddress);
      // The replayer binds a dead node's address before the attacker takes it over.
      await attacker.sysctl('net.ipv4.ip_nonlocal_bind', 1);
      await l2.settled(vip4, 15_000);
      return { l2, attacker };
    }

    it('with a key: forged rumours and replayed datagrams of a live node move nothing, and are counted', async () => {
      const { l2, attacker } = await lab(true);
      const owner = expectedOwner(nodeNames, vip4);
      const recorded = await record(l2, owner, 3000);
      const replay = await replayer(
        attacker,
        l2.dir,
        [...recorded, ...forgeries(l2, owner)],
        attackerAddress,
        5,
      );
      const before = marks(l2);
      const probing = l2.probe(vip4, 100, 6);
      expect(await replay.go()).toBeGreaterThan(100);
      const summary = await probing;
      const logged = since(l2, before);
      expect(logged.filter((l) => / membership: \S+: /.test(l))).toEqual([]);
      expect(logged.filter((l) => / ownership: | CONFLICT: /.test(l))).toEqual([]);
      expect(summary.lost).toBe(0);
      const refused = logged.filter((l) => / membership: refused \d+ /.test(l));
      expect(refused.join('\n')).toMatch(/replayed membership datagram/);
      expect(refused.join('\n')).toMatch(/unauthenticated membership datagram/);
      expect(refused.join('\n')).toMatch(/forged membership datagram/);
      console.log(
        `forged and replayed for 5 s while ${owner} lives: ${summary.lost} probes lost, no membership change, ${refused.length} refusal lines`,
      );
    }, 90_000);

    it('with a key: a dead owner replayed from its own address is failed over on time', async () => {
      const { l2, attacker } = await lab(true);
      const { outageMs, logged } = await deathUnderReplay(l2, attacker, 4);
      console.log(
        `owner dies under a 4 s replay of its datagrams, with a key: outage ${Math.round(outageMs)} ms`,
      );
      expect(outageMs).toBeLessThan(1000);
      expect(
        logged.some((l) => /refused \d+ replayed membership datagrams? from 198\.18\.0\.1\d:7946/.test(l)),
      ).toBe(true);
    }, 90_000);

    it('without a key the same replay holds the failover off for as long as it lasts', async () => {
      const { l2, attacker } = await lab(false);
      const { outageMs } = await deathUnderReplay(l2, attacker, 4);
      console.log(
        `owner dies under a 4 s replay of its datagrams, without a key: outage ${Math.round(outageMs)} ms`,
      );
      expect(outageMs).toBeGreaterThan(3500);
    }, 90_000);
  },
);
