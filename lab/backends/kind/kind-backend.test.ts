import { access } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../cli/commands/run.ts';
import { backendNamed } from '../index.ts';
import { netemSupport } from '../netns/impairment.ts';
import { kindBackend } from './kind-backend.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await tools?.remove();
  tools = undefined;
});

describe('lblab run --backend kind', () => {
  it('on a machine without kind and docker exits 2 saying what is missing and how to get it, running nothing', async () => {
    vi.stubEnv('LBLAB_KIND', '/nonexistent/kind');
    vi.stubEnv('LBLAB_DOCKER', '/nonexistent/docker');
    const lines: string[] = [];
    const sink = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
    const out = `/tmp/lblab-kind-run-test-${process.pid}`;
    const code = await run(
      { backend: 'kind', topology: 'topologies/l2-three-nodes.yaml', gates: 'reports/gates.yaml', out },
      sink,
    );
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lblab run: the kind backend cannot run here: /);
    expect(lines[0]).toContain('/nonexistent/kind version: /nonexistent/kind not found');
    expect(lines[0]).toContain(
      'install kind 0.32.0 (https://kind.sigs.k8s.io/docs/user/quick-start/#installation)',
    );
    expect(lines[0]).toContain('/nonexistent/docker not found');
    await expect(access(out)).rejects.toThrow();
    // Every capability now says why it is missing, for anyone who reads them afterwards.
    for (const [, support] of kindBackend.capabilities)
      expect(support).toBe(lines[0]!.replace('lblab run: ', ''));
  });

  it('is registered, and with kind and docker found says which capabilities it has and why not the others', async () => {
    expect(await backendNamed('kind')).toBe(kindBackend);
    tools = await standIns({
      kind: [{ when: 'version', stdout: 'kind v0.32.0 go1.24.2 linux/amd64' }],
      docker: [{ when: 'version*', stdout: '28.0.4' }],
    });
    vi.stubEnv('LBLAB_KIND', tools.kind);
    vi.stubEnv('LBLAB_DOCKER', tools.docker);
    await kindBackend.check();
    const caps = kindBackend.capabilities;
    for (const c of ['l2', 'ipv6', 'kill', 'hang', 'link', 'bgp', 'bfd', 'partition', 'kubernetes'] as const)
      expect(caps.get(c)).toBe(true);
    expect(caps.get('stall')).toMatch(/the speaker runs in a pod/);
    // netem is the kernel's: what this machine's check says, as on the netns and docker tiers.
    expect(caps.get('impair')).toBe(netemSupport());
  });

  it('--peer metallb where MetalLB’s registry cannot be reached exits 2 saying why, running nothing', async () => {
    tools = await standIns({
      kind: [{ when: 'version', stdout: 'kind v0.32.0 go1.24.2 linux/amd64' }],
      docker: [{ when: 'version*', stdout: '28.0.4' }],
    });
    vi.stubEnv('LBLAB_KIND', tools.kind);
    vi.stubEnv('LBLAB_DOCKER', tools.docker);
    vi.stubEnv('LBLAB_REGISTRY', 'offline');
    const lines: string[] = [];
    const sink = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
    const out = `/tmp/lblab-kind-peer-test-${process.pid}`;
    const code = await run(
      {
        backend: 'kind',
        topology: 'topologies/l2-three-nodes.yaml',
        gates: 'reports/gates.yaml',
        out,
        peer: ['metallb'],
      },
      sink,
    );
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^lblab run: the kind backend cannot run peer "metallb" here: MetalLB v0\.15\.3's images/,
    );
    expect(lines[0]).toContain('LBLAB_REGISTRY=offline');
    // No cluster was made: the stand-in kind was asked its version only.
    expect((await tools.calls()).filter((c) => c.tool === 'kind').map((c) => c.args)).toEqual([['version']]);
    await expect(access(out)).rejects.toThrow();
  });
});
