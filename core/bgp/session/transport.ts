import type { IpAddress } from '../../net/index.ts';

/** One TCP connection carrying a BGP session, as the session sees it (the runtime adapts sockets to it). */
export interface BgpConnection {
  readonly localAddress: IpAddress;
  readonly remoteAddress: IpAddress;
  send(bytes: Uint8Array): void;
  /** Ends the connection after what was sent; `onClose` follows. */
  close(): void;
  onData(fn: (chunk: Uint8Array) => void): void;
  /** Called once, whoever closed it. */
  onClose(fn: (reason: string) => void): void;
}

export interface ConnectOptions {
  peer: IpAddress;
  port: number;
  localAddress?: IpAddress;
  /** TTL of our packets: 1 for directly connected eBGP (RFC 4271 has no rule; every router does so), more for multihop. */
  ttl: number;
  /** RFC 2385 TCP MD5 signature key. */
  md5Password?: string;
  timeoutMs: number;
}

export interface BgpConnector {
  connect(o: ConnectOptions): Promise<BgpConnection>;
}
