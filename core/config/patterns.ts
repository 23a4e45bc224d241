/**
 * Regular expressions for the CRD schemas, each stating the syntax that one of lblab's parsers checks
 * (addresses, prefix lengths, Go durations, community values, labels), so that the API server refuses
 * at the schema what lblab would refuse. They are written in the subset that Go's RE2 (the API server)
 * and ECMAScript (ajv, in the tests) read alike: no lookaround, no backreferences, no escapes of code
 * points beyond \xFF, Unicode classes only as \p{Z} and \p{Cf}.
 * patterns.test.ts checks each against its parser on generated input.
 */

/** `^(?:body)$`: schema patterns are searched, not matched, so every one is anchored. */
function whole(body: string): string {
  return `^(?:${body})$`;
}

/** The decimal numbers 0..max written without leading zeros, as alternatives with their length. */
function decimalsUpTo(max: bigint): { body: string; length: number }[] {
  const digits = max.toString();
  const anyDigits = (count: number) => (count === 0 ? '' : count === 1 ? '[0-9]' : `[0-9]{${count}}`);
  const range = (low: number, high: number) => (low === high ? String(low) : `[${low}-${high}]`);
  const out: { body: string; length: number }[] = [];
  // Every length shorter than max's is free: 0-9, then 10-99, ...
  for (let length = 1; length < digits.length; length++) {
    out.push({ body: length === 1 ? '[0-9]' : `[1-9]${anyDigits(length - 1)}`, length });
  }
  // Of max's own length: keep a prefix of max, then a smaller digit (at the last, up to max's), then any.
  for (let i = 0; i < digits.length; i++) {
    const last = i === digits.length - 1;
    const low = i === 0 && digits.length > 1 ? 1 : 0;
    const high = Number(digits[i]) - (last ? 0 : 1);
    if (high < low) continue;
    out.push({
      body: `${digits.slice(0, i)}${range(low, high)}${anyDigits(digits.length - i - 1)}`,
      length: digits.length,
    });
  }
  return out;
}

/**
 * A decimal number 0..max, leading zeros allowed as Go's strconv.ParseUint and lblab's parsers allow
 * them; with `digits`, at most that many digits in all, leading zeros included.
 */
export function decimalUpTo(max: bigint, digits?: number): string {
  const alternatives = decimalsUpTo(max)
    .filter(({ length }) => digits === undefined || length <= digits)
    .map(({ body, length }) => {
      if (digits === undefined) return `0*${body}`;
      return digits === length ? body : `0{0,${digits - length}}${body}`;
    });
  return `(?:${alternatives.join('|')})`;
}

/** 0..max without leading zeros, as an IPv4 address's parts are written. */
function exactDecimalUpTo(max: bigint): string {
  return `(?:${decimalsUpTo(max)
    .map((alt) => alt.body)
    .join('|')})`;
}

const v4 = `${exactDecimalUpTo(255n)}(?:\\.${exactDecimalUpTo(255n)}){3}`;
const hex = '[0-9A-Fa-f]{1,4}';

/** `count` groups "h:h:h" (nothing for 0). */
function groups(count: number): string {
  return count === 0 ? '' : count === 1 ? hex : `${hex}(?::${hex}){${count - 1}}`;
}

/**
 * IPv6 as core/net's IpAddress.parse reads it: eight groups, or fewer around one "::" that stands for
 * at least one group, with an IPv4 address as the last two groups allowed; no zone.
 */
function v6Alternatives(): string[] {
  const out = [`(?:${hex}:){7}${hex}`, `(?:${hex}:){6}${v4}`];
  for (let head = 0; head <= 7; head++) {
    const room = 7 - head;
    const tails = [];
    if (room >= 1) tails.push(room === 1 ? hex : `${hex}(?::${hex}){0,${room - 1}}`);
    if (room >= 2) tails.push(room === 2 ? v4 : `(?:${hex}:){0,${room - 2}}${v4}`);
    const tail = tails.length === 0 ? '' : `(?:${tails.join('|')})?`;
    out.push(`${groups(head)}::${tail}`);
  }
  return out;
}

const v6 = `(?:${v6Alternatives().join('|')})`;

export const ipv4Pattern = whole(v4);
export const ipv6Pattern = whole(v6);
export const ipPattern = whole(`${v4}|${v6}`);
/** What core/net parses as an address, or nothing (fields where an empty string means "not set"). */
export const optionalIpv4Pattern = whole(`(?:${v4})?`);
export const optionalIpv6Pattern = whole(`(?:${v6})?`);
export const optionalIpPattern = whole(`(?:${v4}|${v6})?`);

/**
 * The characters String.prototype.trim removes, which a range may carry around its "-": ASCII white
 * space, Unicode separators and U+FEFF. U+FEFF can only be named as a format character (\p{Cf}), which
 * lets a few more through than the parser takes; the webhook refuses those. Named by class rather than
 * written out, so the CRD's YAML holds no line separator or byte-order mark.
 */
const trimmed = '[\\t\\n\\v\\f\\r\\p{Z}\\p{Cf}]*';

/** An IPAddressPool address, as core/config/addresses.ts reads it: a CIDR, or a range of one family. */
export const poolAddressPattern = whole(
  [
    `${v4}/${decimalUpTo(32n, 3)}`,
    `${v6}/${decimalUpTo(128n, 3)}`,
    `${trimmed}${v4}${trimmed}-${trimmed}${v4}${trimmed}`,
    `${trimmed}${v6}${trimmed}-${trimmed}${v6}${trimmed}`,
  ].join('|'),
);

/**
 * A Go duration (core/config/durations.ts): "0", or numbers each with a unit. The sign is left to the
 * parser, which refuses negative durations unless they truncate to zero.
 */
export const goDurationPattern = whole(
  '[-+]?0|[-+]?(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+',
);

const u16 = decimalUpTo(65535n);
const u32 = decimalUpTo(4294967295n);
/** A community literal (core/config/communities.ts): "asn:value", or "large:global:local1:local2". */
export const communityPattern = whole(`${u16}:${u16}|large:${u32}:${u32}:${u32}`);

/** No carriage return or line feed: MetalLB refuses them in strings it writes into routing configuration. */
export const singleLinePattern = '^[^\\r\\n]*$';

const labelName = '(?:[A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]';
const dnsSubdomain = '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*';
/** A label value (core/config/labels.ts): empty, or up to 63 name characters. */
export const labelValuePattern = whole(`(?:${labelName})?`);
/**
 * A label key: an optional DNS-subdomain prefix and "/", then a name. The prefix's own limit of 253
 * characters is beyond a regular expression of this size; the key's maxLength bounds the whole.
 */
export const labelKeyPattern = whole(`(?:${dnsSubdomain}/)?${labelName}`);
export const labelKeyMaxLength = 253 + 1 + 63;
