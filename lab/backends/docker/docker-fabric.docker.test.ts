/**
 * The docker fabric on a network it did not make, as the kind backend uses it: a pre-created network
 * (labelled with the run, as kind's is) holding the Layer-2 segment and a stand-in for a kind node; the
 * fabric builds only the client there, which reaches the stand-in's address, and on destroy removes its
 * own container but leaves the network (and what else is on it) to whoever made it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLabImage } from '../../images/build-images.ts';
import type { DockerEngine } from '../../images/docker-engine.ts';
import { requireDocker } from '../../images/test-support.ts';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import { newRunId } from '../../runner/run-id.ts';
import type { LabFabric } from '../netns/lab-fabric.ts';
import { forgetRun, recordRun } from '../netns/run-registry.ts';
import { dockerFabric } from './docker-fabric.ts';
import { RUN_LABEL } from './docker-names.ts';

const engine = await requireDocker();
/** A kind node's place: above every address the topology gives a host, as kind's --ip-range puts them. */
const NODE_IPV4 = '198.18.0.200';

describe.skipIf(engine === 'skip')('dockerFabric on an existing network (the kind backend’s way)', () => {
  const e = engine as DockerEngine;
  const runId = newRunId();
  const networkName = `lblab-kind-${runId}`;
  let topology: Topology;
  let image: string;
  let nodeId: string | undefined;
  let fabric: LabFabric | undefined;

  beforeAll(async () => {
    const read = await readTopology('topologies/l2-three-nodes.yaml');
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    topology = read.topology;
    image = (await buildLabImage({ engine: e })).image.ref;
    // A live run, as the kind backend records its own before making the network: the fabric's reaper
    // would otherwise take the labelled network for a dead run's leftover.
    await recordRun(runId);
    const lan = topology.segments.find((s) => s.name === 'lan')!;
    await e.docker.createNetwork({
      Name: networkName,
      Driver: 'bridge',
      EnableIPv6: true,
      Labels: { [RUN_LABEL]: runId },
      IPAM: {
        Driver: 'default',
        Config: [
          { Subnet: lan.ipv4.toString(), Gateway: '198.18.0.254' },
          { Subnet: lan.ipv6.toString(), Gateway: '2001:db8::fffe' },
        ],
      },
    });
    const node = await e.docker.createContainer({
      name: `${networkName}-node`,
      Image: image,
      Entrypoint: ['sleep', '600'],
      HostConfig: { NetworkMode: networkName },
      NetworkingConfig: { EndpointsConfig: { [networkName]: { IPAMConfig: { IPv4Address: NODE_IPV4 } } } },
    });
    nodeId = node.id;
    await node.start();
  });

  afterAll(async () => {
    await fabric?.destroy().catch(() => undefined);
    if (nodeId !== undefined) await e.docker.getContainer(nodeId).remove({ force: true });
    await e.docker
      .getNetwork(networkName)
      .remove()
      .catch(() => undefined);
    await forgetRun(runId);
  });

  it('builds only the client, on that network, reaching the node there; destroy leaves the network', async () => {
    fabric = await dockerFabric({
      engine: e,
      image,
      existingNetworks: new Map([['lan', networkName]]),
      hosts: (n) => n.kind !== 'lblab-node',
    })(topology, runId);
    expect([...fabric.hosts.keys()]).toEqual(['c1']);
    const onNetwork = await e.docker.getNetwork(networkName).inspect();
    const members = Object.values(onNetwork.Containers as Record<string, { Name: string }>).map(
      (c) => c.Name,
    );
    expect(members.sort()).toEqual([`${networkName}-node`, `lblab-${runId}-c1`].sort());
    // The client has its topology address and reaches the stand-in node across the network.
    expect(await fabric.host('c1').ip('-4', '-o', 'addr', 'show', 'dev', 'eth0')).toContain('198.18.0.14/24');
    await expect(fabric.host('c1').exec(['ping', '-c', '1', '-W', '2', NODE_IPV4])).resolves.toContain(
      '1 received',
    );

    await fabric.destroy();
    fabric = undefined;
    const left = await e.docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
    expect(left).toEqual([]);
    // The network and the node on it are still there: they are their owner's.
    expect((await e.docker.getNetwork(networkName).inspect()).Name).toBe(networkName);
    expect((await e.docker.getContainer(nodeId!).inspect()).State.Running).toBe(true);
  });
});
