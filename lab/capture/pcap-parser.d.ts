// pcap-parser 0.2.1 ships no types; this is the part lab/capture/pcap-file.ts uses, as lib/pcap-parser.js
// defines it. Integers are read in the byte order the magic number gave; nothing else is validated.
declare module 'pcap-parser' {
  import type { EventEmitter } from 'node:events';

  export interface GlobalHeader {
    magicNumber: number;
    majorVersion: number;
    minorVersion: number;
    gmtOffset: number;
    timestampAccuracy: number;
    snapshotLength: number;
    /** All 32 bits of the header's link type field. */
    linkLayerType: number;
  }

  export interface PacketHeader {
    timestampSeconds: number;
    /** The sub-second field as stored; pcap-parser does not check its range. */
    timestampMicroseconds: number;
    capturedLength: number;
    originalLength: number;
  }

  export interface Packet {
    header: PacketHeader;
    /** A slice of the parser's buffer: a Buffer, with Buffer's toJSON. */
    data: Buffer;
  }

  /** What parse() reads from besides a path: its 'data' events of Buffers (it calls pause and resume). */
  export interface PcapInput {
    on(event: 'data', listener: (chunk: Buffer) => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
    on(event: 'end', listener: () => void): unknown;
    pause(): unknown;
    resume(): unknown;
  }

  /**
   * Emits globalHeader once, then packetHeader as soon as a record header is complete and packet once its
   * data is; bytes that end inside a record are dropped silently at 'end'. 'error' only for a magic number
   * other than microsecond pcap's, or a version that is neither major 2 nor minor 4.
   */
  export interface Parser extends EventEmitter {
    on(event: 'globalHeader', listener: (header: GlobalHeader) => void): this;
    on(event: 'packetHeader', listener: (header: PacketHeader) => void): this;
    on(event: 'packet', listener: (packet: Packet) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'end', listener: () => void): this;
  }

  export function parse(input: string | PcapInput): Parser;
}
