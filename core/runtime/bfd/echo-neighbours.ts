// The peer's MAC for our echo frames, from the kernel's IPv4 neighbour table. The kernel resolved it to
// send the session's Control packets (a single-hop peer is on-link), keeps it current by its own
// reachability checks and the ARP it sees, and lists it in /proc/net/arp for any process to read. The
// alternative, learning it from frames we receive, would need the IPv4 frames the raw socket's kernel
// filter keeps from waking the speaker (it passes ARP and ICMPv6 only), or ARP requests of our own
// repeating the kernel's work. FRR's bfdd asks the same table (ioctl SIOCGARP).
import { readFile } from 'node:fs/promises';
import { MacAddress } from '../../net/mac.ts';

/** One complete entry: `address` is reachable at `mac` on interface `device`. */
export interface ArpEntry {
  address: string;
  mac: MacAddress;
  device: string;
}

/** linux/if_arp.h ATF_COM: the entry is complete (resolved). */
const ATF_COM = 0x02;

/**
 * The complete entries of /proc/net/arp, whose lines read "IP address, HW type, Flags, HW address, Mask,
 * Device" after a header line. Incomplete and failed entries, and unparsable lines, are left out.
 */
export function parseArpTable(text: string): ArpEntry[] {
  return text
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const [address, , flags, hw, , device] = line.trim().split(/\s+/);
      if (address === undefined || flags === undefined || hw === undefined || device === undefined) return [];
      if ((Number.parseInt(flags, 16) & ATF_COM) === 0) return [];
      try {
        const mac = MacAddress.parse(hw);
        return mac.equals(MacAddress.zero) ? [] : [{ address, mac, device }];
      } catch {
        return [];
      }
    });
}

/** The table as last read; `refresh` reads it again. */
export class ArpNeighbours {
  private entries = new Map<string, MacAddress>();

  constructor(private readonly read: () => Promise<string> = () => readFile('/proc/net/arp', 'utf8')) {}

  async refresh(): Promise<void> {
    let text: string;
    try {
      text = await this.read();
    } catch {
      // No /proc (not Linux, or a restricted sandbox): no MAC, so no echoes leave, and the session
      // reports the Echo function failed, which is the truth about this node.
      text = '';
    }
    this.entries = new Map(parseArpTable(text).map((e) => [key(e.device, e.address), e.mac]));
  }

  lookup(device: string, address: string): MacAddress | undefined {
    return this.entries.get(key(device, address));
  }
}

const key = (device: string, address: string) => `${device} ${address}`;
