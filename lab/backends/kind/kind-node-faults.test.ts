import { afterEach, describe, expect, it } from 'vitest';
import { silenceRuleset, unsilenceRuleset } from '../netns/silence.ts';
import type { KindNode } from './kind-cluster.ts';
import { KindNodeFaults } from './kind-node-faults.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
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

async function faults(): Promise<{ f: KindNodeFaults; argv: () => Promise<string[][]> }> {
  tools = await standIns({ docker: [{ when: 'exec*', stdout: '' }] });
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

  it('hangs a node by dropping all its traffic inside it before pausing it, and undoes both in reverse', async () => {
    const { f, argv } = await faults();
    await f.control(n2).hang();
    await f.control(n2).resume();
    expect(await argv()).toEqual([
      ['exec', '-i', n2.container, 'nft', '-f', '-'],
      ['pause', n2.container],
      ['unpause', n2.container],
      ['exec', '-i', n2.container, 'nft', '-f', '-'],
    ]);
    expect(await tools!.stdin()).toBe(silenceRuleset() + unsilenceRuleset());
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
