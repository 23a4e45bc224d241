import { IpAddress } from '../../core/net/index.ts';
import { type IpKey, ipKeyOf } from './addresses.ts';

/**
 * Addresses a host delivers locally without having them on an interface: the service addresses on `lo`
 * (or kube-ipvs0) of every node. A set can be shared by many hosts, so 2000 nodes hold the same 10,000
 * service addresses once rather than 2000 times.
 */
export class AddressSet {
  private readonly keys = new Set<IpKey>();

  constructor(ips: Iterable<string> = []) {
    for (const ip of ips) this.add(ip);
  }

  add(ip: string): void {
    this.keys.add(ipKeyOf(IpAddress.parse(ip)));
  }

  delete(ip: string): boolean {
    return this.keys.delete(ipKeyOf(IpAddress.parse(ip)));
  }

  has(ip: string): boolean {
    return this.keys.has(ipKeyOf(IpAddress.parse(ip)));
  }

  get size(): number {
    return this.keys.size;
  }

  /** @internal */
  hasKey(key: IpKey): boolean {
    return this.keys.has(key);
  }
}
