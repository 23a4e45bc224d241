/**
 * The kind lab's echo pod, run for real on the Docker engine as its Deployment asks (deploy-plan.ts): the
 * lab image that kind loads, the container's command and arguments, user, read-only root and dropped
 * capabilities. Kubernetes is not here, so what the kubelet would do is done by hand: `$(NODE_NAME)`
 * expanded from the pod's env, the security context as Docker's host config. A second container in the
 * pod's network namespace sends it a probe, as kube-proxy would deliver one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfigFiles } from '../../../../core/config/index.ts';
import { buildLabImage } from '../../../images/build-images.ts';
import type { DockerEngine } from '../../../images/docker-engine.ts';
import { DockerTestRun, requireDocker } from '../../../images/test-support.ts';
import { readTopology } from '../../../model/index.ts';
import { decodeEcho, encodeProbe } from '../../../probes/echo-protocol.ts';
import { echoPort } from '../../netns/prober-client.ts';
import { deployPlan } from './deploy-plan.ts';

const engine = await requireDocker();
const nodeName = 'lblab-abc123-worker2';

/** Sends the probe (hex) to the echo server on localhost and prints the answer as hex. */
const client = `
const s = require('node:dgram').createSocket('udp4');
s.on('message', (m) => { console.log(m.toString('hex')); process.exit(0); });
const send = () => s.send(Buffer.from(process.argv[1], 'hex'), ${echoPort}, '127.0.0.1');
send(); setInterval(send, 200); setTimeout(() => process.exit(2), 20000);
`;

describe.skipIf(engine === 'skip')('the kind echo pod, on Docker as its Deployment runs it', () => {
  let run: DockerTestRun;
  let image: string;
  beforeAll(async () => {
    run = new DockerTestRun(engine as DockerEngine);
    image = (await buildLabImage({ engine: run.engine })).image.ref;
  }, 600_000);
  afterAll(async () => {
    await run?.removeAll();
  });

  it('answers a probe naming its node, as user 65534 on a read-only root with no capabilities', async () => {
    const read = await readTopology('topologies/l2-three-nodes.yaml');
    if (!read.ok) throw new Error('topologies/l2-three-nodes.yaml does not read');
    const plan = deployPlan(read.topology, await readConfigFiles(read.topology.configFiles), { image });
    const pod = plan.services[0]!.echoes[0]!.deployment.spec!.template.spec!;
    const echo = pod.containers[0]!;
    const security = echo.securityContext!;
    expect(security).toMatchObject({ runAsUser: 65534, readOnlyRootFilesystem: true });
    const env = Object.fromEntries((echo.env ?? []).map((e) => [e.name, nodeName]));
    const container = await run.engine.docker.createContainer({
      name: run.name('echo'),
      Image: echo.image,
      Entrypoint: echo.command,
      // The kubelet expands $(VAR) in args from the container's env.
      Cmd: (echo.args ?? []).map((a) => a.replace(/\$\((\w+)\)/g, (_, v: string) => env[v] ?? '')),
      User: String(security.runAsUser),
      Labels: run.labels,
      HostConfig: {
        NetworkMode: 'none',
        ReadonlyRootfs: security.readOnlyRootFilesystem === true,
        CapDrop: security.capabilities?.drop ?? [],
        SecurityOpt: security.allowPrivilegeEscalation === false ? ['no-new-privileges'] : [],
      },
    });
    await container.start();

    const probe = Buffer.from(encodeProbe({ seq: 7, sentAtMs: 1 })).toString('hex');
    const asked = await run.runToEnd({
      Image: image,
      Entrypoint: ['node', '-e', client],
      Cmd: [probe],
      HostConfig: { NetworkMode: `container:${container.id}` },
    });
    const state = await container.inspect();
    const logs = asked.code === 0 ? '' : (await container.logs({ stdout: true, stderr: true })).toString();
    expect(asked.code, `no echo; the echo pod's output:\n${logs}`).toBe(0);
    expect(state.State.Running).toBe(true);
    const answer = decodeEcho(Buffer.from(asked.stdout.trim(), 'hex'));
    expect(answer).toMatchObject({ seq: 7, server: nodeName });
  }, 120_000);
});
