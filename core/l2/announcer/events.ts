import type { IpAddress, MacAddress } from '../../net/index.ts';

/** What the announcer did or saw, each with the reason it was told or found, stamped with clock time. */
export type AnnouncerEvent =
  /** It now answers for `vip` on `interfaces` (added to any it already answered on) and announced it. */
  | { kind: 'took-over'; vip: IpAddress; interfaces: string[]; atMs: number; reason: string }
  /** It stopped answering for `vip` on `interfaces`. */
  | { kind: 'released'; vip: IpAddress; interfaces: string[]; atMs: number; reason: string }
  /** It started a new burst for everything it owns (after a partition heals). */
  | { kind: 'reannounced'; vips: IpAddress[]; atMs: number; reason: string }
  /** Another MAC claims an address it owns on `interface`. */
  | {
      kind: 'conflict';
      vip: IpAddress;
      interface: string;
      otherMac: MacAddress;
      atMs: number;
      reason: string;
    };

export type AnnouncerListener = (event: AnnouncerEvent) => void;
