import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';
import {
  ALL_NODES,
  ALL_NODES_MAC,
  ipv6MulticastMac,
  isIpv6Multicast,
  isSolicitedNodeMulticast,
  isUnspecified,
  solicitedNodeMac,
  solicitedNodeMulticast,
} from './ipv6-addresses.ts';

describe('IPv6 multicast addressing (RFC 4291 §2.7.1, RFC 2464 §7)', () => {
  it.each([
    ['2001:db8::1', 'ff02::1:ff00:1', '33:33:ff:00:00:01'],
    ['2001:db8:0:1::ab:cdef', 'ff02::1:ffab:cdef', '33:33:ff:ab:cd:ef'],
    ['fe80::200:ff:fe00:1', 'ff02::1:ff00:1', '33:33:ff:00:00:01'],
  ])('%s → %s on %s', (address, group, mac) => {
    const a = IpAddress.parse(address);
    expect(solicitedNodeMulticast(a).toString()).toBe(group);
    expect(solicitedNodeMac(a).toString()).toBe(mac);
    expect(isSolicitedNodeMulticast(solicitedNodeMulticast(a))).toBe(true);
  });

  it('all-nodes is ff02::1 on 33:33:00:00:00:01', () => {
    expect(ALL_NODES.toString()).toBe('ff02::1');
    expect(ALL_NODES_MAC.equals(MacAddress.parse('33:33:00:00:00:01'))).toBe(true);
  });

  it('classifies addresses', () => {
    expect(isIpv6Multicast(ALL_NODES)).toBe(true);
    expect(isIpv6Multicast(IpAddress.parse('2001:db8::1'))).toBe(false);
    expect(isIpv6Multicast(IpAddress.parse('198.18.0.1'))).toBe(false);
    expect(isUnspecified(IpAddress.parse('::'))).toBe(true);
    expect(isUnspecified(IpAddress.parse('0.0.0.0'))).toBe(false);
    expect(isSolicitedNodeMulticast(ALL_NODES)).toBe(false);
    expect(isSolicitedNodeMulticast(IpAddress.parse('ff02::2:ff00:1'))).toBe(false);
  });

  it('refuses IPv4 and unicast where a multicast group is needed', () => {
    expect(() => solicitedNodeMulticast(IpAddress.parse('198.18.0.1'))).toThrow(WireEncodeError);
    expect(() => ipv6MulticastMac(IpAddress.parse('2001:db8::1'))).toThrow(WireEncodeError);
  });
});
