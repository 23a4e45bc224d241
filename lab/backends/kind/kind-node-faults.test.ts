import { afterEach, describe, expect, it, vi } from 'vitest';
import { silenceRuleset, unsilenceRuleset } from '../netns/silence.ts';
import type { KindNode } from './kind-cluster.ts';
import { KindNodeFaults } from './kind-node-faults.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await tools?.remove();
  tools = undefined;
});

const network = 'lblab-kind-abc123';
const n2: KindNode = {
  lab: 'n2',
  role: 'worker',
  container: 'lblab-abc123-worker2',
  id: 'f'.repeat(64),
  ipv4: '198.18.0.4',
  ipv6: '2001:db8::4',
};
const cp: KindNode = {
  lab: 'control-plane',
  role: 'control-plane',
  container: 'lblab-abc123-control-plane',
  id: 'e',
};

/** `docker inspect` of n2, running as process 4343. */
const running = JSON.stringify([
  { Name: `/${n2.container}`, State: { Running: true, Pid: 4343 }, NetworkSettings: { Networks: {} } },
]);

async function faults(): Promise<{ f: KindNodeFaults; argv: () => Promise<string[][]> }> {
  tools = await standIns({});
  const t = tools;
  return { f: new KindNodeFaults(t, network), argv: async () => (await t.calls()).map((c) => c.args) };
}

describe('KindNodeFaults against a stand-in docker', () => {
  it('crashes a node by taking it off the lab network first, then killing its container', async () => {
    const { f, argv } = await faults();
    await f.control(n2).kill();
    expect(await argv()).toEqual([
      ['network', 'disconnect', '--force', network, n2.container],
      ['kill', n2.container],
    ]);
  });

  it('revives it on the same addresses before starting it, so its Kubernetes InternalIP stays', async () => {
    const { f, argv } = await faults();
    await f.control(n2).revive();
    expect(await argv()).toEqual([
      ['network', 'connect', '--ip', '198.18.0.4', '--ip6', '2001:db8::4', network, n2.container],
      ['start', n2.container],
    ]);
  });

  it("hangs a node by dropping all its traffic in its namespace (the host's nft) before pausing it, and undoes both in reverse", async () => {
    tools = await standIns({
      docker: [{ when: 'inspect*', stdout: running }],
      nsenter: [{ when: '--target 4343 --net -- nft -f *', stdout: '' }],
    });
    vi.stubEnv('PATH', `${tools.dir}:${process.env['PATH']}`);
    const f = new KindNodeFaults(tools, network);
    await f.control(n2).hang();
    await f.control(n2).resume();
    const calls = (await tools.calls()).map((c) =>
      [c.tool, ...c.args].join(' ').replace(/\/tmp\/\S+/, 'FILE'),
    );
    expect(calls).toEqual([
      `docker inspect ${n2.container}`,
      'nsenter --target 4343 --net -- nft -f FILE',
      `docker pause ${n2.container}`,
      `docker inspect ${n2.container}`,
      'nsenter --target 4343 --net -- nft -f FILE',
      `docker unpause ${n2.container}`,
    ]);
    expect(await tools.stdin()).toBe(silenceRuleset() + unsilenceRuleset());
    expect(silenceRuleset()).toMatch(/hook input priority -400; policy drop/);
  });

  it('takes a link down and up as disconnect and connect, and pauses the control plane for an API outage', async () => {
    const { f, argv } = await faults();
    await f.control(n2).linkDown();
    await f.control(n2).linkUp();
    const outage = await f.apiServerOutage(cp);
    await outage.end();
    expect(await argv()).toEqual([
      ['network', 'disconnect', '--force', network, n2.container],
      ['network', 'connect', '--ip', '198.18.0.4', '--ip6', '2001:db8::4', network, n2.container],
      ['pause', cp.container],
      ['unpause', cp.container],
    ]);
  });

  it('refuses a stall with the reason, touching nothing', async () => {
    const { f, argv } = await faults();
    await expect(f.control(n2).stall(1000)).rejects.toThrow(
      /cannot stall the speaker on n2: the speaker runs in a pod/,
    );
    expect(await argv()).toEqual([]);
  });
});
