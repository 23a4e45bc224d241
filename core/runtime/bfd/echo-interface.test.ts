import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { interfaceOfAddress } from './echo-interface.ts';

const info = (address: string, family: 'IPv4' | 'IPv6'): NetworkInterfaceInfo =>
  ({
    address,
    family,
    netmask: '',
    mac: '02:00:00:00:00:01',
    internal: false,
    cidr: null,
  }) as NetworkInterfaceInfo;

describe('the interface of a local address', () => {
  const interfaces = {
    lo: [info('127.0.0.1', 'IPv4')],
    eth0: [info('198.18.0.2', 'IPv4'), info('2001:db8::2', 'IPv6')],
    eth1: [info('198.18.1.2', 'IPv4')],
  };

  it('names the interface holding the address, in any spelling', () => {
    expect(interfaceOfAddress('198.18.1.2', interfaces)).toBe('eth1');
    expect(interfaceOfAddress('2001:0db8::0002', interfaces)).toBe('eth0');
  });

  it('is undefined for an address this host does not have', () => {
    expect(interfaceOfAddress('198.18.0.9', interfaces)).toBeUndefined();
  });
});
