/**
 * Each CRD pattern against the parser whose syntax it states, on generated input: the API server must
 * never refuse what lblab accepts, and should refuse what lblab refuses for its syntax alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress } from '../net/index.ts';
import { parsePoolAddress } from './addresses.ts';
import { parseCommunity } from './communities.ts';
import { parseGoDuration } from './durations.ts';
import type { IssueSink } from './issues.ts';
import { checkLabels } from './labels.ts';
import * as patterns from './patterns.ts';

const runs = { numRuns: 3000 };
const matches = (pattern: string, text: string) => new RegExp(pattern, 'u').test(text);

const over = (alphabet: string, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), maxLength });

/** `base`, with one character inserted, removed or replaced: near misses of valid input. */
const mutated = (base: fc.Arbitrary<string>, alphabet: string) =>
  fc
    .tuple(base, fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('insert', 'delete', 'replace'))
    .map(([text, at, char, edit]) => {
      const i = text.length === 0 ? 0 : at % text.length;
      if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
      return text.slice(0, i) + (edit === 'replace' ? char : '') + text.slice(i + 1);
    });

const parses = (text: string) => {
  try {
    IpAddress.parse(text);
    return true;
  } catch {
    return false;
  }
};

const ipChars = '0123456789abcdefABCDEF:.%/ g';
const anyAddress = fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended());
const addressLike = fc.oneof(anyAddress, mutated(anyAddress, ipChars), over(ipChars, 24));

describe('decimalUpTo', () => {
  it.each([0n, 9n, 10n, 32n, 99n, 100n, 128n, 255n, 65535n, 4294967295n])(
    'matches exactly the decimals 0..%s, with leading zeros',
    (max) => {
      // Bounded to three digits, as prefix lengths are, where max itself fits.
      const bounded = max <= 999n ? patterns.decimalUpTo(max, 3) : undefined;
      const unbounded = patterns.decimalUpTo(max);
      const number = fc.oneof(fc.bigInt(0n, max * 2n + 20n), fc.bigInt(max - 5n, max + 5n));
      fc.assert(
        fc.property(number, fc.nat(3), (n, zeros) => {
          const text = '0'.repeat(zeros) + n.toString();
          const within = n >= 0n && n <= max;
          expect(matches(`^${unbounded}$`, text)).toBe(within);
          if (bounded !== undefined) expect(matches(`^${bounded}$`, text)).toBe(within && text.length <= 3);
        }),
        runs,
      );
    },
  );
});

describe('address patterns against core/net', () => {
  it('ipPattern matches exactly what IpAddress.parse accepts', () => {
    fc.assert(
      fc.property(addressLike, (text) => {
        expect(matches(patterns.ipPattern, text)).toBe(parses(text));
      }),
      runs,
    );
  });

  it('ipv4Pattern and ipv6Pattern match exactly the addresses of their family that IpAddress.parse accepts', () => {
    const family = (text: string) => (parses(text) ? IpAddress.parse(text).family : undefined);
    fc.assert(
      fc.property(addressLike, (text) => {
        expect(matches(patterns.ipv4Pattern, text)).toBe(family(text) === 4);
        expect(matches(patterns.ipv6Pattern, text)).toBe(family(text) === 6);
      }),
      runs,
    );
  });

  it('the optional forms also match the empty string, which the BGPPeer fields read as "not set"', () => {
    expect(matches(patterns.optionalIpPattern, '')).toBe(true);
    expect(matches(patterns.optionalIpv4Pattern, '')).toBe(true);
    expect(matches(patterns.optionalIpv6Pattern, '')).toBe(true);
    expect(matches(patterns.ipPattern, '')).toBe(false);
    fc.assert(
      fc.property(addressLike, (text) => {
        if (text === '') return;
        expect(matches(patterns.optionalIpPattern, text)).toBe(matches(patterns.ipPattern, text));
        expect(matches(patterns.optionalIpv4Pattern, text)).toBe(matches(patterns.ipv4Pattern, text));
        expect(matches(patterns.optionalIpv6Pattern, text)).toBe(matches(patterns.ipv6Pattern, text));
      }),
      runs,
    );
  });

  it('poolAddressPattern matches what parsePoolAddress accepts, and ranges given backwards', () => {
    const spaces = fc.string({
      unit: fc.constantFrom(' ', '\t', '\v', '\u00a0', '\u3000', '\u2028', '\ufeff', 'x'),
      maxLength: 2,
    });
    const length = fc.oneof(
      fc.nat(140).map(String),
      fc.tuple(fc.nat(2), fc.nat(140)).map(([zeros, n]) => '0'.repeat(zeros) + n),
    );
    const cidr = fc.tuple(anyAddress, length).map(([a, l]) => `${a}/${l}`);
    const range = fc
      .tuple(spaces, anyAddress, spaces, spaces, anyAddress, spaces)
      .map(([s1, a, s2, s3, b, s4]) => `${s1}${a}${s2}-${s3}${b}${s4}`);
    const entry = fc.oneof(cidr, range, mutated(fc.oneof(cidr, range), `${ipChars}-`));
    fc.assert(
      fc.property(entry, (text) => {
        const parsed = parsePoolAddress(text);
        // A range whose start is after its end is well-formed; only the parser can compare the two.
        const wellFormed = parsed.ok || /is after end/.test(parsed.message);
        expect(matches(patterns.poolAddressPattern, text)).toBe(wellFormed);
      }),
      runs,
    );
  });
});

