/** Writing XML 1.0 by hand, safely: escaping, and characters XML 1.0 cannot hold at all. */

// Control characters other than tab, LF and CR, U+FFFE/U+FFFF and unpaired surrogates are not allowed
// anywhere in an XML 1.0 document, not even as character references; they become U+FFFD.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/gu;

export function escapeText(s: string): string {
  return s.replace(forbidden, '\uFFFD').replace(/[&<>]/g, (c) => entities[c] ?? c);
}

/** Attribute values also escape quotes, and line breaks and tabs, which parsers would turn into spaces. */
export function escapeAttribute(s: string): string {
  return s.replace(forbidden, '\uFFFD').replace(/[&<>"'\t\n\r]/g, (c) => entities[c] ?? c);
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** `<name a="1" b="x">`, or self-closed; attributes in the order given, so output is deterministic. */
export function startTag(
  name: string,
  attributes: Readonly<Record<string, string | number>>,
  selfClose = false,
): string {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('');
  return `<${name}${attrs}${selfClose ? '/>' : '>'}`;
}
