import { describe, expect, it } from 'vitest';
import type { Dockerode } from '../../images/docker-engine.ts';
import { readTopology } from '../../model/index.ts';
import { fabricPlan } from './docker-fabric.ts';
import { removeRunObjects } from './docker-sweep.ts';

async function topology() {
  const read = await readTopology('topologies/bgp-three-nodes.yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.topology;
}

describe('fabricPlan', () => {
  it('builds every host and creates every segment when no option is given (the docker backend)', async () => {
    const t = await topology();
    const plan = fabricPlan(t, {});
    expect(plan.hosts.map((h) => h.name)).toEqual(t.nodes.map((n) => n.name));
    expect(plan.segments.map((s) => [s.segment.name, s.existing])).toEqual(
      t.segments.map((s) => [s.name, undefined]),
    );
  });

  it('on kind builds the router and client only, joins the existing kind network and creates the rest', async () => {
    const t = await topology();
    const plan = fabricPlan(t, {
      existingNetworks: new Map([['lan', 'lblab-kind-abc123']]),
      hosts: (n) => n.kind !== 'lblab-node',
    });
    expect(plan.hosts.map((h) => h.name).sort()).toEqual(['c1', 'r1']);
    const segments = new Map(plan.segments.map((s) => [s.segment.name, s.existing]));
    expect(segments.get('lan')).toBe('lblab-kind-abc123');
    // The client's segment behind r1 is the fabric's own.
    const behind = t.nodes.find((n) => n.name === 'c1')!.attachments[0]!.segment;
    expect(segments.has(behind)).toBe(true);
    expect(segments.get(behind)).toBeUndefined();
  });

  it('creates no network for a segment none of the built hosts attaches to', async () => {
    const t = await topology();
    const plan = fabricPlan(t, { hosts: (n) => n.kind === 'lblab-node' });
    expect(plan.segments.map((s) => s.segment.name)).toEqual(['lan']);
  });
});

interface FakeContainer {
  Id: string;
  Names: string[];
  HostConfig?: { NetworkMode: string };
}

/**
 * A Docker engine holding one run's containers (by default one) and two labelled networks, recording
 * when each removal starts and ends; a container takes a few ms to remove.
 */
function fakeEngine(containers: FakeContainer[] = [{ Id: 'c1', Names: ['/lblab-abc123-r1'] }]) {
  const removed: string[] = [];
  const log: string[] = [];
  const docker = {
    listContainers: () => Promise.resolve(containers),
    getContainer: (id: string) => ({
      inspect: () => Promise.resolve({ State: { Pid: 0 } }),
      remove: async () => {
        log.push(`start ${id}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${id}`);
        removed.push(`container ${id}`);
      },
    }),
    listNetworks: () =>
      Promise.resolve([
        { Id: 'n1', Name: 'lblab-abc123-r1-c1' },
        { Id: 'n2', Name: 'lblab-kind-abc123' },
      ]),
    getNetwork: (id: string) => ({ remove: () => (removed.push(`network ${id}`), Promise.resolve()) }),
  };
  return { docker: docker as unknown as Dockerode, removed, log };
}

describe('removeRunObjects', () => {
  it('removes every network of the run but those it is told to keep', async () => {
    const e = fakeEngine();
    const result = await removeRunObjects(e.docker, 'abc123', {
      keepNetworks: new Set(['lblab-kind-abc123']),
    });
    expect(e.removed).toEqual(['container c1', 'network n1']);
    expect(result.networks).toEqual(['lblab-abc123-r1-c1']);
  });

  it('removes them all without the option, as the docker backend always did', async () => {
    const e = fakeEngine();
    await removeRunObjects(e.docker, 'abc123');
    expect(e.removed).toEqual(['container c1', 'network n1', 'network n2']);
  });

  it("removes containers side by side, those in another container's network namespace first", async () => {
    const node = (id: string) => ({ Id: id, Names: [`/lblab-abc123-${id}`] });
    const software = (id: string, of: string) => ({
      ...node(id),
      HostConfig: { NetworkMode: `container:${of}` },
    });
    const e = fakeEngine([node('n1'), software('s1', 'n1'), node('n2'), software('s2', 'n2')]);
    const result = await removeRunObjects(e.docker, 'abc123');
    expect(e.log).toEqual([
      'start s1',
      'start s2',
      'end s1',
      'end s2',
      'start n1',
      'start n2',
      'end n1',
      'end n2',
    ]);
    expect(result.containers).toEqual([
      'lblab-abc123-n1',
      'lblab-abc123-s1',
      'lblab-abc123-n2',
      'lblab-abc123-s2',
    ]);
  });
});
