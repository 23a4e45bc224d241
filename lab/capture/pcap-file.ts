import { FileReader } from './byte-order.ts';
import { CaptureFormatError } from './errors.ts';
import type { CaptureInterface, PacketRecord } from './records.ts';
import { MICROSECONDS, NANOSECONDS, captureTime } from './timestamp.ts';

// The classic libpcap format (draft-ietf-opsawg-pcap §4): a 24-byte file header, then records of a 16-byte
// header and the captured bytes. The magic number says both the byte order and the timestamp unit.

const MAGIC_MICROSECONDS = 0xa1b2c3d4;
const MAGIC_NANOSECONDS = 0xa1b23c4d;
const FILE_HEADER = 24;
const RECORD_HEADER = 16;
/** Larger than any snap length libpcap writes (262144): a bigger record length means a corrupt file. */
const MAX_RECORD = 0x4000000;

/** True when `bytes` starts with a classic pcap magic number, in either byte order. */
export function isPcap(bytes: Uint8Array): boolean {
  return magicOf(bytes) !== undefined;
}

function magicOf(bytes: Uint8Array): { littleEndian: boolean; nanoseconds: boolean } | undefined {
  if (bytes.length < 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 4);
  for (const littleEndian of [true, false]) {
    const magic = view.getUint32(0, littleEndian);
    if (magic === MAGIC_MICROSECONDS) return { littleEndian, nanoseconds: false };
    if (magic === MAGIC_NANOSECONDS) return { littleEndian, nanoseconds: true };
  }
  return undefined;
}

/** Reads the packet records of a classic pcap file in order; throws CaptureFormatError where it is cut. */
export function* pcapRecords(
  bytes: Uint8Array,
  file: string,
  onInterface: (i: CaptureInterface) => void,
): Generator<PacketRecord> {
  const magic = magicOf(bytes);
  if (magic === undefined) throw new CaptureFormatError(file, 0, 'not a pcap file (unknown magic number)');
  const r = new FileReader(bytes, file, magic.littleEndian);
  r.need(0, FILE_HEADER, 'the pcap file header');
  const major = r.u16(4, 'the version');
  if (major !== 2) throw new CaptureFormatError(file, 4, `pcap version ${major}, only version 2 is known`);
  // draft-ietf-opsawg-pcap §4: the low 16 bits are the link type; the upper bits may carry FCS information.
  const linkType = r.u32(20, 'the link type') & 0xffff;
  const resolution = magic.nanoseconds ? NANOSECONDS : MICROSECONDS;
  const iface: CaptureInterface = { id: 0, linkType, digits: resolution.exponent };
  onInterface(iface);
  const perSecond = magic.nanoseconds ? 1_000_000_000n : 1_000_000n;
  let frame = 0;
  for (let at = FILE_HEADER; at < r.length;) {
    r.need(at, RECORD_HEADER, `the header of packet record ${frame + 1}`);
    const seconds = BigInt(r.u32(at, 'ts_sec'));
    const fraction = BigInt(r.u32(at + 4, 'ts_frac'));
    const captured = r.u32(at + 8, 'incl_len');
    const original = r.u32(at + 12, 'orig_len');
    if (fraction >= perSecond) {
      throw new CaptureFormatError(file, at + 4, `sub-second field ${fraction} is not below ${perSecond}`);
    }
    if (captured > MAX_RECORD) {
      throw new CaptureFormatError(file, at + 8, `captured length ${captured} is not plausible`);
    }
    const data = r.slice(at + RECORD_HEADER, captured, `packet record ${frame + 1} (${captured} bytes)`);
    yield {
      frame: ++frame,
      offset: at,
      interface: iface,
      time: captureTime(seconds * perSecond + fraction, resolution),
      data,
      originalLength: original,
    };
    at += RECORD_HEADER + captured;
  }
}
