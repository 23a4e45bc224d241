import { describe, expect, it } from 'vitest';
import {
  arpReply,
  arpRequest,
  decodeFrame,
  encodeFrame,
  solicitedNeighborAdvertisement,
  type ArpFrame,
  type NeighborSolicitationFrame,
} from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';
import type { FramePort } from '../../core/runtime/ports.ts';
import { askNeighbours } from './neighbour-ask.ts';

const client = MacAddress.parse('02:00:00:00:00:0e');
const n1 = MacAddress.parse('02:00:00:00:00:0b');
const n2 = MacAddress.parse('02:00:00:00:00:0c');

/**
 * A segment seen from the client's port: each request sent is decoded and answered by `answer` (the
 * frames the other hosts put on the wire in reply), delivered a little later as a real segment would.
 */
function segment(answer: (request: ReturnType<typeof decodeFrame>) => Uint8Array[]) {
  const listeners = new Set<(f: Uint8Array) => void>();
  const sent: ReturnType<typeof decodeFrame>[] = [];
  const port: FramePort = {
    name: 'eth0',
    mac: client,
    send(bytes) {
      const request = decodeFrame(bytes);
      sent.push(request);
      for (const reply of answer(request))
        setTimeout(() => {
          for (const l of listeners) l(reply);
        }, 5);
    },
    onFrame(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close() {},
  };
  return { port, sent, listeners };
}

describe('askNeighbours', () => {
  it('collects every MAC that answers an ARP who-has within the bound, ignoring other replies and junk', async () => {
    const vip = IpAddress.parse('198.18.0.192');
    const s = segment((request) => {
      const who = request as ArpFrame;
      const other = arpRequest({
        senderMac: client,
        senderIp: who.arp.senderIp,
        targetIp: IpAddress.parse('198.18.0.11'),
      });
      return [
        encodeFrame(arpReply(who, n2)),
        encodeFrame(arpReply(who, n1)),
        // n1 answering for its own address, and a truncated frame: neither says who has the VIP.
        encodeFrame(arpReply(other, n1)),
        new Uint8Array([1, 2, 3]),
      ];
    });
    const macs = await askNeighbours(s.port, {
      source: '198.18.0.14',
      target: vip.toString(),
      ms: 60,
      everyMs: 25,
    });
    expect(macs).toEqual(['02:00:00:00:00:0b', '02:00:00:00:00:0c']);
    // Broadcast who-has from the client, sent again meanwhile; the listener is gone afterwards.
    expect(s.sent.length).toBeGreaterThanOrEqual(2);
    const first = s.sent[0] as ArpFrame;
    expect(first.kind).toBe('arp');
    expect(first.ethernet.dst.toString()).toBe('ff:ff:ff:ff:ff:ff');
    expect(first.arp).toMatchObject({ op: 'request' });
    expect(first.arp.targetIp.toString()).toBe('198.18.0.192');
    expect(first.arp.senderIp.toString()).toBe('198.18.0.14');
    expect(s.listeners.size).toBe(0);
  });

  it('asks IPv6 by a neighbour solicitation to the solicited-node group and names each advertiser', async () => {
    const s = segment((request) => {
      const ns = request as NeighborSolicitationFrame;
      return [encodeFrame(solicitedNeighborAdvertisement({ solicitation: ns, mac: n1 }))];
    });
    const macs = await askNeighbours(s.port, {
      source: '2001:db8::e',
      target: '2001:db8::100',
      ms: 40,
      everyMs: 100,
    });
    expect(macs).toEqual(['02:00:00:00:00:0b']);
    const ns = s.sent[0] as NeighborSolicitationFrame;
    expect(ns.kind).toBe('ns');
    expect(ns.ethernet.dst.toString()).toBe('33:33:ff:00:01:00');
    expect(ns.ns.target.toString()).toBe('2001:db8::100');
  });

  it('answers none when nobody has the address', async () => {
    const s = segment(() => []);
    expect(
      await askNeighbours(s.port, { source: '198.18.0.14', target: '198.18.0.199', ms: 30, everyMs: 10 }),
    ).toEqual([]);
  });
});
