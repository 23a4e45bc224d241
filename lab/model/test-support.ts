/**
 * Builders for the model tests: topologies written as plain objects, serialised to YAML and parsed, so
 * every test goes through the same path as a user's file.
 */
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { formatIssue } from '../../core/config/issues.ts';
import { loadConfig } from '../../core/config/load.ts';
import { parseTopology, type ParseOptions } from './parse.ts';
import type { Topology, TopologyNode } from './topology.ts';

export const testFile = '/labs/lab.yaml';

/** Parses a topology that must be valid; a failure shows every error, formatted as users see them. */
export function topologyOf(document: Record<string, unknown>, options: ParseOptions = {}): Topology {
  const result = parseTopology(testFile, stringify({ name: 'lab', ...document }), options);
  if (!result.ok) throw new Error(`expected a valid topology:\n${result.errors.map(formatIssue).join('\n')}`);
  return result.topology;
}

/** The formatted errors of a topology that must be invalid. */
export function errorsOf(document: Record<string, unknown>, options: ParseOptions = {}): string[] {
  const result = parseTopology(testFile, stringify({ name: 'lab', ...document }), options);
  if (result.ok) throw new Error('expected errors, the topology is valid');
  return result.errors.map(formatIssue);
}

export function nodeOf(topology: Topology, name: string): TopologyNode {
  const node = topology.nodes.find((n) => n.name === name);
  if (node === undefined) throw new Error(`no node ${name}`);
  return node;
}

/** "interface segment ipv4 ipv6" per attachment: addresses read at a glance in expectations. */
export function wiringOf(topology: Topology, name: string): string[] {
  return nodeOf(topology, name).attachments.map((a) => `${a.interface} ${a.segment} ${a.ipv4} ${a.ipv6}`);
}

/** A generated topology's MetalLB configuration, loaded as a file would be: valid and without warnings. */
export function generatedConfigOf(metallbYaml: string) {
  const loaded = loadConfig([{ path: 'generated.yaml', text: metallbYaml }]);
  if (!loaded.ok) throw new Error(loaded.errors.map(formatIssue).join('\n'));
  expect(loaded.warnings.map(formatIssue)).toEqual([]);
  return loaded.config;
}
