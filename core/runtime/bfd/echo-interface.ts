// Which interface an echo frame leaves by: the one that holds the session's local address. A
// single-hop peer is on that interface's subnet, so its forwarding plane sends the echo back there.
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { IpAddress } from '../../net/index.ts';

/**
 * The name of the interface that has `address`, read from os.networkInterfaces() at the time of the call
 * (addresses come and go), or undefined when this host does not have it.
 */
export function interfaceOfAddress(
  address: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | undefined {
  const wanted = IpAddress.parse(address);
  for (const [name, infos] of Object.entries(interfaces)) {
    if (infos?.some((i) => IpAddress.parse(i.address).equals(wanted))) return name;
  }
  return undefined;
}