describe('goDurationPattern against parseGoDuration', () => {
  it('matches what the parser reads, whatever the value (sign and size are the parser’s to judge)', () => {
    const term = fc
      .tuple(
        fc.oneof(fc.nat(999).map(String), fc.constant('.5'), fc.constant('1.')),
        fc.constantFrom('ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'),
      )
      .map(([n, unit]) => n + unit);
    const valid = fc
      .tuple(fc.constantFrom('', '-', '+'), fc.array(term, { minLength: 1, maxLength: 3 }))
      .map(([sign, terms]) => sign + terms.join(''));
    const text = fc.oneof(valid, mutated(valid, '0123456789.+-nsuµμmhd'), over('0123456789.+-nsuµμmhd', 8));
    fc.assert(
      fc.property(text, (t) => {
        const parsed = parseGoDuration(t);
        const readable = parsed.ok || /too long/.test(parsed.reason);
        expect(matches(patterns.goDurationPattern, t)).toBe(readable);
      }),
      runs,
    );
  });
});

describe('communityPattern against parseCommunity', () => {
  it('matches exactly the community literals', () => {
    const part = fc.oneof(fc.bigInt(0n, 1n << 33n).map(String), fc.constant('0065535'), fc.constant(''));
    const literal = fc.oneof(
      fc.tuple(part, part).map(([a, b]) => `${a}:${b}`),
      fc.tuple(part, part, part).map(([a, b, c]) => `large:${a}:${b}:${c}`),
    );
    const text = fc.oneof(literal, mutated(literal, '0123456789:lareg'), over('0123456789:lareg', 12));
    fc.assert(
      fc.property(text, (t) => {
        expect(matches(patterns.communityPattern, t)).toBe(parseCommunity(t).ok);
      }),
      runs,
    );
  });
});

describe('label patterns against checkLabels', () => {
  const problems = (labels: Record<string, string>) => {
    let count = 0;
    const sink: IssueSink = { error: () => count++, warn: () => undefined, errorCount: () => count };
    checkLabels(labels, 'labels', sink);
    return count;
  };
  const labelChars = 'aZ09-_./!';
  const text = (max: number) =>
    fc.oneof(
      over(labelChars, 12),
      fc.tuple(over('az', 2), fc.nat(max), over('az', 2)).map(([a, n, b]) => a + 'x'.repeat(n) + b),
    );

  it('labelValuePattern matches exactly the valid label values', () => {
    fc.assert(
      fc.property(text(70), (value) => {
        expect(matches(patterns.labelValuePattern, value)).toBe(problems({ key: value }) === 0);
      }),
      runs,
    );
  });

  it('labelKeyPattern with its maxLength matches every valid key, and refuses every invalid one whose prefix fits', () => {
    const key = fc.oneof(
      text(70),
      fc.tuple(text(260), text(70)).map(([prefix, name]) => `${prefix}/${name}`),
    );
    fc.assert(
      fc.property(key, (k) => {
        const valid = problems({ [k]: '' }) === 0;
        const accepted = matches(patterns.labelKeyPattern, k) && k.length <= patterns.labelKeyMaxLength;
        const slash = k.indexOf('/');
        const prefixFits = slash < 0 || slash <= 253;
        if (valid) expect(accepted).toBe(true);
        else if (prefixFits) expect(accepted).toBe(false);
      }),
      runs,
    );
  });
});

describe('pattern syntax', () => {
  it('uses only what Go RE2 and ECMAScript read alike', () => {
    const all = Object.entries(patterns).filter(([, v]) => typeof v === 'string') as [string, string][];
    expect(all.length).toBeGreaterThan(8);
    for (const [name, source] of all) {
      expect(source, name).toMatch(/^\^/);
      expect(source, name).not.toMatch(/\(\?[=!<]|\\[1-9Pku]|\\x\{|\\p(?!\{Z\}|\{Cf\})/);
      // No line separator or byte-order mark: the CRD's YAML must read back the same in Go.
      expect(source, name).toMatch(/^[\x20-\x7e\u00b5\u03bc]*$/);
    }
  });
});
