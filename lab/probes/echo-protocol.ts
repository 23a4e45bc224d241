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
  const v = new DataView(out.buffer);
  v.setUint32(0, magic);
  v.setUint32(4, p.seq);
  v.setFloat64(8, p.sentAtMs);
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
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    seq: v.getUint32(4),
    sentAtMs: v.getFloat64(8),
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
  return bytes.length >= headerLength && new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) === magic;
}
