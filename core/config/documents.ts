/**
 * Splits configuration files into YAML documents, as `kubectl apply -f` does. YAML is read with the
 * 1.2 core schema, so MetalLB's unquoted communities ("65535:65282") stay strings, as in Kubernetes.
 */
import { parseAllDocuments, type YAMLError } from 'yaml';
import type { IssueLog } from './issues.ts';

export interface ConfigFile {
  /** As the user named it; every issue about the file repeats it. */
  path: string;
  text: string;
}

export interface RawDocument {
  file: string;
  /** 0-based, counting every document in the file including empty ones, as editors and kubectl count them. */
  document: number;
  /** Set for an object read from the cluster; `file` is then its label (see objects.ts). */
  object?: true;
  value: unknown;
}

export function splitDocuments(file: ConfigFile, log: IssueLog): RawDocument[] {
  const out: RawDocument[] = [];
  const docs = parseAllDocuments(file.text);
  docs.forEach((doc, document) => {
    for (const e of doc.warnings) log.add('warning', yamlIssue(file.path, document, e));
    if (doc.errors.length > 0) {
      for (const e of doc.errors) log.add('error', yamlIssue(file.path, document, e));
      return;
    }
    try {
      const value: unknown = doc.toJS();
      // A document of only comments, or an empty one between two "---", holds no resource (kubectl skips it too).
      if (value !== null && value !== undefined) out.push({ file: file.path, document, value });
    } catch (err) {
      // toJS refuses documents that expand aliases without bound ("billion laughs").
      log.error(
        { file: file.path, document },
        '',
        `YAML: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
  if (out.length === 0 && log.errors.every((e) => e.file !== file.path)) {
    log.warn({ file: file.path, document: 0 }, '', 'the file holds no resources');
  }
  return out;
}

function yamlIssue(file: string, document: number, e: YAMLError) {
  const message = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const pos = e.linePos?.[0];
  return pos === undefined
    ? { file, document, path: '', message: `YAML: ${message}` }
    : { file, document, path: '', message: `YAML: ${message}`, line: pos.line, column: pos.col };
}
