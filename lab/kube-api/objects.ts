/**
 * The objects the API test server stores and serves: plain JSON as it travels on the wire, with the
 * metadata fields the server manages typed. Everything else (spec, status, data...) stays untyped JSON:
 * the server is generic over resource types, as kube-apiserver is over custom resources.
 */
export type Json = Record<string, unknown>;

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export const isJsonObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy: stored objects never share structure with what callers hold or were given. */
export const copy = <T>(value: T): T => structuredClone(value);

/** `group/version`, or just `version` for the core group (whose group name is ""). */
export const groupVersion = (group: string, version: string): string =>
  group === '' ? version : `${group}/${version}`;

/** Splits an apiVersion into group and version: `v1` → ["", "v1"], `apps/v1` → ["apps", "v1"]. */
export function splitApiVersion(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** Canonical JSON (keys sorted) so two objects compare equal whatever order their fields came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isJsonObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}
