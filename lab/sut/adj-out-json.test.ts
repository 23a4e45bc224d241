import { describe, expect, it } from 'vitest';
import { parseFrrAdvertised, parseGobgpAdjOut } from './adj-out-json.ts';

describe('adj-RIB-out views', () => {
  it('FRR: the advertised prefixes, none for an empty table or a neighbor without the family', () => {
    const text = JSON.stringify({
      bgpTableVersion: 1,
      advertisedRoutes: { '198.18.200.1/32': { network: '198.18.200.1/32', nextHop: '0.0.0.0' } },
      totalPrefixCounter: 1,
    });
    expect(parseFrrAdvertised(text)).toEqual(['198.18.200.1/32']);
    expect(parseFrrAdvertised('{ "warning": "No such neighbor or address family" }')).toEqual([]);
    expect(parseFrrAdvertised('{"bgpTableVersion":1,"totalPrefixCounter":0}')).toEqual([]);
    expect(() => parseFrrAdvertised('not json')).toThrow(/not JSON/);
  });

  it('GoBGP: the keys of adj-out, nothing for {} or no output', () => {
    const text = '{"2001:db8:200::1/128":[{"nlri":{"prefix":"2001:db8:200::1/128"}}],"198.18.200.1/32":[]}';
    expect(parseGobgpAdjOut(text)).toEqual(['198.18.200.1/32', '2001:db8:200::1/128']);
    expect(parseGobgpAdjOut('{}')).toEqual([]);
    expect(parseGobgpAdjOut('')).toEqual([]);
    expect(() => parseGobgpAdjOut('[1]')).toThrow(/not an object/);
  });
});
