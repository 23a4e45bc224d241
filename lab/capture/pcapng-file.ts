import { FileReader } from './byte-order.ts';
import { CaptureFormatError } from './errors.ts';
import type { CaptureInterface, PacketRecord } from './records.ts';
import { MICROSECONDS, captureTime, type TimestampResolution } from './timestamp.ts';

// pcapng (draft-ietf-opsawg-pcapng). Section numbers below are that draft's.

const SECTION_HEADER = 0x0a0d0d0a;
const INTERFACE_DESCRIPTION = 0x00000001;
const SIMPLE_PACKET = 0x00000003;
const ENHANCED_PACKET = 0x00000006;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

const OPT_END = 0;
const IF_NAME = 2;
const IF_TSRESOL = 9;
const IF_TSOFFSET = 14;

/** True when `bytes` starts with a Section Header Block (its type reads the same in both byte orders). */
export function isPcapng(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x0a && bytes[1] === 0x0d && bytes[2] === 0x0d && bytes[3] === 0x0a
  );
}

interface SectionInterface {
  readonly iface: CaptureInterface;
  readonly resolution: TimestampResolution;
  readonly offsetSeconds: bigint;
  readonly snapLength: number;
}

/** Reads the packets of a pcapng file in order, across sections; throws CaptureFormatError where it is cut. */
export function* pcapngRecords(
  bytes: Uint8Array,
  file: string,
  onInterface: (i: CaptureInterface) => void,
): Generator<PacketRecord> {
  const r = new FileReader(bytes, file, true);
  // Interfaces are numbered per section (§4.2: "the first IDB in a section has ID 0").
  let section: SectionInterface[] | undefined;
  let skippingSection = false;
  let interfaceCount = 0;
  let frame = 0;
  for (let at = 0; at < r.length;) {
    r.need(at, 8, 'a block header');
    const isSection =
      bytes[at] === 0x0a && bytes[at + 1] === 0x0d && bytes[at + 2] === 0x0d && bytes[at + 3] === 0x0a;
    if (isSection) {
      // §4.1: the byte-order magic, not the block type, says how the whole section is written.
      r.need(at, 12, 'the Section Header Block');
      const bom = new DataView(bytes.buffer, bytes.byteOffset + at + 8, 4);
      if (bom.getUint32(0, true) === BYTE_ORDER_MAGIC) r.littleEndian = true;
      else if (bom.getUint32(0, false) === BYTE_ORDER_MAGIC) r.littleEndian = false;
      else throw new CaptureFormatError(file, at + 8, 'Section Header Block without the byte-order magic');
    } else if (section === undefined) {
      // §3.4: "The file MUST begin with a Section Header Block."
      throw new CaptureFormatError(file, at, 'not a pcapng file (no Section Header Block first)');
    }
    const type = r.u32(at, 'the block type');
    const total = r.u32(at + 4, 'the block total length');
    // §3.1: the total length counts type, both lengths and the body, and "MUST be a multiple of 4".
    if (total < 12 || total % 4 !== 0) {
      throw new CaptureFormatError(file, at + 4, `block total length ${total} is not a multiple of 4 ≥ 12`);
    }
    r.need(at, total, `a block of type 0x${type.toString(16)} (${total} bytes)`);
    const trailer = r.u32(at + total - 4, 'the trailing block length');
    if (trailer !== total) {
      throw new CaptureFormatError(
        file,
        at + total - 4,
        `trailing block length ${trailer} differs from the leading ${total}`,
      );
    }
    const body = at + 8;
    const end = at + total - 4;
    if (type === SECTION_HEADER) {
      const major = r.u16(body + 4, 'the section version');
      // §3.4: a reader that does not know a section's version "MUST skip everything until the next SHB".
      skippingSection = major !== 1;
      section = [];
    } else if (!skippingSection && section !== undefined) {
      if (type === INTERFACE_DESCRIPTION) {
        const s = interfaceBlock(r, body, end, interfaceCount++);
        section.push(s);
        onInterface(s.iface);
      } else if (type === ENHANCED_PACKET) {
        yield enhancedPacket(r, at, body, end, section, ++frame);
      } else if (type === SIMPLE_PACKET) {
        yield simplePacket(r, at, body, end, section, ++frame);
      }
      // §3.1: every other block (statistics, name resolution, custom, obsolete packet block) is skipped
      // by its length: "A parser that does not understand them can simply ignore their content."
    }
    at += total;
  }
}

