/**
 * The whole catalog (Layer 2 and BGP) on the real kernel, through `lblab run` itself (its run(), with the
 * release gates of reports/gates.yaml): every scenario must pass its gates on the netns backend with real
 * speakers, FRR routers and probes, the report must set the emulator's figures beside them (emulator
 * fidelity), and no namespace of the run may be left afterwards. Figures are printed for the release notes.
 */
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { fidelityRows } from '../../../reports/fidelity.ts';
import { catalog } from '../../../scenarios/index.ts';
import { readTopology } from '../../model/index.ts';
import { newRunId } from '../../runner/run-id.ts';
import { netnsBackend } from './netns-backend.ts';
import { labNamespaces, runIdOf } from './index.ts';
import {
  expectCatalogOutcome,
  expectWireEventsOfTakeover,
  portableCatalog,
  runNetns,
} from './netns-run.test-support.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['nft', 'tcpdump']);

describe.skipIf(mode === 'skip')('lblab run --backend netns (the catalog)', () => {
  let out: string | undefined;
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('passes every gate of every scenario, compares with the emulator and leaves no namespace behind', async () => {
    const r = await runNetns();
    out = r.out;
    const { result, runId } = r;

    expect(result.backend).toBe('netns');
    expectCatalogOutcome(result);
    expect(r.code, r.output).toBe(0);
    // Every scenario has its emulated twin, and the report says how far apart they are.
    expect(result.emulated?.map((s) => s.name)).toEqual(catalog.map((s) => s.name));
    const fidelity = fidelityRows(result);
    for (const f of fidelity.filter((r) => r.measurement === 'outageMs' || r.measurement === 'convergenceMs'))
      console.log(
        `fidelity ${f.scenario} ${f.measurement}: emulated ${f.emulated}, netns ${f.real}, ${f.agrees ? 'agrees' : 'DISAGREES'}`,
      );
    expect(fidelity.length).toBeGreaterThanOrEqual(portableCatalog.length);
    expect(r.report).toContain('## Emulator fidelity');
    await expectWireEventsOfTakeover(result, r.dir);
    // Every scenario's lab is down: no namespace and so no process of this run is left.
    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === runId)).toEqual([]);
  }, 480_000);

  it('removes what it built when bringing the lab up fails half-way', async () => {
    const read = await readTopology('topologies/l2-three-nodes.yaml');
    if (!read.ok) throw new Error('topologies/l2-three-nodes.yaml does not read');
    // The client comes last: the segment and the nodes' namespaces exist when it fails.
    const nodes = read.topology.nodes.map((n) =>
      n.kind === 'client'
        ? { ...n, attachments: n.attachments.map((a) => ({ ...a, interface: 'an-interface-name-too-long' })) }
        : n,
    );
    const runId = newRunId();
    await expect(
      netnsBackend.up({ ...read.topology, nodes }, { seed: 1, runId, timeline: () => undefined }),
    ).rejects.toThrow(/an-interface-name-too-long/);
    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === runId)).toEqual([]);
  }, 60_000);
});
