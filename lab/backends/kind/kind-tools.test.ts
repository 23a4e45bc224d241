import { afterEach, describe, expect, it } from 'vitest';
import { compareVersions, findKindTools, KindUnavailableError } from './kind-tools.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  await tools?.remove();
  tools = undefined;
});

const env = (t: StandIns) => ({ ...process.env, LBLAB_KIND: t.kind, LBLAB_DOCKER: t.docker });

describe('findKindTools', () => {
  it('reads both versions through the tools and asks the Docker server, not the client', async () => {
    tools = await standIns({
      kind: [{ when: 'version', stdout: 'kind v0.32.0 go1.24.2 linux/amd64\n' }],
      docker: [{ when: 'version --format {{.Server.Version}}', stdout: '28.0.4\n' }],
    });
    const found = await findKindTools(env(tools));
    expect(found).toEqual({
      kind: tools.kind,
      docker: tools.docker,
      kindVersion: '0.32.0',
      dockerVersion: '28.0.4',
    });
    expect((await tools.calls()).map((c) => [c.tool, ...c.args])).toEqual([
      ['kind', 'version'],
      ['docker', 'version', '--format', '{{.Server.Version}}'],
    ]);
  });

  it('refuses an old kind and an old Docker, saying which, the minimum and how to get them', async () => {
    tools = await standIns({
      kind: [{ when: 'version', stdout: 'kind v0.20.0 go1.20 linux/amd64' }],
      docker: [{ when: 'version*', stdout: '20.10.24' }],
    });
    const err = await findKindTools(env(tools)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KindUnavailableError);
    expect((err as KindUnavailableError).code).toBe('KIND_UNAVAILABLE');
    expect((err as Error).message).toMatch(/kind 0\.20\.0 is older than 0\.27\.0; install kind 0\.32\.0/);
    expect((err as Error).message).toMatch(/Docker 20\.10\.24 is older than 24\.0\.0; install Docker Engine/);
  });

  it('says a tool is missing when it is not there, and a Docker without a server is one that fails', async () => {
    tools = await standIns({
      docker: [{ when: 'version*', stderr: 'Cannot connect to the Docker daemon', exit: 1 }],
    });
    const err = (await findKindTools({ ...env(tools), LBLAB_KIND: `${tools.dir}/no-such-kind` }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(KindUnavailableError);
    expect(err.message).toContain(`${tools.dir}/no-such-kind not found`);
    expect(err.message).toContain('set LBLAB_KIND to its path');
    expect(err.message).toMatch(/exited with 1: Cannot connect to the Docker daemon/);
  });
});

describe('compareVersions', () => {
  it('orders dotted versions numerically, not as text', () => {
    expect(compareVersions('0.27.0', '0.32.0')).toBe(-1);
    expect(compareVersions('0.100.0', '0.32.0')).toBe(1);
    expect(compareVersions('24.0', '24.0.0')).toBe(0);
  });
});
