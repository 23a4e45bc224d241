import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatManifestIssue, parseClusterManifests } from './manifests.ts';

const quickstart = new URL('../../topologies/quickstart/cluster.yaml', import.meta.url);

describe('parseClusterManifests', () => {
  it('reads the quick-start cluster into Kubernetes shapes', () => {
    const r = parseClusterManifests('cluster.yaml', readFileSync(quickstart, 'utf8'));
    if (!r.ok) throw new Error(r.issues.map(formatManifestIssue).join('\n'));
    expect(r.snapshot.nodes.map((n) => n.metadata.name)).toEqual(['n1', 'n2', 'n3']);
    expect(r.snapshot.services.map((s) => s.metadata.name)).toEqual([
      'frontend',
      'dns-tcp',
      'dns-udp',
      'api',
      'pinned',
    ]);
    expect(r.snapshot.namespaces[0]?.metadata.labels).toEqual({ team: 'web' });
    expect(r.snapshot.endpointSlices[0]?.endpoints?.map((e) => e.nodeName)).toEqual(['n1', 'n2']);
  });

  it('unwraps a kubectl List', () => {
    const text = `apiVersion: v1
kind: List
items:
  - { apiVersion: v1, kind: Node, metadata: { name: a } }
  - { apiVersion: v1, kind: Node, metadata: { name: b } }
`;
    const r = parseClusterManifests('dump.yaml', text);
    expect(r.ok && r.snapshot.nodes.map((n) => n.metadata.name)).toEqual(['a', 'b']);
  });

  it.each([
    ['apiVersion: v1\nkind: Pod\nmetadata: { name: p }\n', 'c.yaml: document 0: kind: unsupported v1/Pod'],
    ['apiVersion: v1\nkind: Node\nmetadata: {}\n', 'c.yaml: document 0: metadata.name: is required'],
    [
      '---\napiVersion: v1\nkind: Node\nmetadata: { name: a }\n---\napiVersion: v1\nkind: Service\nmetadata: { name: s }\nspec: { ports: [{ port: 70000 }] }\n',
      'c.yaml: document 1: spec.ports[0].port: must be an integer 1..65535',
    ],
    [
      'apiVersion: v1\nkind: Service\nmetadata: { name: s }\nspec: { type: LoadBalancer, ipFamilyPolicy: DualStack }\n',
      'c.yaml: document 0: spec.ipFamilyPolicy: "DualStack" is not one of SingleStack, PreferDualStack, RequireDualStack',
    ],
    [
      'apiVersion: v1\nkind: Node\nmetadata: { name: a, labels: { x: 1 } }\n',
      'metadata.labels: must map strings to strings',
    ],
    [
      'apiVersion: v1\nkind: Node\nmetadata: { name: a }\n---\napiVersion: v1\nkind: Node\nmetadata: { name: a }\n',
      'c.yaml: document 1: metadata.name: duplicate Node a',
    ],
    [
      'apiVersion: v1\nkind: List\nitems:\n  - { apiVersion: v1, kind: Node, metadata: {} }\n',
      'document 0: items[0].metadata.name: is required',
    ],
    ['a: [1,\n', 'c.yaml: document 0: YAML:'],
  ])('rejects the whole file, naming file, document and field: %#', (text, expected) => {
    const r = parseClusterManifests('c.yaml', text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatManifestIssue).join('\n')).toContain(expected);
  });
});
