/**
 * IP packets built with room for their Ethernet header in front, so the stack allocates and copies a
 * datagram once on its way from socket to wire instead of once per layer (UDP, IP, Ethernet): at 2000
 * emulated speakers that was a gigabyte of copies in the first quarter second of a mass start. Frames are
 * never written after they are sent, so the receiving side can hand out views into them as well.
 *
 * Frames are carved out of shared slabs (ByteSlabs): most of them live for one link delay.
 */

import { ETHERNET_HEADER_LENGTH, MIN_UNTAGGED_FRAME } from '../../core/l2/wire/index.ts';
import { ByteSlabs } from '../../core/runtime/byte-slab.ts';

/** What the stack marks on its own packets and frames (own properties of those views, nothing else's). */
interface Marked {
  /** The packet's Ethernet header is not written yet. */
  unframed?: boolean;
  /** A packet that came in from the wire (forwarded): its frame is not the stack's own (see builtByStack). */
  forwarded?: boolean;
  /** A frame the stack wrote (see builtByStack). */
  stackBuilt?: boolean;
}

// Slabs of 1 MiB, not ByteSlabs' 64 KiB: a 2000-node emulated node crash peaked at 1643-1653 MB instead
// of 1776-1779 MB, in 72-79 s against 88-91 s (2-3 runs each, same events and outcome).
const frames = new ByteSlabs(1024 * 1024);

/** The untagged frame around a packet of `length` bytes, padded with zeros as encodeEthernet pads it. */
function frameLengthFor(length: number): number {
  return Math.max(MIN_UNTAGGED_FRAME, ETHERNET_HEADER_LENGTH + length);
}

/**
 * A zeroed IP packet of `length` bytes with an Ethernet header's room (and any padding) around it;
 * `forwarded` when it is a copy of a received packet, whose checksums the stack did not write.
 */
export function packetWithHeadroom(length: number, forwarded = false): Uint8Array {
  const packet = frames.take(
    frameLengthFor(length),
    ETHERNET_HEADER_LENGTH,
    ETHERNET_HEADER_LENGTH + length,
  ) as Uint8Array & Marked;
  packet.unframed = true;
  packet.forwarded = forwarded;
  return packet;
}

/**
 * The whole frame around `packet`, its header still to be written, when the packet was made by
 * packetWithHeadroom and not framed before (a packet is framed in place at most once); otherwise
 * undefined (the caller copies).
 */
export function claimFrame(packet: Uint8Array): Uint8Array | undefined {
  const p = packet as Uint8Array & Marked;
  if (p.unframed !== true) return undefined;
  p.unframed = false;
  const start = packet.byteOffset - ETHERNET_HEADER_LENGTH;
  const frame = new Uint8Array(packet.buffer, start, frameLengthFor(packet.length)) as Uint8Array & Marked;
  if (p.forwarded !== true) frame.stackBuilt = true;
  return frame;
}

/**
 * Whether `frame` was framed in place by a host's stack (claimFrame) around a packet it made, whose
 * checksums are right by construction: nothing in the emulator rewrites a frame once sent. The receiving
 * stack need not verify them, as Linux does not for a veth peer's packets (CHECKSUM_UNNECESSARY); frames
 * a packet socket wrote, and packets a router forwarded, are verified as ever.
 */
export function builtByStack(frame: Uint8Array): boolean {
  return (frame as Uint8Array & Marked).stackBuilt === true;
}
