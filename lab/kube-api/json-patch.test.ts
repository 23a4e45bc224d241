import { describe, expect, test } from 'vitest';
import { JsonPatchError } from './errors.ts';
import { applyJsonPatch } from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';

describe('JSON Patch (RFC 6902)', () => {
  const doc = { metadata: { labels: { 'a/b': '1', 'c~d': '2' } }, list: [1, 2, 3] };

  test('add, remove, replace, move, copy and test, with escaped pointers and array positions', () => {
    const patched = applyJsonPatch(doc, [
      { op: 'add', path: '/list/1', value: 9 },
      { op: 'add', path: '/list/-', value: 4 },
      { op: 'remove', path: '/list/0' },
      { op: 'replace', path: '/metadata/labels/a~1b', value: 'x' },
      { op: 'move', from: '/metadata/labels/c~0d', path: '/moved' },
      { op: 'copy', from: '/moved', path: '/copied' },
      { op: 'test', path: '/copied', value: '2' },
    ]);
    expect(patched).toEqual({
      metadata: { labels: { 'a/b': 'x' } },
      list: [9, 2, 3, 4],
      moved: '2',
      copied: '2',
    });
    expect(doc.list).toEqual([1, 2, 3]); // the input is not changed
  });

  test.each([
    [[{ op: 'test', path: '/list/0', value: 7 }], 'testing value /list/0 failed'],
    [[{ op: 'remove', path: '/missing' }], 'path /missing does not exist'],
    [[{ op: 'replace', path: '/a/b', value: 1 }], 'path /a/b does not exist'],
    [[{ op: 'add', path: '/list/9', value: 1 }], 'array index 9 out of bounds'],
    [[{ op: 'frobnicate', path: '/x' }], 'unknown operation "frobnicate"'],
    [{ op: 'add' }, 'a JSON patch must be an array of operations'],
  ])('%j fails with %j', (operations, message) => {
    expect(() => applyJsonPatch(doc, operations)).toThrow(JsonPatchError);
    expect(() => applyJsonPatch(doc, operations)).toThrow(message);
  });
});

describe('JSON Merge Patch (RFC 7386)', () => {
  test.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: { b: 'c', d: 'e' } }, { a: { b: null } }, { a: { d: 'e' } }],
    [{ a: [1, 2] }, { a: [3] }, { a: [3] }],
    [{ a: 'b' }, ['c'], ['c']],
    [['a'], { a: 'b' }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('RFC 7386 appendix A: %j + %j = %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });
});
