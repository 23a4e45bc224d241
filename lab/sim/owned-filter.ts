import { ETHERTYPE_ARP, ETHERTYPE_IPV6, ETHERTYPE_VLAN } from '../../core/l2/wire/index.ts';
import type { AddressSet } from './address-set.ts';
import { ipKeyAt } from './addresses.ts';
import type { FrameFilter } from './raw-port.ts';

const NS = 135;
const NA = 136;

/**
 * A tighter socket filter for a speaker's packet socket at scale: it passes only the ARP and NDP frames
 * that name an address of `owned`: an ARP sender or target address, an NS or NA target, or an NS source.
 * Those are all the frames the L2Announcer acts on (it answers requests for what it owns and reports
 * others claiming it), so with `owned` kept equal to what the announcer owns its answers and conflict
 * reports are unchanged; only its counters of requests for addresses it does not own stay at zero. It
 * spares every speaker decoding every ARP broadcast on a 2000-node segment.
 */
export function ownedAddressFilter(owned: AddressSet): FrameFilter {
  const filter = (frame: Uint8Array) => {
    let at = 12;
    let type = (frame[12]! << 8) | frame[13]!;
    if (type === ETHERTYPE_VLAN && frame.length >= 18) {
      at = 16;
      type = (frame[16]! << 8) | frame[17]!;
    }
    const p = at + 2;
    if (type === ETHERTYPE_ARP) {
      return (
        frame.length >= p + 28 &&
        (owned.hasKey(ipKeyAt(frame, p + 14, 4)) || owned.hasKey(ipKeyAt(frame, p + 24, 4)))
      );
    }
    if (type !== ETHERTYPE_IPV6 || frame.length < p + 64) return false;
    const icmp = frame[p + 6] === 58 ? frame[p + 40] : undefined;
    if (icmp !== NS && icmp !== NA) return false;
    return owned.hasKey(ipKeyAt(frame, p + 48, 6)) || (icmp === NS && owned.hasKey(ipKeyAt(frame, p + 8, 6)));
  };
  return Object.assign(filter, { owned });
}
