/**
 * The kind lab's network made by the real docker CLI (what `lblab run --backend kind` runs before kind
 * creates its nodes on it), checked by the engine's own account of it, and removed again. kind itself
 * cannot run here; its flags are checked against stand-ins elsewhere, Docker's here.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { requireDocker } from '../../images/test-support.ts';
import { readTopology } from '../../model/index.ts';
import { newRunId } from '../../runner/run-id.ts';
import { runTool } from './kind-exec.ts';
import { RUN_LABEL } from './kind-names.ts';
import { createKindNetwork, kindNetworkSpec, removeKindNetwork } from './kind-network.ts';

const engine = await requireDocker();

interface Inspected {
  Internal: boolean;
  EnableIPv6: boolean;
  Labels: Record<string, string>;
  Options: Record<string, string>;
  IPAM: { Config: { Subnet: string; Gateway: string; IPRange?: string }[] };
}

describe.skipIf(engine === 'skip')('the kind network on the Docker engine', () => {
  it("is created with the topology's subnets, gateways and node ranges, labelled with the run, and removed", async () => {
    const read = await readTopology('topologies/l2-three-nodes.yaml');
    if (!read.ok) throw new Error('topologies/l2-three-nodes.yaml does not read');
    const runId = newRunId();
    const spec = kindNetworkSpec(read.topology, runId);
    await createKindNetwork('docker', spec, 30_000);
    onTestFinished(() => removeKindNetwork('docker', spec.name, 30_000));

    const [net] = JSON.parse(
      await runTool('docker', ['network', 'inspect', spec.name], { timeoutMs: 30_000 }),
    ) as Inspected[];
    expect(net?.Internal).toBe(false);
    expect(net?.EnableIPv6).toBe(true);
    expect(net?.Labels[RUN_LABEL]).toBe(runId);
    expect(net?.Options['com.docker.network.bridge.enable_ip_masquerade']).toBe('true');
    expect(net?.IPAM.Config.map((c) => [c.Subnet, c.Gateway, c.IPRange])).toEqual(
      spec.subnets.map((s) => [s.subnet, s.gateway, s.nodeRange]),
    );
    // Every address in the lab ranges.
    expect(spec.subnets.map((s) => s.subnet)).toEqual(['198.18.0.0/24', '2001:db8::/64']);

    await removeKindNetwork('docker', spec.name, 30_000);
    const left = await runTool('docker', ['network', 'ls', '--quiet', '--filter', `name=^${spec.name}$`], {
      timeoutMs: 30_000,
    });
    expect(left.trim()).toBe('');
    // Removing it again is no error.
    await removeKindNetwork('docker', spec.name, 30_000);
  }, 60_000);
});
