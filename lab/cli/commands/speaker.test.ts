/**
 * `lblab speaker`'s two modes as a user meets them: which flags go together, where the node comes from,
 * and a Kubernetes-mode start that stops, with the reason, before it touches the network (the node is
 * not in the cluster). The full Kubernetes-mode speaker runs in speaker-kube.netns.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '../../kube-api/kube-api.test-support.ts';
import { runLblab } from '../run-lblab.test-support.ts';
import { runSpeaker, type SpeakerArgs } from './speaker.ts';

const defaults: SpeakerArgs = {
  membershipPort: '7946',
  heartbeatMs: '50',
  multiplier: '4',
  graceMs: '2000',
  bgpPort: '179',
  onStop: 'restart',
  drainMs: '2000',
  bgpMaxPrefixes: '10000',
  membershipKeyRotationMs: '30000',
  mainLoopTimeoutMs: '2000',
  metricsPort: '0',
};

async function run(args: Partial<SpeakerArgs>, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const code = await runSpeaker(
    { ...defaults, ...args },
    { stdout: (l) => out.push(l), stderr: (l) => out.push(l) },
    env,
  );
  return { code, out: out.join('\n') };
}

describe('lblab speaker: modes', () => {
  it('--help says which mode reads what', async () => {
    const { code, stdout: wrapped } = await runLblab('speaker', '--help');
    expect(code).toBe(0);
    const stdout = wrapped.replace(/\s+/g, ' ');
    expect(stdout).toMatch(
      /With --cluster and --config it reads files; without both it reads the Kubernetes API/,
    );
    expect(stdout).toMatch(/--kubeconfig <file>/);
    expect(stdout).toMatch(/\$METALLB_NODE_NAME/);
  });

  it('refuses half a file mode, file flags in Kubernetes mode, and no node at all', async () => {
    expect(await run({ node: 'n1', cluster: 'c.yaml' })).toEqual({
      code: 2,
      out: 'lblab speaker: --cluster and --config go together (file mode); give neither for Kubernetes mode',
    });
    expect((await run({ node: 'n1', cluster: 'c.yaml', config: ['m.yaml'], kubeconfig: 'k' })).out).toMatch(
      /--kubeconfig and --namespace are for Kubernetes mode/,
    );
    expect((await run({ node: 'n1', membershipKeyFile: 'key' })).out).toMatch(
      /in Kubernetes the key is Secret memberlist/,
    );
    expect(await run({})).toEqual({
      code: 2,
      out: 'lblab speaker: --node is required (or $METALLB_NODE_NAME)',
    });
  });

  it('Kubernetes mode: the node from $METALLB_NODE_NAME; a node the cluster does not have stops it, named', async () => {
    const server = await startServer();
    const dir = await mkdtemp(join(tmpdir(), 'lblab-speaker-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'metallb-system' } });
    await server.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'memberlist', namespace: 'metallb-system' },
      data: { secretkey: Buffer.alloc(32, 7).toString('base64') },
    });
    await server.writeKubeconfig(join(dir, 'kubeconfig'));
    const { code, out } = await run(
      { kubeconfig: join(dir, 'kubeconfig'), namespace: 'metallb-system' },
      { METALLB_NODE_NAME: 'n9' },
    );
    expect(code).toBe(2);
    expect(out).toMatch(/node n9 is not in the cluster with an InternalIP address/);
    expect(out).not.toMatch(/membership is not authenticated/);
  });

  it('Kubernetes mode: a kubeconfig that is not there is named', async () => {
    const { code, out } = await run({ node: 'n1', kubeconfig: '/nonexistent/kubeconfig' });
    expect(code).toBe(2);
    expect(out).toMatch(/\/nonexistent\/kubeconfig/);
  });
});
