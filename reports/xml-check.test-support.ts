/**
 * A strict little XML reader for the JUnit tests: it accepts only well-formed XML of the kind the
 * renderer writes (declaration, elements, double-quoted attributes, text, the five entities and numeric
 * character references) and throws on anything else, so a test that reads junit.xml back proves it parses.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/u;
const entity = /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;
const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseXml(xml: string): XmlElement {
  if (forbidden.test(xml)) throw new Error('a character XML 1.0 forbids');
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/;
  if (!declaration.test(xml)) throw new Error('no XML declaration');
  let rest = xml.replace(declaration, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>/;
  while (rest !== '') {
    const m = tag.exec(rest);
    if (m !== null) {
      const [whole, closing = '', name = '', attrs = '', selfClosing = ''] = m;
      rest = rest.slice(whole.length);
      if (closing !== '') {
        if (stack.pop()?.name !== name) throw new Error(`</${name}> closes nothing open`);
        continue;
      }
      if (root !== undefined && stack.length === 0) throw new Error('a second root element');
      const element: XmlElement = { name, attributes: readAttributes(attrs), children: [], text: '' };
      stack.at(-1)?.children.push(element);
      root ??= element;
      if (selfClosing === '') stack.push(element);
      continue;
    }
    const end = rest.search(/</);
    const chunk = end === -1 ? rest : rest.slice(0, end);
    if (chunk === '') throw new Error(`not a tag: ${rest.slice(0, 30)}`);
    const open = stack.at(-1);
    if (open === undefined && chunk.trim() !== '') throw new Error('text outside the root element');
    if (open !== undefined) open.text += decode(chunk);
    rest = rest.slice(chunk.length);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)?.name}> is not closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

function readAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
    const [, name = '', value = ''] = m;
    if (name in out) throw new Error(`attribute ${name} given twice`);
    if (value.includes('<')) throw new Error(`< in attribute ${name}`);
    out[name] = decode(value);
  }
  return out;
}

function decode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    if (text[i] !== '&') {
      out += text[i];
      i++;
      continue;
    }
    const m = entity.exec(text.slice(i));
    if (m === null) throw new Error(`bare & in ${JSON.stringify(text)}`);
    const ref = m[1] ?? '';
    out += ref.startsWith('#x')
      ? String.fromCodePoint(parseInt(ref.slice(2), 16))
      : ref.startsWith('#')
        ? String.fromCodePoint(Number(ref.slice(1)))
        : named[ref];
    i += m[0].length;
  }
  return out;
}

/** Every element called `name`, depth first. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  return [...(root.name === name ? [root] : []), ...root.children.flatMap((c) => findAll(c, name))];
}
