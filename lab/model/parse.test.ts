import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../core/config/issues.ts';
import { parseTopology } from './parse.ts';
import { readTopology } from './read.ts';
import { errorsOf, nodeOf, testFile, topologyOf } from './test-support.ts';

const lan = { segments: { lan: {} } };

describe('defaults', () => {
  it('makes a node an lblab-node when nothing says otherwise', () => {
    const t = topologyOf({ ...lan, nodes: { n1: { links: ['lan'] } } });
    expect(nodeOf(t, 'n1')).toMatchObject({ kind: 'lblab-node', labels: {} });
  });

  it('applies to every node that does not set the field itself', () => {
    const t = topologyOf({
      ...lan,
      defaults: { kind: 'lblab-node', links: ['lan'], labels: { site: 'lab' } },
      nodes: { n1: {}, n2: null, c1: { kind: 'client', labels: { role: 'probe' } } },
    });
    expect(nodeOf(t, 'n1')).toMatchObject({ kind: 'lblab-node', labels: { site: 'lab' } });
    expect(nodeOf(t, 'n2').attachments.map((a) => a.segment)).toEqual(['lan']);
    expect(nodeOf(t, 'c1')).toMatchObject({ kind: 'client', labels: { site: 'lab', role: 'probe' } });
  });

  it('gives routers impl frr and an empty peer list, and router-only defaults reach routers only', () => {
    const t = topologyOf({
      ...lan,
      defaults: { links: ['lan'], asn: 64512 },
      nodes: {
        r1: { kind: 'router', peers: ['n1'] },
        r2: { kind: 'router', impl: 'bird', asn: 64600 },
        n1: {},
      },
    });
    expect(nodeOf(t, 'r1')).toMatchObject({ impl: 'frr', asn: 64512, peers: ['n1'] });
    expect(nodeOf(t, 'r2')).toMatchObject({ impl: 'bird', asn: 64600, peers: [] });
    expect(nodeOf(t, 'n1')).not.toHaveProperty('asn');
    expect(nodeOf(t, 'n1')).not.toHaveProperty('impl');
  });

  it('does not give a client behind a router the links other nodes inherit', () => {
    const t = topologyOf({
      ...lan,
      defaults: { links: ['lan'] },
      nodes: { r1: { kind: 'router' }, c1: { kind: 'client', behind: 'r1' } },
    });
    expect(nodeOf(t, 'c1')).toMatchObject({ behind: 'r1' });
    expect(nodeOf(t, 'c1').attachments.map((a) => a.segment)).toEqual(['r1-c1']);
  });
});

describe('groups', () => {
  const grouped = topologyOf({
    segments: { 'lan-a': {}, 'lan-b': {} },
    defaults: { links: ['lan-a'], labels: { site: 'lab', zone: 'none' }, impl: 'gobgp' },
    groups: {
      rack1: { nodes: ['n1', 'n2', 'r1'], labels: { zone: 'a' }, links: ['lan-b'], impl: 'bird' },
    },
    nodes: {
      n1: {},
      n2: { labels: { zone: 'a2' }, links: ['lan-a'] },
      n3: {},
      r1: { kind: 'router' },
      r2: { kind: 'router' },
    },
  });

  it('records the group and merges labels: defaults, then the group, then the node', () => {
    expect(nodeOf(grouped, 'n1')).toMatchObject({ group: 'rack1', labels: { site: 'lab', zone: 'a' } });
    expect(nodeOf(grouped, 'n2').labels).toEqual({ site: 'lab', zone: 'a2' });
    expect(nodeOf(grouped, 'n3')).not.toHaveProperty('group');
    expect(nodeOf(grouped, 'n3').labels).toEqual({ site: 'lab', zone: 'none' });
  });

  it("takes links whole from the most specific place: the node's, else the group's, else the defaults'", () => {
    const segmentsOf = (name: string) => nodeOf(grouped, name).attachments.map((a) => a.segment);
    expect(segmentsOf('n1')).toEqual(['lan-b']);
    expect(segmentsOf('n2')).toEqual(['lan-a']);
    expect(segmentsOf('n3')).toEqual(['lan-a']);
  });

  it("applies a group's router settings to its routers", () => {
    expect(nodeOf(grouped, 'r1').impl).toBe('bird');
    expect(nodeOf(grouped, 'r2').impl).toBe('gobgp');
  });
});

