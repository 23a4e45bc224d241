import { IpAddress } from '../../core/net/index.ts';
import { type IpKey, ipKeyOf } from './addresses.ts';

/**
 * Addresses a host delivers locally without having them on an interface: the service addresses on `lo`
 * (or kube-ipvs0) of every node. A set can be shared by many hosts, so 2000 nodes hold the same 10,000
 * service addresses once rather than 2000 times.
 */
export class AddressSet {
  private readonly members = new Set<IpKey>();
  private readonly watchers = new Set<(key: IpKey, added: boolean) => void>();

  constructor(ips: Iterable<string> = []) {
    for (const ip of ips) this.add(ip);
  }

  /** An address as text, or parsed already (a caller adding one address to thousands of sets). */
  add(ip: string | IpAddress): void {
    this.addKey(ipKeyOf(typeof ip === 'string' ? IpAddress.parse(ip) : ip));
  }

  delete(ip: string | IpAddress): boolean {
    return this.deleteKey(ipKeyOf(typeof ip === 'string' ? IpAddress.parse(ip) : ip));
  }

  /** @internal add() by key (ipKeyOf), for a caller that puts the same addresses in thousands of sets. */
  addKey(key: IpKey): void {
    if (this.members.has(key)) return;
    this.members.add(key);
    for (const w of this.watchers) w(key, true);
  }

  /** @internal delete() by key. */
  deleteKey(key: IpKey): boolean {
    if (!this.members.delete(key)) return false;
    for (const w of this.watchers) w(key, false);
    return true;
  }

  has(ip: string): boolean {
    return this.members.has(ipKeyOf(IpAddress.parse(ip)));
  }

  get size(): number {
    return this.members.size;
  }

  /** @internal */
  hasKey(key: IpKey): boolean {
    return this.members.has(key);
  }

  /** @internal */
  keys(): IterableIterator<IpKey> {
    return this.members.keys();
  }

  /** @internal Calls `watcher` on every addition and removal; returns the function that stops it. */
  watch(watcher: (key: IpKey, added: boolean) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}
