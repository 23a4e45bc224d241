/**
 * Resources read from the cluster rather than from files: the API server has already parsed them, and
 * users know them by kind, namespace and name, so that is how messages name them.
 */
import { isMapping } from './schema.ts';

export interface ConfigObject {
  /** How every issue about the object names it: `IPAddressPool metallb-system/pool1` (see objectLabel). */
  label: string;
  /** The object as the API server returns it (JSON), with apiVersion, kind, metadata and spec. */
  value: unknown;
}

/** `IPAddressPool metallb-system/pool1`; missing parts read as `?`, so even a broken object is named. */
export function objectLabel(value: unknown): string {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : '?');
  if (!isMapping(value)) return 'object ?';
  const metadata = isMapping(value['metadata']) ? value['metadata'] : {};
  return `${text(value['kind'])} ${text(metadata['namespace'])}/${text(metadata['name'])}`;
}

/** Objects labelled by objectLabel, ready for loadObjects. */
export function labelled(values: readonly unknown[]): ConfigObject[] {
  return values.map((value) => ({ label: objectLabel(value), value }));
}
