// RFC 4271 §4.4 KEEPALIVE: the 19-octet header alone (its length is checked with the header, §6.1).

export interface KeepaliveMessage {
  type: 'keepalive';
}

export function decodeKeepalive(): KeepaliveMessage {
  return { type: 'keepalive' };
}

export function encodeKeepalive(): Uint8Array {
  return new Uint8Array(0);
}
