// Test helpers for lab/sim: a small LAN and trace capture. Test-only, not exported.
import {
  arpRequest,
  decodeFrame,
  encodeFrame,
  gratuitousArp,
  unsolicitedNeighborAdvertisement,
} from '../../core/l2/wire/index.ts';
import type { Frame } from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';
import type { AttachOptions } from './interface.ts';
import { Network, type NetworkOptions } from './network.ts';
import type { TraceEvent } from './trace.ts';

export const v4 = (i: number) => `198.18.0.${i}`;
export const v6 = (i: number) => `2001:db8::${i.toString(16)}`;

/** Hosts h1..hn on segment "lan", host i at 198.18.0.(10+i)/24 and 2001:db8::(10+i)/64, MAC 02:00:00:00:00:(i). */
export function lan(n: number, options: NetworkOptions = {}, attach: Partial<AttachOptions> = {}) {
  const net = new Network(options);
  const hosts = Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const h = net.host(`h${i}`);
    h.attach('eth0', 'lan', {
      mac: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
      ipv4: `${v4(10 + i)}/24`,
      ipv6: `${v6(10 + i)}/64`,
      ...attach,
    });
    return h;
  });
  return { net, hosts };
}

/** Every trace event from now on. */
export function record(net: Network): TraceEvent[] {
  const events: TraceEvent[] = [];
  net.onTrace((e) => events.push(e));
  return events;
}

/** Frames of `kind` a host received, decoded. */
export function received(events: readonly TraceEvent[], host: string): Frame[] {
  return events.flatMap((e) =>
    e.kind === 'frame' && e.action === 'delivered' && e.host === host ? [decodeFrame(e.bytes)] : [],
  );
}

/** A gratuitous ARP (request form unless told) announcing `ip` at `mac`. */
export function garp(ip: string, mac: string, form: 'request' | 'reply' = 'request'): Uint8Array {
  return encodeFrame(gratuitousArp({ ip: IpAddress.parse(ip), mac: MacAddress.parse(mac), form }));
}

/** An unsolicited NA with Override for `ip` at `mac`, to all-nodes. */
export function unsolicitedNa(ip: string, mac: string): Uint8Array {
  return encodeFrame(
    unsolicitedNeighborAdvertisement({ target: IpAddress.parse(ip), mac: MacAddress.parse(mac) }),
  );
}

/** Sends one small datagram from `host` to `ip` port 9 (nothing listens: only the neighbour cache matters). */
export function poke(
  host: {
    udp(address: string, port: number): { send(to: { address: string; port: number }, p: Uint8Array): void };
  },
  ip: string,
): void {
  const wildcard = ip.includes(':') ? '::' : '0.0.0.0';
  host.udp(wildcard, 0).send({ address: ip, port: 9 }, new Uint8Array(1));
}

/** Neighbour transitions recorded for `host`'s entry for `ip`, as [time, state]. */
export function transitions(events: readonly TraceEvent[], host: string, ip: string): [number, string][] {
  return events.flatMap((e) =>
    e.kind === 'neighbour' && e.host === host && e.ip === ip ? [[e.atMs, e.to] as [number, string]] : [],
  );
}

/** Frames `host` sent, decoded, with their send time. */
export function sent(events: readonly TraceEvent[], host: string): { atMs: number; frame: Frame }[] {
  return events.flatMap((e) =>
    e.kind === 'frame' && e.action === 'sent' && e.host === host
      ? [{ atMs: e.atMs, frame: decodeFrame(e.bytes) }]
      : [],
  );
}

/** A broadcast ARP request from `senderIp` at `senderMac` asking for `targetIp`. */
export function arpFrom(senderIp: string, senderMac: string, targetIp: string): Uint8Array {
  return encodeFrame(
    arpRequest({
      senderIp: IpAddress.parse(senderIp),
      senderMac: MacAddress.parse(senderMac),
      targetIp: IpAddress.parse(targetIp),
    }),
  );
}
