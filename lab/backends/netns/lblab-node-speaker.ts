/**
 * `lblab speaker` as the node speaker of a DetectionLab: one Service whose address is the node's /32,
 * a BGPPeer to r1 with a BFDProfile of the lab's timers, and the speaker process in the node's
 * namespace, so a silent death is measured exactly as for the FRR baseline.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BfdOptions } from '../../sut/router.ts';
import type { NodeContext, NodeSpeaker, StartNodeSpeaker } from './detection-lab.ts';
import { spawnSpeaker } from './speaker-process.ts';

/** How long a stopped speaker may take to leave before it is killed. */
const STOP_WAIT_MS = 5000;

export const lblabNodeSpeaker: StartNodeSpeaker = async (n) => {
  await writeFile(join(n.dir, 'cluster.yaml'), clusterYaml(n));
  await writeFile(join(n.dir, 'metallb.yaml'), metallbYaml(n));
  const child = spawnSpeaker(n.ns, n.name, n.dir);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const speaker: NodeSpeaker = {
    pids: () => (child.pid === undefined ? [] : [child.pid]),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  return speaker;
};

function vip(n: NodeContext): string {
  return n.prefix.split('/')[0]!;
}

function clusterYaml(n: NodeContext): string {
  return `apiVersion: v1
kind: Node
metadata: { name: ${n.name} }
status: { addresses: [{ type: InternalIP, address: ${n.address} }] }
---
apiVersion: v1
kind: Service
metadata: { name: svc-${n.name}, namespace: lab }
spec: { type: LoadBalancer, ports: [{ port: 80, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: ${vip(n)} }] } }
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: svc-${n.name}-1, namespace: lab, labels: { kubernetes.io/service-name: svc-${n.name} } }
addressType: IPv4
endpoints:
  - { addresses: [198.19.0.1], conditions: { ready: true }, nodeName: ${n.name} }
`;
}

function metallbYaml(n: NodeContext): string {
  return `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [${n.prefix}] }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab] }
---
apiVersion: metallb.io/v1beta1
kind: BFDProfile
metadata: { name: lab, namespace: metallb-system }
spec: ${bfdProfileSpec(n.bfd)}
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r1, namespace: metallb-system }
spec: { myASN: ${n.asn}, peerASN: ${n.routerAsn}, peerAddress: ${n.routerAddress}, holdTime: 9s, keepaliveTime: 3s, connectTime: 1s, bfdProfile: lab }
`;
}

/** The MetalLB BFDProfile spec for the lab's BFD options (echo and passive as MetalLB spells them). */
export function bfdProfileSpec(b: BfdOptions): string {
  const fields = [
    `receiveInterval: ${b.receiveMs}`,
    `transmitInterval: ${b.transmitMs}`,
    `detectMultiplier: ${b.multiplier}`,
    ...(b.passive ? ['passiveMode: true'] : []),
    ...(b.minimumTtl !== undefined ? [`minimumTtl: ${b.minimumTtl}`] : []),
    ...(b.echo ? ['echoMode: true', `echoInterval: ${b.echo.transmitMs}`] : []),
  ];
  return `{ ${fields.join(', ')} }`;
}
