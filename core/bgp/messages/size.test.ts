import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import type { PathAttributes } from '../attributes/path-attributes.ts';
import { maxMessageBytes } from './header.ts';
import { encodeMessage } from './message.ts';
import { prefixBudgetBytes, prefixesBytes, updateOverheadBytes } from './size.ts';
import { FOUR, TWO } from './test-support.ts';
import type { CodecContext } from './context.ts';

const v4 = (i: number, len: number) =>
  Prefix.of(IpAddress.of(4, 0xc6120000n + (BigInt(i) << BigInt(32 - len))), len);
const v6 = (i: number, len: number) =>
  Prefix.of(IpAddress.of(6, (0x20010db8n << 96n) + (BigInt(i) << BigInt(128 - len))), len);

/** Packs prefixes greedily by the budget and checks each message is within 4096 octets and the next one would not fit. */
function packs(
  make: (ps: Prefix[]) => PathAttributes | undefined,
  classic: boolean,
  prefixes: Prefix[],
  ctx: CodecContext,
) {
  const attributes = make([]) ?? {};
  const budget = prefixBudgetBytes(attributes, ctx);
  expect(budget).toBe(maxMessageBytes - updateOverheadBytes(attributes, ctx));
  let taken = 0;
  while (taken < prefixes.length && prefixesBytes(prefixes.slice(0, taken + 1)) <= budget) taken++;
  const chunk = prefixes.slice(0, taken);
  const bytes = encodeMessage(
    { type: 'update', withdrawn: [], attributes: make(chunk) ?? {}, nlri: classic ? chunk : [] },
    ctx,
  );
  expect(bytes.length).toBeLessThanOrEqual(maxMessageBytes);
  // The budget is tight: at most the one octet reserved for an Extended Length switch is left unused.
  expect(maxMessageBytes - bytes.length).toBeLessThanOrEqual(prefixesBytes([prefixes[taken]!]) + 1);
  return taken;
}

describe('UPDATE packing helpers', () => {
  const attrs: PathAttributes = {
    origin: 'igp',
    asPath: [{ type: 'sequence', asns: [4_200_000_001] }],
    communities: [0xffff0000],
    largeCommunities: [{ globalAdmin: 1, localData1: 2, localData2: 3 }],
  };

  it('the overhead of an UPDATE is the size of the message without prefixes', () => {
    const a = { ...attrs, nextHop: IpAddress.parse('198.18.0.1') };
    for (const ctx of [FOUR, TWO]) {
      expect(updateOverheadBytes(a, ctx)).toBe(
        encodeMessage({ type: 'update', withdrawn: [], attributes: a, nlri: [] }, ctx).length,
      );
    }
  });

  it('fills an IPv4 UPDATE to within a prefix of 4096 octets', () => {
    const prefixes = Array.from({ length: 2000 }, (_, i) => v4(i, 24));
    const n = packs(() => ({ ...attrs, nextHop: IpAddress.parse('198.18.0.1') }), true, prefixes, FOUR);
    expect(n).toBeGreaterThan(900);
  });

  it('fills an IPv6 MP_REACH_NLRI across the Extended Length switch', () => {
    const prefixes = Array.from({ length: 2000 }, (_, i) => v6(i, 64));
    const hops = [IpAddress.parse('2001:db8::1'), IpAddress.parse('fe80::1')];
    const n = packs(
      (nlri) => ({ ...attrs, mpReach: { afi: 2, safi: 1, nextHops: hops, nlri } }),
      false,
      prefixes,
      TWO,
    );
    expect(n).toBeGreaterThan(400);
  });

  it('fills an IPv6 MP_UNREACH_NLRI', () => {
    const prefixes = Array.from({ length: 2000 }, (_, i) => v6(i, 128));
    const n = packs((withdrawn) => ({ mpUnreach: { afi: 2, safi: 1, withdrawn } }), false, prefixes, FOUR);
    expect(n).toBeGreaterThan(230);
  });

  it('counts each prefix as its length octet plus the octets of its bits', () => {
    expect(prefixesBytes([v4(0, 0), v4(1, 8), v4(1, 9), v4(1, 32), v6(1, 128)])).toBe(1 + 2 + 3 + 5 + 17);
  });
});
