/**
 * The published JSON Schema and the parser describe one YAML shape; these tests keep them in step: the
 * same keys at every level, the same enumerations and the same name rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pointToPointShape, linkSpecShape } from './decode-links.ts';
import { groupShape, nodeKinds, nodeShape, routerImpls, settingsShape } from './decode-nodes.ts';
import { ipFamilyNames, ipFamilyPolicies, serviceShape, trafficPolicies } from './decode-services.ts';
import { segmentShape, topologyShape } from './decode-topology.ts';
import {
  dnsLabelPattern,
  interfaceNamePattern,
  maxInterfaceLength,
  maxLabelLength,
  serviceNamePattern,
} from './names.ts';
import { loadSchema, schemaErrors, type Schema } from './schema-check.test-support.ts';

const schema = loadSchema();
const defs = schema['$defs'] as Record<string, Schema>;
const propertiesOf = (s: Schema | undefined) => Object.keys((s?.['properties'] ?? {}) as object).sort();
const keysOf = (shape: object) => Object.keys(shape).sort();

describe('topologies/schema/topology.schema.json', () => {
  it('is a JSON Schema 2020-12 document for a mapping without unknown keys', () => {
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema['type']).toBe('object');
    expect(schema['additionalProperties']).toBe(false);
  });

  it.each([
    ['the top level', schema, topologyShape],
    ['defaults', defs['defaults'], settingsShape],
    ['a group', defs['group'], groupShape],
    ['a node', defs['node'], nodeShape],
    ['a segment', defs['segment'], segmentShape],
    ["an entry of a node's links", defs['linkDetails'], linkSpecShape],
    ['a point-to-point link', defs['pointToPoint'], pointToPointShape],
    ['a service', defs['service'], serviceShape],
  ])('lists exactly the keys the parser accepts for %s', (_what, schemaPart, shape) => {
    expect(propertiesOf(schemaPart)).toEqual(keysOf(shape));
    expect(schemaPart?.['additionalProperties']).toBe(false);
  });

  it('enumerates the same kinds, router implementations and Service policies', () => {
    const service = defs['service']?.['properties'] as Record<string, Schema>;
    expect(defs['kind']?.['enum']).toEqual(nodeKinds);
    expect(defs['impl']?.['enum']).toEqual(routerImpls);
    expect(service['ipFamilyPolicy']?.['enum']).toEqual(ipFamilyPolicies);
    expect(service['externalTrafficPolicy']?.['enum']).toEqual(trafficPolicies);
    expect((service['ipFamilies']?.['items'] as Schema)['enum']).toEqual(ipFamilyNames);
  });

  it('has the same name rules', () => {
    expect(defs['dnsLabel']).toMatchObject({ pattern: dnsLabelPattern, maxLength: maxLabelLength });
    expect(defs['serviceName']).toMatchObject({ pattern: serviceNamePattern, maxLength: maxLabelLength });
    expect(defs['interfaceName']).toMatchObject({
      pattern: interfaceNamePattern,
      maxLength: maxInterfaceLength,
    });
  });

  // Shape errors (unknown keys, wrong types, values out of range or out of an enumeration) are what a
  // schema can say; references and overlaps are the parser's alone.
  const shapeError =
    /^# expect: .*?: (unknown field|expected a|must be one of|required field is missing|must be between|must be greater than)/;

  it('rejects every corpus topology the parser rejects for its shape', () => {
    const bad = join(import.meta.dirname, 'testdata', 'bad');
    const shapeErrors = readdirSync(bad)
      .map((f) => ({ f, text: readFileSync(join(bad, f), 'utf8') }))
      .filter(({ text }) => shapeError.test(text));
    expect(shapeErrors.length).toBeGreaterThan(40);
    const accepted = shapeErrors
      .filter(({ text }) => schemaErrors(schema, parse(text)).length === 0)
      .map(({ f }) => f);
    expect(accepted).toEqual([]);
  });

  it('checks lab ranges and port syntax as the parser does', () => {
    const topology = (segment: unknown, port: unknown) => ({
      name: 'lab',
      segments: { lan: segment },
      nodes: { n1: { links: ['lan'] } },
      services: [{ name: 'web', ports: [port] }],
    });
    expect(
      schemaErrors(schema, topology({ ipv4: '198.19.255.0/24', ipv6: '2001:db8:ffff::/48' }, '53/UDP')),
    ).toEqual([]);
    expect(schemaErrors(schema, topology({ ipv4: '10.0.0.0/24' }, 80))).toHaveLength(1);
    expect(schemaErrors(schema, topology({ ipv6: 'fd00::/64' }, 80))).toHaveLength(1);
    expect(schemaErrors(schema, topology({}, '53/udp'))).toHaveLength(1);
    expect(schemaErrors(schema, topology({}, 70000))).toHaveLength(1);
  });
});
