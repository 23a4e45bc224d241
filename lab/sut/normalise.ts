/**
 * The daemons spell the same facts differently (state "Established" / 6 / "BGP_FSM_ESTABLISHED",
 * community "(64512,100)" / "64512:100" / 4227858532 / "noExport"). These functions turn each spelling
 * into the one form the views use, and check spec values before they reach a config file.
 */
import { IpAddress, Prefix } from '../../core/net/index.ts';
import { SutOutputError, SutSpecError } from './errors.ts';
import type { BfdState, BgpState, RouteView } from './router.ts';

/** "198.18.0.1" → "198.18.0.1/32"; any CIDR → its canonical (RFC 5952) form. */
export function canonicalPrefix(text: string): string {
  const t = text.trim();
  if (t === 'default') throw new SutOutputError('"default" needs a family; use canonicalRoutePrefix');
  if (t.includes('/')) return Prefix.parse(t).toString();
  const a = IpAddress.parse(t);
  return `${a}/${a.bits}`;
}

export function canonicalAddress(text: string): string {
  return IpAddress.parse(text.trim()).toString();
}

/** Addresses a path can use as its BGP next hop: not unspecified, not IPv6 link-local. */
export function isUsableNextHop(address: string): boolean {
  const a = IpAddress.parse(address);
  if (a.value === 0n) return false;
  return !(a.family === 6 && a.value >> 118n === 0x3fan);
}

const bgpStates: Record<string, BgpState> = {
  idle: 'idle',
  connect: 'connect',
  active: 'active',
  opensent: 'opensent',
  openconfirm: 'openconfirm',
  established: 'established',
};

/** "Established", "OpenSent", "BGP_FSM_ESTABLISHED", "Idle (Admin)" → the view's lower-case state. */
export function bgpState(text: string): BgpState {
  const key = text
    .toLowerCase()
    .replace(/^bgp_fsm_/, '')
    .replace(/[^a-z].*$/, '');
  const state = bgpStates[key.replace(/_/g, '')];
  if (!state) throw new SutOutputError(`unknown BGP state ${JSON.stringify(text)}`);
  return state;
}

export function bfdState(text: string): BfdState {
  const key = text.toLowerCase().replace(/[^a-z]/g, '');
  if (key === 'up' || key === 'down' || key === 'init') return key;
  // FRR says "unknown" before the first packet: the session is not up, which is what a test asks.
  if (key === 'unknown') return 'down';
  if (key === 'admindown' || key === 'shutdown') return 'admin-down';
  throw new SutOutputError(`unknown BFD state ${JSON.stringify(text)}`);
}

export function bgpOrigin(text: string | number): RouteView['origin'] {
  const t = String(text).toLowerCase();
  if (t === 'igp' || t === 'i' || t === '0') return 'igp';
  if (t === 'egp' || t === 'e' || t === '1') return 'egp';
  if (t === 'incomplete' || t === '?' || t === '2') return 'incomplete';
  throw new SutOutputError(`unknown BGP origin ${JSON.stringify(text)}`);
}

/** RFC 1997 and later well-known communities, by the names FRR prints (text and JSON spellings). */
const wellKnown: Record<string, string> = {
  internet: '0:0',
  gshut: '65535:0',
  gracefulshutdown: '65535:0',
  acceptown: '65535:1',
  llgrstale: '65535:6',
  nollgr: '65535:7',
  blackhole: '65535:666',
  noexport: '65535:65281',
  noadvertise: '65535:65282',
  localas: '65535:65283',
  noexportsubconfed: '65535:65283',
  nopeer: '65535:65284',
};

/** "64512:100", "(64512,100)", "no-export", "noExport" or the 32-bit value → "ASN:value". */
export function community(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
      throw new SutOutputError(`community ${value} is not a 32-bit value`);
    return `${Math.floor(value / 65536)}:${value % 65536}`;
  }
  const m = /^\(?\s*(\d+)\s*[,:]\s*(\d+)\s*\)?$/.exec(value.trim());
  if (m) return `${Number(m[1])}:${Number(m[2])}`;
  const named = wellKnown[value.toLowerCase().replace(/[^a-z0-9]/g, '')];
  if (named) return named;
  throw new SutOutputError(`unknown community ${JSON.stringify(value)}`);
}

/** "64512:1:2" or "(64512, 1, 2)" → "64512:1:2". */
export function largeCommunity(value: string): string {
  const m = /^\(?\s*(\d+)\s*[,:]\s*(\d+)\s*[,:]\s*(\d+)\s*\)?$/.exec(value.trim());
  if (!m) throw new SutOutputError(`not a large community: ${JSON.stringify(value)}`);
  return `${Number(m[1])}:${Number(m[2])}:${Number(m[3])}`;
}

/** Spec check: "ASN:value" with two 16-bit numbers. */
export function checkCommunity(text: string): [number, number] {
  const m = /^(\d{1,5}):(\d{1,5})$/.exec(text);
  const parts = m ? [Number(m[1]), Number(m[2])] : [];
  if (parts.length !== 2 || parts.some((p) => p > 0xffff))
    throw new SutSpecError(`community ${JSON.stringify(text)} must be "ASN:value", each 0-65535`);
  return [parts[0]!, parts[1]!];
}

/** Spec check: "ASN:data1:data2" with three 32-bit numbers (RFC 8092). */
export function checkLargeCommunity(text: string): [number, number, number] {
  const m = /^(\d{1,10}):(\d{1,10}):(\d{1,10})$/.exec(text);
  const parts = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [];
  if (parts.length !== 3 || parts.some((p) => p > 0xffffffff))
    throw new SutSpecError(`large community ${JSON.stringify(text)} must be "ASN:data1:data2", each 32-bit`);
  return [parts[0]!, parts[1]!, parts[2]!];
}

/** Spec check: a prefix the daemons will accept as written, returned canonical. */
export function checkPrefix(text: string): string {
  try {
    return Prefix.parse(text, { strict: true }).toString();
  } catch (err) {
    throw new SutSpecError(`prefix ${JSON.stringify(text)}: ${(err as Error).message}`);
  }
}

export function checkAddress(text: string, what: string): string {
  try {
    return IpAddress.parse(text).toString();
  } catch (err) {
    throw new SutSpecError(`${what} ${JSON.stringify(text)}: ${(err as Error).message}`);
  }
}

export function checkAsn(asn: number, what: string): number {
  if (!Number.isInteger(asn) || asn < 1 || asn > 0xffffffff)
    throw new SutSpecError(`${what} ${asn} is not an AS number (1-4294967295)`);
  return asn;
}

/** Passwords go into config files between quotes: refuse what would need escaping. */
export function checkPassword(text: string): string {
  if (!/^[A-Za-z0-9._~!@#%^&*+=-]{1,80}$/.test(text))
    throw new SutSpecError('password must be 1-80 characters from letters, digits and ._~!@#%^&*+=-');
  return text;
}

export function checkPositiveInt(value: number, what: string, max = 65535): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new SutSpecError(`${what} ${value} must be an integer from 1 to ${max}`);
  return value;
}
