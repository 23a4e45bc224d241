/**
 * keepalived.conf for one lab node running VRRP as the Layer-2 peer lblab is compared with: one VRRPv3
 * instance per service address family, every node a member of every instance, the node's priority
 * deciding which is master.
 *
 * Choices, each against lblab's own behaviour so the figures compare like with like:
 * - advert_int 0.1 s (VRRPv3 counts in centiseconds). RFC 5798 §6.1: Master_Down_Interval =
 *   3 × Advertisement_Interval + Skew_Time, Skew_Time = ((256 − Priority) × Advertisement_Interval) / 256,
 *   so a backup declares the master dead after 300 ms plus up to 100 ms of skew: lblab's membership
 *   declares a peer dead after 3 missed 100 ms heartbeats.
 * - preemption on (keepalived's default, what users run): a node that comes back takes its addresses
 *   back, as lblab's deterministic election (MetalLB's) hands a service back to the node it elects once
 *   that node is healthy again. Every instance starts in BACKUP so the first election is the protocol's:
 *   the highest priority wins because its skew is the shortest (RFC 5798 §6.4.2).
 * - no authentication (VRRPv3 has none, RFC 5798 §9) and no tracking scripts: the lab measures the
 *   protocol's failover, not a health check's.
 */
import { isIP } from 'node:net';
import { SutSpecError } from './errors.ts';

export interface KeepalivedSpec {
  /** The node's name: router_id, and the prefix of each instance's name. */
  name: string;
  /** Interface VRRP runs on and the addresses are added to. */
  interface: string;
  /** 1..254 (RFC 5798 §5.2.4: 255 is reserved for the address owner, 0 for a master that leaves). */
  priority: number;
  /** The addresses every node backs up: IPv4 and IPv6 mixed; one instance per family. */
  addresses: readonly string[];
  /** Advertisement interval in milliseconds, a multiple of 10 (VRRPv3 centiseconds); default 100. */
  advertIntervalMs?: number;
  /** The virtual router id of the IPv4 instance; IPv6 uses the next one. Default 51. */
  vrid?: number;
}

export const defaultAdvertIntervalMs = 100;

export function renderKeepalivedConfig(spec: KeepalivedSpec): string {
  const interval = spec.advertIntervalMs ?? defaultAdvertIntervalMs;
  // RFC 5798 §5.2.7: a 12-bit count of centiseconds, so 10 ms .. 40.95 s.
  if (!Number.isInteger(interval / 10) || interval < 10 || interval > 40_950)
    throw new SutSpecError(`advert interval ${interval} ms must be a multiple of 10 ms in 10..40950`);
  if (!Number.isInteger(spec.priority) || spec.priority < 1 || spec.priority > 254)
    throw new SutSpecError(`VRRP priority ${spec.priority} must be 1..254`);
  if (!/^[a-z0-9][a-z0-9-]{0,30}$/.test(spec.name))
    throw new SutSpecError(
      `node name ${JSON.stringify(spec.name)} must be 1-31 lower-case letters, digits, "-"`,
    );
  if (!/^[A-Za-z0-9_.-]{1,15}$/.test(spec.interface))
    throw new SutSpecError(`interface name ${JSON.stringify(spec.interface)} is not a Linux interface name`);
  const vrid = spec.vrid ?? 51;
  for (const a of spec.addresses)
    if (isIP(a) === 0) throw new SutSpecError(`${JSON.stringify(a)} is not an IP address`);
  const families = ([4, 6] as const)
    .map((family) => ({ family, addresses: spec.addresses.filter((a) => isIP(a) === family) }))
    .filter((f) => f.addresses.length > 0);
  if (families.length === 0) throw new SutSpecError(`keepalived on ${spec.name} has no address to back up`);
  if (vrid < 1 || vrid + families.length - 1 > 255)
    throw new SutSpecError(`VRRP router id ${vrid} leaves no room for ${families.length} instances`);
  const lines = [
    'global_defs {',
    `    router_id ${spec.name}`,
    // RFC 5798 §5.1.1.2/§5.1.2.2: VRRPv3 is the version that has sub-second intervals and IPv6.
    '    vrrp_version 3',
    // After a split brain heals, the master that stays hears the other's lower-priority advert; by
    // default it ignores it (RFC 5798 §6.4.3) and clients that followed the other master keep sending to
    // a node that dropped the address until their neighbour entry expires. Re-announcing then (and
    // answering with an advert of its own) is what keepalived offers against that; lblab re-announces too.
    '    vrrp_garp_lower_prio_repeat 1',
    '    vrrp_higher_prio_send_advert',
    '}',
    '',
  ];
  families.forEach(({ family, addresses }, i) => {
    lines.push(
      `vrrp_instance ${spec.name}_v${family} {`,
      '    state BACKUP',
      `    interface ${spec.interface}`,
      `    virtual_router_id ${vrid + i}`,
      `    priority ${spec.priority}`,
      `    advert_int ${(interval / 1000).toFixed(2)}`,
      '    virtual_ipaddress {',
      ...addresses.map((a) => `        ${a}/${family === 4 ? 32 : 128} dev ${spec.interface}`),
      '    }',
      '}',
      '',
    );
  });
  return lines.join('\n');
}

/**
 * The priority of the `index`-th of `count` nodes: the first is the highest, so it is master; the rest
 * step down by 10 so each backup's skew (hence its takeover order) differs. Stays within 1..254.
 */
export function nodePriority(index: number, count: number): number {
  if (count < 1 || count > 20 || index < 0 || index >= count)
    throw new SutSpecError(`node ${index} of ${count}: keepalived priorities cover 1..20 nodes`);
  return 250 - index * 10;
}