describe('services', () => {
  it('defaults the namespace and annotations and reads a bare port as TCP', () => {
    const t = topologyOf({
      ...lan,
      defaults: { links: ['lan'] },
      nodes: { n1: {}, n2: {} },
      services: [
        { name: 'web', ports: [80, '7777/UDP', '9/SCTP'] },
        {
          name: 'api',
          namespace: 'hosted',
          ports: ['6443/TCP'],
          ipFamilyPolicy: 'RequireDualStack',
          ipFamilies: ['IPv6', 'IPv4'],
          externalTrafficPolicy: 'Local',
          annotations: { 'metallb.io/address-pool': 'api' },
          endpointsOn: ['n2'],
        },
      ],
    });
    expect(t.services).toEqual([
      {
        name: 'web',
        namespace: 'default',
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 7777, protocol: 'UDP' },
          { port: 9, protocol: 'SCTP' },
        ],
        annotations: {},
      },
      {
        name: 'api',
        namespace: 'hosted',
        ports: [{ port: 6443, protocol: 'TCP' }],
        ipFamilyPolicy: 'RequireDualStack',
        ipFamilies: ['IPv6', 'IPv4'],
        externalTrafficPolicy: 'Local',
        annotations: { 'metallb.io/address-pool': 'api' },
        endpointsOn: ['n2'],
      },
    ]);
  });
});

describe('the topology as a whole', () => {
  it('keeps name and description and resolves config files against the topology file', () => {
    const t = topologyOf({
      description: 'a test',
      ...lan,
      nodes: { n1: { links: ['lan'] } },
      config: ['./a.metallb.yaml', '../shared/b.yaml'],
    });
    expect(t).toMatchObject({ name: 'lab', description: 'a test', file: testFile });
    expect(t.configFiles).toEqual(['/labs/a.metallb.yaml', '/shared/b.yaml']);
  });

  it('looks config files up only through fileExists, given their resolved paths', () => {
    const asked: string[] = [];
    const fileExists = (p: string) => (asked.push(p), p.endsWith('a.yaml'));
    expect(
      errorsOf({ ...lan, nodes: { n1: { links: ['lan'] } }, config: ['a.yaml', 'b.yaml'] }, { fileExists }),
    ).toEqual([
      `${testFile}: document 0 (Topology "lab"): config[1]: b.yaml does not exist (looked for /labs/b.yaml)`,
    ]);
    expect(asked).toEqual(['/labs/a.yaml', '/labs/b.yaml']);
  });

  it('names file, document, topology and field path in each error', () => {
    const errors = errorsOf({
      ...lan,
      nodes: { n4: { links: [{ segment: 'lan', interface: 'eth0', delayMs: 2, lossPct: 101 }] } },
    });
    expect(errors).toEqual([
      `${testFile}: document 0 (Topology "lab"): nodes.n4.links[0].lossPct: must be between 0 and 100`,
    ]);
  });

  it('reports every shape error at once, and stops before references that would only echo them', () => {
    const errors = errorsOf({
      segments: { LAN: {} },
      nodes: { n1: { links: ['LAN'], kind: 'host' }, n2: { links: ['wan'] } },
    });
    expect(errors.map((e) => e.replace(/^.*?"lab"\): /, ''))).toEqual([
      `segments.LAN: "LAN" must be lower-case letters, digits and '-', starting and ending with a letter or digit`,
      `nodes.n1.links[0]: "LAN" must be lower-case letters, digits and '-', starting and ending with a letter or digit`,
      'nodes.n1.kind: must be one of lblab-node, router, client, got a string ("host")',
    ]);
  });

  it('refuses an empty file and a file with two topologies', () => {
    expect(parseTopology('t.yaml', '# nothing\n')).toEqual({
      ok: false,
      errors: [{ file: 't.yaml', document: 0, path: '', message: 'the file holds no topology' }],
    });
    const two = parseTopology('t.yaml', 'name: a\nnodes: { n1: {} }\n---\nname: b\nnodes: { n1: {} }\n');
    expect(two.ok ? [] : two.errors.map(formatIssue)).toEqual([
      't.yaml: document 1: a topology file holds one YAML document; put each topology in its own file',
    ]);
  });

  it('gives the line and column of a YAML syntax error', () => {
    const result = parseTopology('t.yaml', 'name: a\nnodes: { n1: {\n');
    expect(result.ok ? undefined : result.errors[0]).toMatchObject({
      file: 't.yaml',
      document: 0,
      line: 3,
      column: 1,
    });
  });
});

describe('readTopology', () => {
  it('reports a file it cannot read as an error of that file', async () => {
    const path = join(import.meta.dirname, 'testdata', 'no-such-file.yaml');
    const result = await readTopology(path);
    expect(result.ok ? [] : result.errors).toMatchObject([
      { file: path, document: 0, path: '', message: expect.stringContaining('cannot read the file: ENOENT') },
    ]);
  });
});
