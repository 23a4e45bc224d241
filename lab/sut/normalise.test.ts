import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SutOutputError } from './errors.ts';
import {
  bfdState,
  bgpOrigin,
  bgpState,
  canonicalPrefix,
  community,
  isUsableNextHop,
  largeCommunity,
} from './normalise.ts';

describe('normalising daemon spellings', () => {
  it('reads the BGP state however a daemon spells it', () => {
    expect(bgpState('Established')).toBe('established');
    expect(bgpState('OpenSent')).toBe('opensent');
    expect(bgpState('BGP_FSM_OPENCONFIRM')).toBe('openconfirm');
    expect(bgpState('Idle (Admin)')).toBe('idle');
    expect(() => bgpState('Clearing')).toThrow(SutOutputError);
    expect(bfdState('AdminDown')).toBe('admin-down');
    expect(bfdState('unknown')).toBe('down');
    expect(bgpOrigin('Incomplete')).toBe('incomplete');
    expect(bgpOrigin(0)).toBe('igp');
  });

  it('writes every community form as ASN:value, well-known names included', () => {
    expect(community('(64512,100)')).toBe('64512:100');
    expect(community('noExport')).toBe('65535:65281');
    expect(community('no-export')).toBe('65535:65281');
    expect(community('graceful-shutdown')).toBe('65535:0');
    expect(largeCommunity('(64512, 1, 2)')).toBe('64512:1:2');
    expect(() => community('nonsense')).toThrow(SutOutputError);
  });

  it('maps the 32-bit community value and its text forms to the same string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }), (hi, lo) => {
        const text = `${hi}:${lo}`;
        expect(community(hi * 65536 + lo)).toBe(text);
        expect(community(`(${hi},${lo})`)).toBe(text);
      }),
    );
  });

  it('makes host routes full-length prefixes and tells usable next hops from placeholders', () => {
    expect(canonicalPrefix('198.18.0.1')).toBe('198.18.0.1/32');
    expect(canonicalPrefix('2001:0db8::0001')).toBe('2001:db8::1/128');
    expect(canonicalPrefix('2001:db8:0:0::/64')).toBe('2001:db8::/64');
    expect(isUsableNextHop('0.0.0.0')).toBe(false);
    expect(isUsableNextHop('::')).toBe(false);
    expect(isUsableNextHop('fe80::1')).toBe(false);
    expect(isUsableNextHop('febf::1')).toBe(false);
    expect(isUsableNextHop('fec0::1')).toBe(true);
    expect(isUsableNextHop('2001:db8::1')).toBe(true);
  });
});
