/**
 * Real `lblab speaker` processes on the kernel, scraped as Prometheus scrapes them: over HTTP on port
 * 7472 of each node's address, from a host on the node network. What a MetalLB dashboard shows must be
 * true of the data plane: the node the client's ARP entry points at is the one that says it announces the
 * address and counts the client's requests; after that node dies, its successor says it took the address
 * over because a node died, and counts its announcements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, valueOf, type Family } from '../../../core/metrics/prometheus-text.test-support.ts';
import { expectedOwner, L2Lab, nodeNames, vip4, vip6, type NodeName } from './l2-lab.test-support.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GETs a URL from inside the client's namespace. */
const fetcher = `fetch(process.argv[1]).then(async (r) => console.log(JSON.stringify({ status: r.status, body: await r.text() })))`;

describe.skipIf(mode === 'skip')('lblab speaker metrics on the real kernel', () => {
  let l2: L2Lab;
  beforeAll(async () => {
    l2 = await L2Lab.create();
  }, 60_000);
  afterAll(async () => {
    await l2?.destroy();
  });

  async function get(node: NodeName, path: string): Promise<{ status: number; body: string }> {
    const out = await l2.client.exec(['node', '-e', fetcher, `http://${l2.address(node)}:7472${path}`], {
      timeoutMs: 10_000,
    });
    return JSON.parse(out) as { status: number; body: string };
  }

  async function scrape(node: NodeName): Promise<Map<string, Family>> {
    const r = await get(node, '/metrics');
    expect(r.status).toBe(200);
    return parseExposition(r.body);
  }

  const announced = (f: Map<string, Family>, node: NodeName, ip: string) =>
    valueOf(f, 'metallb_speaker_announced', { service: 'lab/web', protocol: 'layer2', node, ip });

  it('the owner the client reaches says it announces both addresses and counts the client’s ARP requests', async () => {
    await l2.settled(vip4, 20_000);
    await l2.serving(vip6, 5_000);
    const owner = expectedOwner(nodeNames, vip4);
    expect(await l2.clientNeighbour(vip4)).toBe(l2.macs.get(owner));
    for (const node of nodeNames) {
      expect(await get(node, '/readyz')).toEqual({ status: 200, body: 'ok\n' });
      expect((await get(node, '/healthz')).status).toBe(200);
      const f = await scrape(node);
      expect(valueOf(f, 'lblab_membership_members', { state: 'alive' })).toBe(3);
      expect(valueOf(f, 'metallb_k8s_client_config_loaded_bool')).toBe(1);
      // V8's young generation stays small, so no scavenge stops the speaker for long
      // (core/runtime/young-generation.mjs); loading the modules alone grows it to 16 MiB when left alone.
      expect(valueOf(f, 'nodejs_heap_space_size_total_bytes', { space: 'new' })).toBeLessThanOrEqual(
        4 * 2 ** 20,
      );
      if (node !== owner) {
        expect(announced(f, node, vip4)).toBeUndefined();
        continue;
      }
      expect(announced(f, node, vip4)).toBe(1);
      expect(announced(f, node, vip6)).toBe(1);
      // The client resolved the address at least once (its first probe), and was answered.
      expect(valueOf(f, 'metallb_layer2_requests_received', { ip: vip4 })).toBeGreaterThanOrEqual(1);
      expect(valueOf(f, 'metallb_layer2_responses_sent', { ip: vip4 })).toBeGreaterThanOrEqual(1);
      // Takeover at once plus the burst, each a request and a reply; an NA each for IPv6.
      expect(valueOf(f, 'metallb_layer2_gratuitous_sent', { ip: vip4 })).toBeGreaterThanOrEqual(8);
      expect(valueOf(f, 'metallb_layer2_gratuitous_sent', { ip: vip6 })).toBeGreaterThanOrEqual(4);
    }
  }, 60_000);

  it('after the owner dies its successor shows the takeover, caused by a dead node, and the dead member', async () => {
    const owner = expectedOwner(nodeNames, vip4);
    const successor = expectedOwner(
      nodeNames.filter((n) => n !== owner),
      vip4,
    );
    await l2.stopSpeaker(owner, 'SIGKILL');
    await l2.nodes.get(owner)!.linkDown('eth0');
    await sleep(1500);
    expect(await l2.clientNeighbour(vip4)).toBe(l2.macs.get(successor));
    const f = await scrape(successor);
    expect(announced(f, successor, vip4)).toBe(1);
    expect(
      valueOf(f, 'lblab_l2_ownership_changes_total', { change: 'gained', reason: 'node-dead' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(f, 'lblab_membership_detections_total', { kind: 'silence' })).toBe(1);
    expect(valueOf(f, 'lblab_membership_members', { state: 'dead' })).toBe(1);
    expect(valueOf(f, 'metallb_layer2_gratuitous_sent', { ip: vip4 })).toBeGreaterThanOrEqual(8);
  }, 30_000);
});
