// Writes pcap and pcapng files byte by byte for the tests, independently of the readers under test.

/** Little-endian or big-endian integer writer. */
class Out {
  private readonly parts: number[] = [];
  constructor(private readonly le: boolean) {}
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    const b = [(v >> 8) & 0xff, v & 0xff];
    this.parts.push(...(this.le ? b.reverse() : b));
    return this;
  }
  u32(v: number): this {
    const b = [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
    this.parts.push(...(this.le ? b.reverse() : b));
    return this;
  }
  u64(v: bigint): this {
    const hi = Number(v >> 32n);
    const lo = Number(v & 0xffffffffn);
    return this.le ? this.u32(lo).u32(hi) : this.u32(hi).u32(lo);
  }
  bytes(b: Uint8Array | readonly number[]): this {
    this.parts.push(...b);
    return this;
  }
  pad4(): this {
    while (this.parts.length % 4 !== 0) this.parts.push(0);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export interface PcapPacket {
  seconds: number;
  /** Microseconds or nanoseconds, as the file's magic says. */
  fraction: number;
  data: Uint8Array;
  originalLength?: number;
}

/** A classic pcap file. */
export function pcapFile(
  packets: readonly PcapPacket[],
  o: { nano?: boolean; littleEndian?: boolean; linkType?: number } = {},
): Uint8Array {
  const w = new Out(o.littleEndian ?? true);
  w.u32(o.nano ? 0xa1b23c4d : 0xa1b2c3d4)
    .u16(2)
    .u16(4)
    .u32(0)
    .u32(0)
    .u32(262144)
    .u32(o.linkType ?? 1);
  for (const p of packets) {
    w.u32(p.seconds)
      .u32(p.fraction)
      .u32(p.data.length)
      .u32(p.originalLength ?? p.data.length)
      .bytes(p.data);
  }
  return w.done();
}

/** Builds a pcapng file block by block in one byte order. */
export class PcapngWriter {
  private readonly blocks: Uint8Array[] = [];
  constructor(private readonly le = true) {}

  private block(type: number, body: Uint8Array): this {
    const total = 12 + Math.ceil(body.length / 4) * 4;
    const w = new Out(this.le).u32(type).u32(total).bytes(body).pad4().u32(total);
    this.blocks.push(w.done());
    return this;
  }

  section(o: { major?: number } = {}): this {
    const body = new Out(this.le)
      .u32(0x1a2b3c4d)
      .u16(o.major ?? 1)
      .u16(0)
      .u64(0xffffffffffffffffn)
      .done();
    return this.block(0x0a0d0d0a, body);
  }

  /** `tsresol` is the raw if_tsresol byte (6, 9, 0x80 | n). */
  interface(o: {
    linkType?: number;
    name?: string;
    tsresol?: number;
    tsoffset?: bigint;
    snapLength?: number;
  }): this {
    const w = new Out(this.le)
      .u16(o.linkType ?? 1)
      .u16(0)
      .u32(o.snapLength ?? 0);
    const option = (code: number, value: Uint8Array) => w.u16(code).u16(value.length).bytes(value).pad4();
    if (o.name !== undefined) option(2, new TextEncoder().encode(o.name));
    if (o.tsresol !== undefined) option(9, Uint8Array.of(o.tsresol));
    if (o.tsoffset !== undefined) option(14, new Out(this.le).u64(o.tsoffset).done());
    w.u16(0).u16(0);
    return this.block(1, w.done());
  }

  packet(interfaceId: number, units: bigint, data: Uint8Array, originalLength = data.length): this {
    const body = new Out(this.le)
      .u32(interfaceId)
      // §4.3: the timestamp is two 32-bit words, high first, each in the section's byte order.
      .u32(Number(units >> 32n))
      .u32(Number(units & 0xffffffffn))
      .u32(data.length)
      .u32(originalLength)
      .bytes(data)
      .pad4()
      .done();
    return this.block(6, body);
  }

  simplePacket(data: Uint8Array, originalLength = data.length): this {
    return this.block(3, new Out(this.le).u32(originalLength).bytes(data).done());
  }

  other(type: number, body: Uint8Array): this {
    return this.block(type, body);
  }

  done(): Uint8Array {
    const out = new Uint8Array(this.blocks.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of this.blocks) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }
}
