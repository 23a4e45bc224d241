import { describe, expect, it } from 'vitest';
import { code, codeBlock, table, text } from './markdown-text.ts';

describe('Markdown text', () => {
  it('escapes markup characters and flattens line breaks', () => {
    expect(text('a|b <i>x</i> *y* _z_ [l](u) `c` # ~s~ &amp; \\')).toBe(
      'a\\|b \\<i\\>x\\</i\\> \\*y\\* \\_z\\_ \\[l\\](u) \\`c\\` \\# \\~s\\~ \\&amp; \\\\',
    );
    expect(text('one\r\n  two\nthree')).toBe('one two three');
  });

  it('fences code longer than any backtick run inside', () => {
    expect(code('abc')).toBe('`abc`');
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`a')).toBe('`` `a ``');
    expect(codeBlock('x ``` y', 'sh')).toEqual(['````sh', 'x ``` y', '````']);
  });

  it('builds a table with right-aligned columns where asked', () => {
    expect(table(['a', 'b'], [['1', '2']], [1])).toEqual(['| a | b |', '| --- | ---: |', '| 1 | 2 |']);
  });
});
