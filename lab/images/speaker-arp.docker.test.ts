/**
 * A speaker from lblab's image on the file source, as its DaemonSet runs it (root, every capability
 * dropped but NET_RAW), on an internal Docker network with a fixed subnet: a client container of the same
 * image asks who has the Service's address with an ARP request sent through lblab's AF_PACKET port, and
 * the speaker's container answers with its own MAC. Nobody answers for a pool address no Service holds,
 * so the answer comes from the speaker's election and not from the network. And as the image's default
 * user a process gets no raw socket even with NET_RAW granted, which is why the speaker runs as root.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wait, type StartedTestContainer } from 'testcontainers';
import { fileURLToPath } from 'node:url';
import { buildImages, type BuiltImages } from './build-images.ts';
import type { DockerEngine } from './docker-engine.ts';
import { AddressedContainer, DockerTestRun, requireDocker, type RunNetwork } from './test-support.ts';

const engine = await requireDocker();
const arpAsk = fileURLToPath(new URL('./arp-ask.docker-child.ts', import.meta.url));

/** The cluster as the controller left it: node n1 at .11, Service lab/web at .200 with a ready endpoint. */
const cluster = (p: string) => `apiVersion: v1
kind: Node
metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
status: { addresses: [{ type: InternalIP, address: ${p}.11 }] }
---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: lab }
spec: { type: LoadBalancer, selector: { app: web }, ports: [{ port: 80, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: ${p}.200 }] } }
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: web-1, namespace: lab, labels: { kubernetes.io/service-name: web } }
addressType: IPv4
endpoints:
  - { addresses: [${p}.50], conditions: { ready: true }, nodeName: n1 }
`;

const metallb = (p: string) => `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [${p}.200/29] }
---
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab] }
`;

type ArpAnswer = { answered: boolean; mac?: string; afterMs?: number; requests: number };

describe.skipIf(engine === 'skip')('a speaker from the image answers ARP on a container network', () => {
  let run: DockerTestRun;
  let built: BuiltImages;
  let lan: RunNetwork;
  let speaker: StartedTestContainer;
  let speakerMac: string;

  beforeAll(async () => {
    run = new DockerTestRun(engine as DockerEngine);
    built = await buildImages({ engine: run.engine, log: (line) => console.log(line) });
    lan = await run.internalNetwork('lan');
    const p = lan.prefix;
    const started = performance.now();
    // As the speaker's DaemonSet runs it: root, every capability dropped but NET_RAW.
    speaker = await new AddressedContainer(built.image.ref)
      .withUser('0')
      .withDroppedCapabilities('ALL')
      .withAddedCapabilities('NET_RAW')
      .withLabels(run.labels)
      .withName(run.name('n1'))
      .withAddress(lan.name, `${p}.11`)
      .withCopyContentToContainer([
        { content: cluster(p), target: '/config/cluster.yaml' },
        { content: metallb(p), target: '/config/metallb.yaml' },
      ])
      .withCommand([
        'speaker',
        '--node',
        'n1',
        '--cluster',
        '/config/cluster.yaml',
        '--config',
        '/config/metallb.yaml',
      ])
      .withWaitStrategy(
        Wait.forLogMessage(new RegExp(`announcer: took-over ${p.replace(/\./g, '\\.')}\\.200 on eth0`)),
      )
      .withStartupTimeout(60_000)
      .start();
    console.log(
      `speaker container announcing ${p}.200 ${Math.round(performance.now() - started)} ms after start`,
    );
    const info = await run.engine.docker.getContainer(speaker.getId()).inspect();
    speakerMac = info.NetworkSettings.Networks[lan.name]!.MacAddress;
  });
  afterAll(async () => {
    await run?.removeAll();
  });

  /**
   * Runs the ARP probe in a client container of the same image at .100 on the same network, with the
   * speaker's capabilities, and returns its one-line answer.
   */
  async function ask(target: string, timeoutMs: number): Promise<ArpAnswer> {
    const p = lan.prefix;
    const probe = '/app/lab/images/arp-ask.docker-child.ts';
    const ended = await run.runToEnd({
      Image: built.image.ref,
      User: '0',
      Entrypoint: ['node', '--import', 'tsx', probe],
      Cmd: ['eth0', `${p}.100`, target, String(timeoutMs)],
      HostConfig: {
        NetworkMode: lan.name,
        CapDrop: ['ALL'],
        CapAdd: ['NET_RAW'],
        Binds: [`${arpAsk}:${probe}:ro`],
      },
      NetworkingConfig: { EndpointsConfig: { [lan.name]: { IPAMConfig: { IPv4Address: `${p}.100` } } } },
    });
    expect(ended, ended.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(ended.stdout) as ArpAnswer;
  }

  it("answers a client's ARP request for the Service address with the speaker container's MAC", async () => {
    const answer = await ask(`${lan.prefix}.200`, 5_000);
    console.log(`ARP answer for ${lan.prefix}.200: ${JSON.stringify(answer)}`);
    expect(answer).toMatchObject({ answered: true, mac: speakerMac });
  });

  it("gives the image's default user no raw socket even with NET_RAW granted: the speaker must run as root", async () => {
    // Docker, like Kubernetes, grants a non-root process no capabilities (no ambient set): what the
    // speaker's DaemonSet must know. The probe opens the same AF_PACKET port the speaker does.
    const probe = '/app/lab/images/arp-ask.docker-child.ts';
    const ended = await run.runToEnd({
      Image: built.image.ref,
      Entrypoint: ['node', '--import', 'tsx', probe],
      Cmd: ['lo', '127.0.0.1', '127.0.0.2', '100'],
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        CapAdd: ['NET_RAW'],
        Binds: [`${arpAsk}:${probe}:ro`],
      },
    });
    expect(ended.code).toBe(1);
    expect(ended.stdout).toContain('needs CAP_NET_RAW');
  });

  it('leaves unanswered a pool address that no Service holds', async () => {
    const answer = await ask(`${lan.prefix}.201`, 1_000);
    expect(answer.answered).toBe(false);
    expect(answer.requests).toBeGreaterThanOrEqual(5); // asked every 100 ms for the whole second
  });
});
