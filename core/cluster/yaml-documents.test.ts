import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readYamlDocuments } from './yaml-documents.ts';

/** What yaml alone reads, the reference this reader must agree with. */
const byYaml = (text: string) => parseAllDocuments(text).map((d) => ({ value: d.toJS() as unknown }));

describe('readYamlDocuments', () => {
  it.each([
    ['one document', 'kind: Node\nmetadata: { name: n1 }\n'],
    ['a leading marker', '---\nkind: Node\n'],
    ['a trailing marker', 'kind: Node\n---\n'],
    ['an empty document between two', 'a: 1\n---\n---\nb: 2\n'],
    ['a document end marker', 'a: 1\n...\n---\nb: 2\n'],
    ['a comment before the first marker', '# generated\n---\na: 1\n'],
    ['flow style and anchors', 'a: &x [1, 2]\nb: *x\nc: { d: "e" }\n'],
  ])('reads %s as yaml does, document by document', (_, text) => {
    expect(readYamlDocuments(text)).toEqual(byYaml(text));
  });

  it('keeps what the core schema keeps as text: dates, yes/no, merge keys', () => {
    const [doc] = readYamlDocuments('created: 2024-01-01\nanswer: yes\nbase: &b { x: 1 }\nm: { <<: *b }\n');
    expect(doc).toEqual({
      value: { created: '2024-01-01', answer: 'yes', base: { x: 1 }, m: { '<<': { x: 1 } } },
    });
  });

  it('reads no document from an empty text or comments alone', () => {
    expect(readYamlDocuments('')).toEqual([]);
    expect(readYamlDocuments('# nothing yet\n\n')).toEqual([]);
  });

  it('says which documents are broken, and still reads the others', () => {
    const docs = readYamlDocuments('a: 1\n---\nb: [1,\n---\nc: 3\nc: 4\n');
    expect(docs).toHaveLength(3);
    expect(docs[0]).toEqual({ value: { a: 1 } });
    expect(docs[1]).toMatchObject({ errors: [expect.stringMatching(/flow sequence|\]/i)] });
    expect(docs[2]).toMatchObject({ errors: [expect.stringMatching(/unique|duplicate/i)] });
  });
});
