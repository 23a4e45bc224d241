/** UDP datagrams out of a tcpdump capture, as an attacker on the segment would have recorded them. */
import { readFile } from 'node:fs/promises';
import { ipPacket, PROTOCOL_UDP } from '../../capture/ip-packet.ts';
import { linkPayload } from '../../capture/link-layer.ts';
import { pcapRecords } from '../../capture/pcap-file.ts';
import { timeNs } from '../../capture/timestamp.ts';

export interface RecordedDatagram {
  from: string;
  to: string;
  port: number;
  /** Milliseconds since the first datagram of the capture. */
  atMs: number;
  hex: string;
}

/** Every UDP/IPv4 datagram in a classic pcap file, with its destination and time. */
export async function recordedDatagrams(path: string): Promise<RecordedDatagram[]> {
  const bytes = await readFile(path);
  let linkType = 1;
  const out: RecordedDatagram[] = [];
  let first: bigint | undefined;
  for (const r of pcapRecords(bytes, path, (i) => (linkType = i.linkType))) {
    const link = linkPayload(linkType, r.data);
    const ip = link && ipPacket(link.etherType, link.payload);
    if (!ip || ip.protocol !== PROTOCOL_UDP || ip.payload.length < 8) continue;
    const view = new DataView(ip.payload.buffer, ip.payload.byteOffset, ip.payload.byteLength);
    const ns = r.time === undefined ? 0n : timeNs(r.time);
    first ??= ns;
    out.push({
      from: ip.src.toString(),
      to: ip.dst.toString(),
      port: view.getUint16(2),
      atMs: Number(ns - first) / 1e6,
      hex: Buffer.from(ip.payload.subarray(8)).toString('hex'),
    });
  }
  return out;
}
