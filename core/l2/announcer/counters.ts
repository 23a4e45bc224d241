import type { WireErrorReason } from '../wire/index.ts';

/** Running totals since the announcer started, for metrics and the lab's reports. */
export interface AnnouncerCounters {
  /** ARP requests addressed to this host whose target it answers for on that interface. */
  arpRequestsOwned: number;
  /** ARP requests addressed to this host for any other address. */
  arpRequestsNotOwned: number;
  /** Neighbour solicitations addressed to this host (multicast or its MAC) for an address it answers for. */
  nsRequestsOwned: number;
  nsRequestsNotOwned: number;
  /** ARP replies and solicited neighbour advertisements sent. */
  responsesSent: number;
  /** Gratuitous ARP frames (request and reply form count one each) and unsolicited NAs sent. */
  gratuitousSent: number;
  /** Frames a port refused to send; the announcer carries on with the others. */
  sendErrors: number;
  /** took-over and released events. */
  ownershipChanges: number;
  conflicts: number;
  /** Received frames that did not decode, in total and by wire error reason (MLD with a hop-by-hop
   *  header is 'unsupported', which is normal on an IPv6 segment). */
  undecodable: number;
  undecodableByReason: Partial<Record<WireErrorReason, number>>;
}

export function emptyCounters(): AnnouncerCounters {
  return {
    arpRequestsOwned: 0,
    arpRequestsNotOwned: 0,
    nsRequestsOwned: 0,
    nsRequestsNotOwned: 0,
    responsesSent: 0,
    gratuitousSent: 0,
    sendErrors: 0,
    ownershipChanges: 0,
    conflicts: 0,
    undecodable: 0,
    undecodableByReason: {},
  };
}
