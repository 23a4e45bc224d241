/**
 * The lab's UDP echo probe. A probe carries a magic, a sequence number and the client's send time; the
 * server echoes it and appends its own name, so the client knows which node served each probe.
 */
const magic = 0x4c424c50; // "LBLP"
const headerLength = 16;

export interface Probe {
  seq: number;
  sentAtMs: number;
}

export interface Echo extends Probe {
  server: string;
}

export function encodeProbe(p: Probe): Uint8Array {
  const out = new Uint8Array(headerLength);
  writeU32(out, 0, magic);
  writeU32(out, 4, p.seq);
  float.setFloat64(0, p.sentAtMs);
  out.set(floatBytes, 8);
  return out;
}

/** The server's answer: the probe as received, followed by the server's name in UTF-8. */
export function encodeEcho(probe: Uint8Array, server: string): Uint8Array | undefined {
  if (!isProbe(probe)) return undefined;
  const name = encodedName(server);
  const out = new Uint8Array(headerLength + name.length);
  out.set(probe.subarray(0, headerLength));
  out.set(name, headerLength);
  return out;
}

export function decodeEcho(bytes: Uint8Array): Echo | undefined {
  if (!isProbe(bytes)) return undefined;
  floatBytes.set(bytes.subarray(8, 16));
  return {
    seq: readU32(bytes, 4),
    sentAtMs: float.getFloat64(0),
    server: utf8Decoder.decode(bytes.subarray(headerLength)),
  };
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
/** A server answers every probe with the same name: encoded once (a lab has a handful of servers). */
const encodedNames = new Map<string, Uint8Array>();
function encodedName(server: string): Uint8Array {
  let name = encodedNames.get(server);
  if (name === undefined) encodedNames.set(server, (name = utf8Encoder.encode(server)));
  return name;
}

function isProbe(bytes: Uint8Array): boolean {
  return bytes.length >= headerLength && readU32(bytes, 0) === magic;
}

// Big-endian fields written and read by hand, and the send time through one scratch DataView: a prober
// sends a thousand probes a second, each of which would otherwise make views of its own.
const floatBytes = new Uint8Array(8);
const float = new DataView(floatBytes.buffer);

function writeU32(out: Uint8Array, at: number, v: number): void {
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}
