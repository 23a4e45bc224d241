import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.ts';
import { loadConfig } from './load.ts';
import { errors, l2Adv, load, pool, valid, warnings } from './test-support.ts';

const poolYaml = (name: string, address: string) => `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata:
  name: ${name}
spec:
  addresses: [${address}]
`;

describe('loadConfig', () => {
  it('formats an issue with file, document, resource and field path', () => {
    const text = [
      poolYaml('zero', '198.18.1.0/24'),
      '# an empty document\n',
      poolYaml('first-pool', '198.18.0.20-198.18.0.10'),
    ].join('---\n');
    const result = loadConfig([{ path: 'pools.yaml', text }]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map(formatIssue)).toEqual([
      'pools.yaml: document 2 (IPAddressPool "first-pool"): spec.addresses[0]: range "198.18.0.20-198.18.0.10": start 198.18.0.20 is after end 198.18.0.10',
    ]);
  });

  it('rejects the whole configuration when any resource is bad: no config comes back', () => {
    const result = load([pool('good', { addresses: ['10.0.0.0/24'] }), pool('bad', { addresses: ['x'] })]);
    expect(result).toEqual({ ok: false, errors: expect.any(Array), warnings: [] });
  });

  it('reads several files and lists issues in file and document order, whatever check found them', () => {
    const result = loadConfig([
      { path: 'b.yaml', text: `${poolYaml('p1', '10.0.0.0/8')}---\n${poolYaml('p2', '10.0.0.0/16')}` },
      { path: 'a.yaml', text: poolYaml('p3', 'bad') },
    ]);
    expect(!result.ok && result.errors.map((e) => [e.file, e.document, e.path])).toEqual([
      ['b.yaml', 1, 'spec.addresses[0]'],
      ['a.yaml', 0, 'spec.addresses[0]'],
    ]);
  });

  it('finds overlaps and duplicate names across files', () => {
    const result = loadConfig([
      { path: 'one.yaml', text: poolYaml('p', '10.0.0.0/24') },
      { path: 'two.yaml', text: poolYaml('p', '10.0.0.128/25') },
    ]);
    expect(!result.ok && result.errors.map(formatIssue)).toEqual([
      'two.yaml: document 0 (IPAddressPool "p"): metadata.name: duplicate IPAddressPool name "p": already defined in one.yaml document 0',
      'two.yaml: document 0 (IPAddressPool "p"): spec.addresses[0]: "10.0.0.128/25" overlaps "10.0.0.0/24" (spec.addresses[0] of IPAddressPool "p" in one.yaml document 0)',
    ]);
  });

  it('gives YAML syntax errors with file, document and line', () => {
    const result = loadConfig([
      { path: 'broken.yaml', text: `${poolYaml('ok', '10.0.0.0/24')}---\nkind: [\n` },
    ]);
    const issue = !result.ok ? result.errors[0] : undefined;
    expect(issue).toMatchObject({ file: 'broken.yaml', document: 1, path: '', line: 9 });
    expect(formatIssue(issue!)).toMatch(/^broken\.yaml:9:\d+: document 1: YAML: /);
  });

  it('skips empty documents and comments, but counts them in document numbers as kubectl does', () => {
    const result = loadConfig([{ path: 'f.yaml', text: `# header\n---\n---\n${poolYaml('p', 'bad')}` }]);
    expect(!result.ok && result.errors.map((e) => e.document)).toEqual([1]);
    const later = loadConfig([
      { path: 'f.yaml', text: `${poolYaml('ok', '10.0.0.0/24')}---\n---\n${poolYaml('p', 'bad')}` },
    ]);
    expect(!later.ok && later.errors.map((e) => e.document)).toEqual([2]);
  });

  it('warns about a file with no resources', () => {
    const result = loadConfig([{ path: 'empty.yaml', text: '# nothing here\n' }]);
    expect(result.ok).toBe(true);
    expect(result.warnings.map(formatIssue)).toEqual(['empty.yaml: document 0: the file holds no resources']);
  });

  it('takes the namespace from the option, and refuses resources in any other', () => {
    const inNs = (ns: string) => ({ ...l2Adv('l2'), metadata: { name: 'l2', namespace: ns } });
    valid(load([inNs('lb')], { namespace: 'lb' }));
    expect(errors(load([inNs('lb')]))).toEqual([
      'document 0: metadata.namespace: resource must be in namespace "metallb-system", where MetalLB reads its configuration, not "lb"',
    ]);
    const config = valid(loadConfig([{ path: 'p.yaml', text: poolYaml('p', '10.0.0.0/24') }]));
    expect(config.pools[0]?.meta.namespace).toBe('metallb-system');
  });

  it('accepts the metadata Kubernetes adds to objects read back from a cluster, and ignores status', () => {
    const fromCluster = {
      ...pool('p', { addresses: ['10.0.0.0/24'] }),
      metadata: {
        name: 'p',
        namespace: 'metallb-system',
        uid: 'x',
        resourceVersion: '1',
        generation: 2,
        annotations: { a: 'b' },
      },
      status: { assignedIPv4: 0 },
    };
    valid(load([fromCluster]));
  });

  it('checks label keys and values', () => {
    const labelled = {
      ...l2Adv('l2'),
      metadata: {
        name: 'l2',
        namespace: 'metallb-system',
        labels: { 'ok/key': 'v', 'Bad/key': 'v', k: 'no spaces' },
      },
    };
    expect(errors(load([labelled]))).toEqual([
      'document 0: metadata.labels["Bad/key"]: label key "Bad/key": prefix must be lower-case letters, digits, \'-\' and \'.\', starting and ending with a letter or digit',
      "document 0: metadata.labels.k: label value \"no spaces\" must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    ]);
  });

  it('refuses documents that are not resources', () => {
    expect(errors(loadConfig([{ path: 'x.yaml', text: '- a\n- b\n' }]))).toEqual([
      'document 0: : expected a Kubernetes resource (a mapping with apiVersion and kind), got a list',
    ]);
  });

  it('keeps warnings when the configuration is valid', () => {
    const result = load([l2Adv('l2', { ipAddressPools: ['missing'] })]);
    valid(result);
    expect(warnings(result)).toEqual([
      'document 0: spec.ipAddressPools[0]: no IPAddressPool "missing" is defined; the name is ignored',
    ]);
  });
});
