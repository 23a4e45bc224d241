import { describe, expect, test } from 'vitest';
import { ApiStatusError } from './errors.ts';
import type { KubeObject } from './objects.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';

const obj = (name: string, labels?: Record<string, string>, extra: object = {}): KubeObject => ({
  metadata: { name, namespace: 'ns1', ...(labels === undefined ? {} : { labels }) },
  ...extra,
});
const objects = [obj('a', { app: 'web', tier: 'front' }), obj('b', { app: 'db' }), obj('c')];
const select = (selector: string) => objects.filter(parseLabelSelector(selector)).map((o) => o.metadata.name);

describe('label selectors', () => {
  test.each([
    ['', ['a', 'b', 'c']],
    ['app=web', ['a']],
    ['app==web', ['a']],
    ['app!=web', ['b', 'c']], // != also matches objects without the label
    ['app in (web, db)', ['a', 'b']],
    ['app notin (web)', ['b', 'c']],
    ['tier', ['a']],
    ['!tier', ['b', 'c']],
    ['app,!tier', ['b']],
    ['app in (web,db),tier=front', ['a']],
    ['app=', []],
  ])('%j selects %j', (selector, names) => {
    expect(select(selector)).toEqual(names);
  });

  test.each(['app in web', 'app=(x)', '=web', 'app in (a b)'])('%j is a 400 BadRequest', (selector) => {
    try {
      parseLabelSelector(selector);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiStatusError);
      expect((e as ApiStatusError).status).toMatchObject({ code: 400, reason: 'BadRequest' });
    }
  });
});

describe('field selectors', () => {
  const pods = [obj('p1', {}, { spec: { nodeName: 'n1' } }), obj('p2', {}, { spec: { nodeName: 'n2' } })];
  test('metadata.name, metadata.namespace and the type’s own fields, with = == and !=', () => {
    const pick = (s: string) =>
      pods.filter(parseFieldSelector(s, ['spec.nodeName'])).map((o) => o.metadata.name);
    expect(pick('metadata.name=p1')).toEqual(['p1']);
    expect(pick('metadata.namespace==ns1,spec.nodeName!=n1')).toEqual(['p2']);
    expect(pick('spec.nodeName=n3')).toEqual([]);
  });

  test('a field the type does not serve is refused as upstream refuses it', () => {
    expect(() => parseFieldSelector('spec.nodeName=n1', [])).toThrow(
      'field label not supported: spec.nodeName',
    );
  });
});
