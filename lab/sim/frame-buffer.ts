/**
 * IP packets built with room for their Ethernet header in front, so the stack allocates and copies a
 * datagram once on its way from socket to wire instead of once per layer (UDP, IP, Ethernet): at 2000
 * emulated speakers that was a gigabyte of copies in the first quarter second of a mass start. Frames are
 * never written after they are sent, so the receiving side can hand out views into them as well.
 */

const ETHERNET_HEADER = 14;
/** IEEE 802.3 minimum frame (without FCS): shorter frames are padded with zeros, as encodeEthernet does. */
const MIN_FRAME = 60;

/**
 * The buffer holds one byte past the frame: zero while the headroom is free, one once the packet was
 * framed (a packet is framed in place at most once). No other buffer in the emulator has that shape, and
 * a mark in the buffer costs nothing where a WeakSet of buffers cost 5 % of a 1000-node run.
 */
function bufferLength(packetLength: number): number {
  return Math.max(MIN_FRAME, ETHERNET_HEADER + packetLength) + 1;
}

/** A zeroed IP packet of `length` bytes with an Ethernet header's room (and any padding) around it. */
export function packetWithHeadroom(length: number): Uint8Array {
  return new Uint8Array(bufferLength(length)).subarray(ETHERNET_HEADER, ETHERNET_HEADER + length);
}

/**
 * The whole frame around `packet`, its header still to be written, when the packet was made by
 * packetWithHeadroom and not framed before; otherwise undefined (the caller copies).
 */
export function claimFrame(packet: Uint8Array): Uint8Array | undefined {
  const buffer = packet.buffer;
  const mark = buffer.byteLength - 1;
  if (packet.byteOffset !== ETHERNET_HEADER || buffer.byteLength !== bufferLength(packet.length))
    return undefined;
  const whole = new Uint8Array(buffer);
  if (whole[mark] !== 0) return undefined;
  whole[mark] = 1;
  return whole.subarray(0, mark);
}

/**
 * Whether `frame` was framed in place by a host's stack (claimFrame), whose checksums are right by
 * construction: nothing in the emulator rewrites a frame once sent. The receiving stack need not verify
 * them, as Linux does not for a veth peer's packets (CHECKSUM_UNNECESSARY); frames a packet socket wrote
 * are verified as ever.
 */
export function builtByStack(frame: Uint8Array): boolean {
  const buffer = frame.buffer;
  return (
    frame.byteOffset === 0 &&
    buffer.byteLength === frame.length + 1 &&
    new Uint8Array(buffer, frame.length, 1)[0] === 1
  );
}
