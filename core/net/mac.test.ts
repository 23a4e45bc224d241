import { describe, expect, it } from 'vitest';
import { MacAddress } from './mac.ts';

describe('MacAddress', () => {
  it('reads the common notations and prints the canonical one', () => {
    for (const text of ['02:00:5E:10:00:01', '02-00-5e-10-00-01', '0200.5e10.0001']) {
      expect(MacAddress.parse(text).toString()).toBe('02:00:5e:10:00:01');
    }
  });

  it.each(['02:00:5e:10:00', '02:00:5e:10:00:01:02', '02:00-5e:10:00:01', 'zz:00:5e:10:00:01', ''])(
    'refuses %j',
    (text) => {
      expect(() => MacAddress.parse(text)).toThrowError('a MAC address is 6 hex bytes');
    },
  );

  it('knows broadcast and multicast', () => {
    expect(MacAddress.broadcast.isMulticast).toBe(true);
    expect(MacAddress.parse('33:33:00:00:00:01').isMulticast).toBe(true);
    expect(MacAddress.parse('02:00:5e:10:00:01').isMulticast).toBe(false);
    expect(MacAddress.fromBytes(MacAddress.broadcast.bytes).equals(MacAddress.broadcast)).toBe(true);
  });
});
