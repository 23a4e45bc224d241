import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { parseAllDocuments } from 'yaml';

/** One document of a multi-document YAML text: its value, or the first line of each of its errors. */
export type YamlDocument = { readonly value: unknown } | { readonly errors: readonly string[] };

/**
 * The documents of a multi-document YAML text, in order, as the YAML 1.2 core schema reads them (no
 * timestamps or merge keys: `2024-01-01` stays a string, as Kubernetes reads it).
 *
 * js-yaml reads; yaml explains. js-yaml reads a cluster file of 10,000 Services and their EndpointSlices
 * in 0.33 s where yaml's parseAllDocuments takes 4 to 6 s on the same machine: seconds of CPU per speaker
 * each time the file changes. But js-yaml stops at the first error without saying which document it was
 * in, so a text it rejects is read again by yaml, which reports every broken document by index.
 */
export function readYamlDocuments(text: string): YamlDocument[] {
  try {
    // An empty text, or one of comments only, is no document (js-yaml reads one null document).
    if (!/^[ \t]*[^\s#]/m.test(text)) return [];
    return loadAll(text, undefined, { schema: CORE_SCHEMA }).map((value) => ({ value }));
  } catch {
    return parseAllDocuments(text).map((doc) =>
      doc.errors.length > 0
        ? { errors: doc.errors.map((e) => e.message.split('\n')[0]!) }
        : { value: doc.toJS() as unknown },
    );
  }
}
