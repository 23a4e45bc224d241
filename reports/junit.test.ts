import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { compareWithBaseline } from './baseline/compare-baseline.ts';
import { renderJunit } from './junit.ts';
import { mergeRuns } from './merge.ts';
import { mergeInputs } from './merge.test-support.ts';
import type { RunResult } from './result.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';
import { findAll, parseXml } from './xml-check.test-support.ts';

const gated = () =>
  applyGates(sampleRun(), [
    { scenario: 'l2: *', sut: 'lblab', measurement: 'outageMs', comparator: 'below', threshold: 1000 },
  ]);

describe('renderJunit', () => {
  it('is well-formed XML: one testsuites, one testsuite for the backend, one testcase per scenario', () => {
    const root = parseXml(renderJunit(gated()));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({
      tests: '6',
      failures: '1',
      errors: '1',
      skipped: '1',
      time: '12.345',
    });
    const [suite, ...more] = findAll(root, 'testsuite');
    expect(more).toEqual([]);
    expect(suite?.attributes).toMatchObject({
      name: 'emulated',
      tests: '6',
      timestamp: '2024-05-01T12:00:00.000Z',
    });
    expect(
      findAll(root, 'testcase').map((t) => [
        t.attributes['name'],
        t.attributes['classname'],
        t.attributes['time'],
      ]),
    ).toEqual([
      ['l2: node crash [lblab]', 'l2-three-nodes', '1.500'],
      ['l2: speaker hang [lblab]', 'l2-three-nodes', '1.500'],
      ['l2: graceful handoff (rolling restart) [lblab]', 'l2-three-nodes', '1.500'],
      ['l2: partition and heal [lblab]', 'l2-three-nodes', '1.500'],
      ['bgp: a node dies silently [lblab]', 'l2-three-nodes', '1.500'],
      ['l2: node crash [keepalived]', 'l2-three-nodes', '1.500'],
    ]);
  });

  it('carries the run and each scenario measurement as properties', () => {
    const root = parseXml(renderJunit(gated()));
    const props = (el: (typeof root.children)[number] | undefined) =>
      Object.fromEntries(
        findAll(el?.children.find((c) => c.name === 'properties') ?? root, 'property').map((p) => [
          p.attributes['name'],
          p.attributes['value'],
        ]),
      );
    expect(props(findAll(root, 'testsuite')[0])).toEqual({
      runId: 'r-20240501-abc',
      seed: '42',
      commit: '57d5b95',
      schemaVersion: '1',
    });
    expect(props(findAll(root, 'testcase')[0])).toEqual({
      sut: 'lblab',
      detectionMs: '310',
      lostProbes: '1520',
      outageMs: '1520',
      probeRatePps: '1000',
    });
  });

  it('gives a failed scenario a failure naming its failed gates, and a replay command', () => {
    const [crash] = findAll(parseXml(renderJunit(gated())), 'testcase');
    const [failure] = findAll(crash ?? { name: '', attributes: {}, children: [], text: '' }, 'failure');
    expect(failure?.attributes).toEqual({ message: 'gate outageMs < 1000 failed: 1520', type: 'gate' });
    expect(failure?.text).toBe(
      "gate outageMs < 1000 failed: 1520 (520 over the limit)\nreplay: lblab run --backend emulated --seed 42 --scenario 'l2: node crash'",
    );
  });

  it('gives an errored scenario an error and a not-applicable one a skipped with its reason', () => {
    const cases = findAll(parseXml(renderJunit(gated())), 'testcase');
    const [error] = findAll(cases[3] ?? cases[0]!, 'error');
    expect(error?.attributes).toEqual({
      message: 'backend lost the lab: <netns> "lab-1" & \'veth\' gone',
      type: 'error',
    });
    expect(error?.text).toContain('step "heal": ERROR: EPERM');
    expect(findAll(cases[4]!, 'skipped')).toEqual([
      {
        name: 'skipped',
        attributes: { message: 'needs bfd, which the emulated backend lacks' },
        children: [],
        text: '',
      },
    ]);
    for (const i of [1, 2, 5]) expect(cases[i]?.children.map((c) => c.name)).toEqual(['properties']);
  });

  it('escapes <&"\' and line breaks, and replaces characters XML 1.0 cannot hold', () => {
    const result: RunResult = {
      ...sampleRun(),
      backend: 'a&b',
      scenarios: [
        scenario({
          name: '<x> & "y" \'z\'',
          topology: 'l2-basic',
          status: 'fail',
          reason: 'one\ntwo\u0001\ud800',
        }),
      ],
    };
    const xml = renderJunit(result);
    expect(xml).toContain('name="&lt;x&gt; &amp; &quot;y&quot; &apos;z&apos; [lblab]" classname="l2-basic"');
    expect(xml).toContain('message="one&#10;two\uFFFD\uFFFD"');
    const root = parseXml(xml);
    expect(findAll(root, 'testsuite')[0]?.attributes['name']).toBe('a&b');
    expect(findAll(root, 'failure')[0]?.attributes['message']).toBe('one\ntwo\uFFFD\uFFFD');
  });

  it('is checked by a reader that refuses XML that is not well-formed', () => {
    const decl = '<?xml version="1.0" encoding="UTF-8"?>\n';
    for (const bad of ['<a><b></a></b>', '<a>x & y</a>', '<a v="<"/>', '<a/><b/>', '<a>', "<a v='1'/>"]) {
      expect(() => parseXml(decl + bad), bad).toThrow();
    }
    expect(parseXml(`${decl}<a v="&lt;&#10;"><b/>t&amp;</a>`)).toEqual({
      name: 'a',
      attributes: { v: '<\n' },
      children: [{ name: 'b', attributes: {}, children: [], text: '' }],
      text: 't&',
    });
  });

  it('is deterministic', () => {
    expect(renderJunit(gated())).toBe(renderJunit(gated()));
  });
});

