// The TTL / hop limit checks of BFD's receive sockets, as classic BPF programs the kernel runs on every
// packet before it is queued (SO_ATTACH_FILTER, see core/runtime/native/udp_options.c). On a UDP socket
// the filter sees the packet from its UDP header on; loads at SKF_NET_OFF + n read byte n of the IP
// header instead, which is where the TTL and the addresses are.
import { type IpAddress, type IpFamily, familyBits } from '../../net/index.ts';
import { BfdFilterTooLargeError } from './errors.ts';

/** One classic BPF instruction (struct sock_filter). */
export interface SockFilter {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** A minimum TTL for the packets of one multihop session: from `peer` to our `local` address. */
export interface TtlRule {
  local: IpAddress;
  peer: IpAddress;
  minimumTtl: number;
}

// Opcodes from linux/bpf_common.h.
const LD_B_ABS = 0x30; // BPF_LD | BPF_B | BPF_ABS
const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
/** linux/filter.h: loads relative to the network (IP) header. */
export const SKF_NET_OFF = -0x100000;
/** linux/bpf_common.h BPF_MAXINSNS: the kernel refuses longer programs. */
export const MAX_INSTRUCTIONS = 4096;

/** What a filter returns: the bytes of the packet to keep, all of it or none (drop). */
const ACCEPT = 0xffffffff;
const DROP = 0;

/** Byte offsets in the IPv4 header (RFC 791 §3.1) and the IPv6 header (RFC 8200 §3). */
const HEADER = {
  4: { ttl: 8, source: 12, destination: 16 },
  6: { ttl: 7, source: 8, destination: 24 },
} as const;

const ins = (code: number, k: number, jt = 0, jf = 0): SockFilter => ({ code, jt, jf, k: k >>> 0 });
const loadNet = (code: number, offset: number) => ins(code, SKF_NET_OFF + offset);

/** A filter that drops every packet: for sockets that only send. */
export const DROP_ALL: readonly SockFilter[] = [ins(RET_K, DROP)];

/**
 * Accepts a packet when its TTL (IPv4) or hop limit (IPv6) is at least the minimum of the rule for its
 * source and destination addresses, or at least `minimumTtl` when no rule names them. With 255 and no
 * rules this is the exact check single-hop BFD needs (a TTL cannot exceed 255). Of two rules for the same
 * addresses the stricter counts, and a rule that comes to `minimumTtl` is left out. Throws
 * BfdFilterTooLargeError when the rules do not fit the kernel's limit.
 */
export function ttlFilter(family: IpFamily, minimumTtl: number, rules: readonly TtlRule[]): SockFilter[] {
  const strictest = new Map<string, TtlRule>();
  for (const rule of rules) {
    if (rule.local.family !== family || rule.peer.family !== family) continue;
    const key = `${rule.local.toString()} ${rule.peer.toString()}`;
    const seen = strictest.get(key);
    if (seen === undefined || seen.minimumTtl < rule.minimumTtl) strictest.set(key, rule);
  }
  const checked = [...strictest.values()].filter((rule) => rule.minimumTtl !== minimumTtl);
  const program = checked.flatMap((rule) => ruleCheck(family, rule));
  program.push(...ttlCheck(family, minimumTtl));
  if (program.length > MAX_INSTRUCTIONS) {
    throw new BfdFilterTooLargeError(family, checked.length, maxRules(family));
  }
  return program;
}

/** How many rules of a family fit in one program. */
export function maxRules(family: IpFamily): number {
  // A load and a compare for each 32-bit word of both addresses, then the TTL check.
  const perRule = 2 * ((2 * familyBits(family)) / 32) + ttlCheck(family, 0).length;
  return Math.floor((MAX_INSTRUCTIONS - ttlCheck(family, 0).length) / perRule);
}

/** The flat code, jt, jf, k list the native addon takes. */
export function flatten(program: readonly SockFilter[]): number[] {
  return program.flatMap((i) => [i.code, i.jt, i.jf, i.k]);
}

/** Returns ACCEPT or DROP by the TTL; the TTL byte is read afresh, as a rule's compares overwrite A. */
function ttlCheck(family: IpFamily, minimumTtl: number): SockFilter[] {
  return [
    loadNet(LD_B_ABS, HEADER[family].ttl),
    ins(JGE_K, minimumTtl, 0, 1),
    ins(RET_K, ACCEPT),
    ins(RET_K, DROP),
  ];
}

/** Compares the addresses word by word; any mismatch jumps past the rule to the next one. */
function ruleCheck(family: IpFamily, rule: TtlRule): SockFilter[] {
  const words = [
    ...wordsAt(HEADER[family].source, rule.peer),
    ...wordsAt(HEADER[family].destination, rule.local),
  ];
  const tail = ttlCheck(family, rule.minimumTtl);
  return words
    .flatMap(({ offset, value }, i) => {
      const left = (words.length - i - 1) * 2 + tail.length;
      return [loadNet(LD_W_ABS, offset), ins(JEQ_K, value, 0, left)];
    })
    .concat(tail);
}

/** An address as the 32-bit words a BPF word load yields (network byte order, read as big-endian). */
function wordsAt(offset: number, address: IpAddress): { offset: number; value: number }[] {
  const bytes = address.toBytes();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 4 }, (_, i) => ({
    offset: offset + 4 * i,
    value: view.getUint32(4 * i),
  }));
}
