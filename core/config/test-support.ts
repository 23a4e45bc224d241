/**
 * Builders for the config tests: resources as plain objects in MetalLB's shapes, serialised to one
 * multi-document YAML file and loaded, so every test goes through the same path as a user's file.
 */
import { stringify } from 'yaml';
import { formatIssue } from './issues.ts';
import { loadConfig, type LoadOptions, type LoadResult } from './load.ts';
import type { LbConfig } from './model.ts';

type Obj = Record<string, unknown>;

function resource(apiVersion: string, kind: string, name: string | undefined, body: Obj, labels?: Obj): Obj {
  const metadata: Obj = { namespace: 'metallb-system' };
  if (name !== undefined) metadata['name'] = name;
  if (labels !== undefined) metadata['labels'] = labels;
  return { apiVersion, kind, metadata, ...body };
}

export const pool = (name: string | undefined, spec: Obj, labels?: Obj) =>
  resource('metallb.io/v1beta1', 'IPAddressPool', name, { spec }, labels);
export const l2Adv = (name: string, spec: Obj = {}) =>
  resource('metallb.io/v1beta1', 'L2Advertisement', name, { spec });
export const bgpAdv = (name: string, spec: Obj = {}) =>
  resource('metallb.io/v1beta1', 'BGPAdvertisement', name, { spec });
export const peer = (name: string, spec: Obj) => resource('metallb.io/v1beta2', 'BGPPeer', name, { spec });
export const peerV1beta1 = (name: string, spec: Obj) =>
  resource('metallb.io/v1beta1', 'BGPPeer', name, { spec });
export const bfdProfile = (name: string, spec: Obj = {}) =>
  resource('metallb.io/v1beta1', 'BFDProfile', name, { spec });
export const community = (name: string, aliases: { name: string; value: string }[]) =>
  resource('metallb.io/v1beta1', 'Community', name, { spec: { communities: aliases } });
export const secret = (name: string, type: string, body: Obj) =>
  resource('v1', 'Secret', name, { type, ...body });

/** The resource with `metadata.annotations` set. */
export const annotated = (r: Obj, annotations: Obj): Obj => ({
  ...r,
  metadata: { ...(r['metadata'] as Obj), annotations },
});

export const testFile = 'test.yaml';

export function load(resources: readonly Obj[], options?: LoadOptions): LoadResult {
  return loadConfig([{ path: testFile, text: resources.map((r) => stringify(r)).join('---\n') }], options);
}

/** The loaded configuration; fails with every error, formatted, when there is none. */
export function valid(result: LoadResult): LbConfig {
  if (!result.ok)
    throw new Error(`expected a valid configuration:\n${result.errors.map(formatIssue).join('\n')}`);
  return result.config;
}

/** Every error as `document N: path: message`, for compact assertions; empty when the config loaded. */
export function errors(result: LoadResult): string[] {
  return result.ok ? [] : result.errors.map((e) => `document ${e.document}: ${e.path}: ${e.message}`);
}

export function warnings(result: LoadResult): string[] {
  return result.warnings.map((e) => `document ${e.document}: ${e.path}: ${e.message}`);
}
