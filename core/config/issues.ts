/**
 * What is wrong with a configuration, said so a user can find it: the file, the 0-based document in
 * that file, the resource (kind and name, when known) and the field path inside it. For an object read
 * from the cluster, `file` is its label and `object` is set.
 */
export interface ConfigIssue {
  file: string;
  /** 0-based index of the YAML document in the file. */
  document: number;
  object?: true;
  kind?: string;
  name?: string;
  /** Field path inside the resource, e.g. `spec.addresses[1]`; empty for the document as a whole. */
  path: string;
  message: string;
  /** 1-based position, given for YAML syntax errors. */
  line?: number;
  column?: number;
}

/**
 * `pools.yaml: document 2 (IPAddressPool "first-pool"): spec.addresses[1]: <message>`, or for an object
 * from the cluster `IPAddressPool metallb-system/first-pool: spec.addresses[1]: <message>`.
 */
export function formatIssue(issue: ConfigIssue): string {
  const path = issue.path === '' ? '' : `: ${issue.path}`;
  if (issue.object) return `${issue.file}${path}: ${issue.message}`;
  const position =
    issue.line === undefined ? '' : `:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  const resource =
    issue.kind === undefined
      ? ''
      : ` (${issue.kind}${issue.name === undefined ? '' : ` ${JSON.stringify(issue.name)}`})`;
  return `${issue.file}${position}: document ${issue.document}${resource}${path}: ${issue.message}`;
}

/** Where a resource came from; every issue about it carries this. */
export interface ResourceContext {
  file: string;
  document: number;
  object?: true;
  kind?: string;
  name?: string;
}

/** Collects errors and warnings; a configuration with any error is rejected whole. */
export class IssueLog {
  readonly errors: ConfigIssue[] = [];
  readonly warnings: ConfigIssue[] = [];

  /** A fully formed issue, e.g. a YAML syntax error that carries its line. */
  add(severity: 'error' | 'warning', issue: ConfigIssue): void {
    (severity === 'error' ? this.errors : this.warnings).push(issue);
  }

  error(ctx: ResourceContext, path: string, message: string): void {
    this.errors.push({ ...withoutUndefined(ctx), path, message });
  }

  warn(ctx: ResourceContext, path: string, message: string): void {
    this.warnings.push({ ...withoutUndefined(ctx), path, message });
  }

  /** A sink bound to one resource, so parsers only say the path and the message. */
  at(ctx: ResourceContext): IssueSink {
    return {
      error: (path, message) => this.error(ctx, path, message),
      warn: (path, message) => this.warn(ctx, path, message),
      errorCount: () => this.errors.length,
    };
  }
}

export interface IssueSink {
  error(path: string, message: string): void;
  warn(path: string, message: string): void;
  /** Errors logged so far (all resources); a parser compares it before and after to know if it failed. */
  errorCount(): number;
}

/** Issues compare with toEqual in tests and print cleanly, so absent kind/name are left out, not undefined. */
function withoutUndefined(ctx: ResourceContext): ResourceContext {
  const out: ResourceContext = { file: ctx.file, document: ctx.document };
  if (ctx.object) out.object = true;
  if (ctx.kind !== undefined) out.kind = ctx.kind;
  if (ctx.name !== undefined) out.name = ctx.name;
  return out;
}

/** `spec` + `addresses` → `spec.addresses`; keys that are not plain identifiers are quoted in brackets. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}
