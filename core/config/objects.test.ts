import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { formatIssue } from './issues.ts';
import { loadConfig, loadObjects } from './load.ts';
import { labelled, objectLabel } from './objects.ts';
import { bfdProfile, peer, pool } from './test-support.ts';

const good = join(import.meta.dirname, 'testdata', 'good');
const objectsOf = (file: string): unknown[] =>
  parseAllDocuments(readFileSync(join(good, file), 'utf8')).map((d) => d.toJS() as unknown);

describe('loadObjects (resources read from the cluster)', () => {
  it("accepts every good file's resources, as loadConfig does, with the same model", () => {
    for (const file of readdirSync(good).filter((f) => f.endsWith('.yaml'))) {
      const fromFile = loadConfig([{ path: file, text: readFileSync(join(good, file), 'utf8') }]);
      const fromObjects = loadObjects(labelled(objectsOf(file)));
      expect(fromObjects.ok ? [] : fromObjects.errors.map(formatIssue), file).toEqual([]);
      const names = (r: typeof fromFile) =>
        r.ok ? r.config.pools.map((p) => p.meta.name).concat(r.config.peers.map((p) => p.meta.name)) : [];
      expect(names(fromObjects)).toEqual(names(fromFile));
    }
  });

  it('names objects by kind, namespace and name, also where a message points at another object', () => {
    const result = loadObjects(
      labelled([
        pool('pool1', { addresses: ['198.18.0.0/16'] }),
        pool('pool2', { addresses: ['198.18.0.0/24'] }),
      ]),
    );
    expect(result.ok ? [] : result.errors.map(formatIssue)).toEqual([
      'IPAddressPool metallb-system/pool2: spec.addresses[0]: "198.18.0.0/24" overlaps "198.18.0.0/16" (spec.addresses[0] of IPAddressPool "pool1")',
    ]);
  });

  it('keeps the order the objects were given, and carries the object flag on every issue', () => {
    const result = loadObjects(
      labelled([
        peer('p1', { myASN: 64500, peerASN: 64501, peerAddress: '198.18.0.1', bfdProfile: 'missing' }),
        bfdProfile('b1', { detectMultiplier: 1 }),
      ]),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.file, e.path, e.object])).toEqual([
      ['BGPPeer metallb-system/p1', 'spec.bfdProfile', true],
      ['BFDProfile metallb-system/b1', 'spec.detectMultiplier', true],
    ]);
  });

  it('labels objects that lack parts with "?"', () => {
    expect(objectLabel({ kind: 'BGPPeer', metadata: { name: 'p' } })).toBe('BGPPeer ?/p');
    expect(objectLabel('text')).toBe('object ?');
  });
});