describe('renderJunit of a merged result', () => {
  const merged = () =>
    applyGates(mergeRuns(mergeInputs()), [
      { scenario: 'l2: *', sut: 'lblab', measurement: 'outageMs', comparator: 'below', threshold: 1000 },
    ]);

  it('has a testsuite per backend with its own run, seed and counts, and testcases naming their backend', () => {
    const root = parseXml(renderJunit(merged()));
    expect(root.attributes).toMatchObject({ tests: '8', failures: '1', errors: '1', skipped: '1' });
    const suites = findAll(root, 'testsuite');
    expect(
      suites.map((s) => [s.attributes['name'], s.attributes['tests'], s.attributes['failures']]),
    ).toEqual([
      ['emulated', '6', '1'],
      ['netns', '2', '0'],
    ]);
    const netnsProps = findAll(
      suites[1]!.children.find((c) => c.name === 'properties')!,
      'property',
    );
    expect(netnsProps.map((p) => [p.attributes['name'], p.attributes['value']])).toContainEqual([
      'seed',
      '7',
    ]);
    expect(findAll(suites[1]!, 'testcase').map((t) => t.attributes['name'])).toEqual([
      'l2: node crash [lblab] on netns',
      'l2: node crash [keepalived] on netns',
    ]);
  });

  it('says in a failure which regression gate failed and by how much', () => {
    const base = { ...sampleRun(), runId: 'r-before' };
    base.scenarios = [scenario({ name: 'l2: speaker hang', measurements: { outageMs: 200 } })];
    const policy = { tolerances: { outageMs: { relative: 0.25, absolute: 50 } } };
    const result = compareWithBaseline(gated(), { file: 'b.json', result: base }, policy);
    const hang = findAll(parseXml(renderJunit(result)), 'testcase')[1]!;
    const [failure] = findAll(hang, 'failure');
    expect(failure?.attributes['message']).toBe(
      'outageMs vs baseline: +212.25 ms, 2.06× baseline 200 ms from run r-before',
    );
    expect(failure?.text).toContain(
      'gate outageMs vs baseline <= 250: baseline 200 ms +25 % or +50, whichever is more failed: 412.25 (162.25 over the limit)',
    );
  });
});