function interfaceBlock(r: FileReader, body: number, end: number, id: number): SectionInterface {
  // §4.2: LinkType(16) Reserved(16) SnapLen(32) Options.
  const linkType = r.u16(body, 'the interface link type');
  const snapLength = r.u32(body + 4, 'the interface snap length');
  let name: string | undefined;
  // §4.2 if_tsresol: "If this option is not present, a resolution of 10^-6 is assumed".
  let resolution = MICROSECONDS;
  let offsetSeconds = 0n;
  for (const o of options(r, body + 8, end)) {
    if (o.code === IF_NAME) name = new TextDecoder().decode(o.value);
    if (o.code === IF_TSRESOL && o.value.length >= 1) {
      const v = o.value[0] ?? 6;
      // §4.2 if_tsresol: most significant bit 0 → 10^-v; 1 → 2^-(v & 0x7f).
      resolution = (v & 0x80) === 0 ? { base: 10, exponent: v } : { base: 2, exponent: v & 0x7f };
    }
    if (o.code === IF_TSOFFSET && o.value.length >= 8) offsetSeconds = r.i64(o.at, 'if_tsoffset');
  }
  const iface: CaptureInterface = {
    id,
    linkType,
    digits: resolution.exponent,
    ...(name !== undefined && { name }),
  };
  return { iface, resolution, offsetSeconds, snapLength };
}

function enhancedPacket(
  r: FileReader,
  at: number,
  body: number,
  end: number,
  section: readonly SectionInterface[],
  frame: number,
): PacketRecord {
  // §4.3: InterfaceID(32) Timestamp high(32) low(32) CapturedLen(32) OriginalLen(32) Data Options.
  r.need(body, 20, 'the Enhanced Packet Block header');
  const id = r.u32(body, 'the interface id');
  const s = section[id];
  // §4.3: "The interface ID MUST be valid, which means that an matching interface description block MUST exist."
  if (s === undefined) {
    throw new CaptureFormatError(
      r.file,
      body,
      `packet on interface ${id}, which no Interface Description Block declared`,
    );
  }
  const units =
    (BigInt(r.u32(body + 4, 'timestamp (high)')) << 32n) | BigInt(r.u32(body + 8, 'timestamp (low)'));
  const captured = r.u32(body + 12, 'the captured length');
  const original = r.u32(body + 16, 'the original length');
  if (body + 20 + captured > end) {
    throw new CaptureFormatError(
      r.file,
      body + 12,
      `captured length ${captured} runs past the end of its block`,
    );
  }
  return {
    frame,
    offset: at,
    interface: s.iface,
    time: captureTime(units, s.resolution, s.offsetSeconds),
    data: r.slice(body + 20, captured, 'packet data'),
    originalLength: original,
  };
}

function simplePacket(
  r: FileReader,
  at: number,
  body: number,
  end: number,
  section: readonly SectionInterface[],
  frame: number,
): PacketRecord {
  // §4.4: OriginalLen(32) Data. The packet belongs to the first interface and has no timestamp.
  const s = section[0];
  if (s === undefined) {
    throw new CaptureFormatError(r.file, at, 'Simple Packet Block before any Interface Description Block');
  }
  const original = r.u32(body, 'the original length');
  // §4.4: the captured length is not stored; it is the smaller of the original length and the snap length
  // (0 means no limit), and never more than the block holds.
  const limit = s.snapLength === 0 ? original : Math.min(original, s.snapLength);
  const captured = Math.min(limit, end - (body + 4));
  return {
    frame,
    offset: at,
    interface: s.iface,
    time: undefined,
    data: r.slice(body + 4, captured, 'packet data'),
    originalLength: original,
  };
}

interface BlockOption {
  readonly code: number;
  /** File offset of the value. */
  readonly at: number;
  readonly value: Uint8Array;
}

/** §3.5: options are code(16) length(16) value padded to 32 bits, ended by opt_endofopt or the block end. */
function options(r: FileReader, start: number, end: number): BlockOption[] {
  const out: BlockOption[] = [];
  for (let at = start; at + 4 <= end;) {
    const code = r.u16(at, 'an option code');
    const length = r.u16(at + 2, 'an option length');
    if (code === OPT_END) break;
    if (at + 4 + length > end) {
      throw new CaptureFormatError(r.file, at + 2, `option ${code} of ${length} bytes runs past its block`);
    }
    out.push({ code, at: at + 4, value: r.slice(at + 4, length, 'an option value') });
    at += 4 + Math.ceil(length / 4) * 4;
  }
  return out;
}
