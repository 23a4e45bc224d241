// The UDP ports of BFD over IP.

/** RFC 5881 §4: Control packets of single-hop sessions go to UDP port 3784. */
export const BFD_SINGLE_HOP_PORT = 3784;
/** RFC 5883 §5: Control packets of multihop sessions go to UDP port 4784. */
export const BFD_MULTI_HOP_PORT = 4784;
/** RFC 5881 §4: Echo packets go to UDP port 3785. */
export const BFD_ECHO_PORT = 3785;
/**
 * RFC 5881 §4: the source port MUST be in the range 49152 through 65535, and the same for every packet
 * of a session; RFC 5883 §5 keeps that rule for multihop sessions.
 */
export const BFD_SOURCE_PORTS = { min: 49152, max: 65535 } as const;
