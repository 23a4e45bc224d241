/**
 * The admission verdict: the configuration as it would be after the change, judged by the same loader as
 * `lblab config validate`. Only what the change causes refuses it: every error of the submitted object
 * itself, and errors elsewhere that the change brings about (a peer left pointing at a deleted
 * BFDProfile, an advertisement whose aggregation no longer fits a pool). An error that was already in
 * the cluster and has nothing to do with the change must not block every write.
 */
import {
  labelled,
  loadObjects,
  type ConfigIssue,
  type ConfigObject,
  type LoadOptions,
  type LoadResult,
} from '../../config/index.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface Change {
  operation: Operation;
  /** How messages name the object changed (objectLabel): `IPAddressPool metallb-system/pool1`. */
  subject: string;
  /** The object as it will be (CREATE, UPDATE). */
  object?: unknown;
  /** The object as it was (UPDATE, DELETE), as the API server sends it. */
  oldObject?: unknown;
}

export interface Judgement {
  /** Errors the change causes; the change is refused when there is any. */
  errors: ConfigIssue[];
  /** Warnings the change causes, passed on to the user. */
  warnings: ConfigIssue[];
}

/**
 * `existing` is every MetalLB resource and Secret now in the namespace. The submitted object goes last,
 * before and after, so that checks that blame the later of two resources (overlaps, duplicate peers)
 * blame it, and messages about others stay the same on both sides.
 */
export function judge(change: Change, existing: readonly unknown[], options: LoadOptions): Judgement {
  const { subject } = change;
  const current = labelled(existing);
  const others = current.filter((o) => o.label !== subject);
  // The API server's oldObject is authoritative; a cache may lag behind it.
  const old =
    change.operation === 'CREATE'
      ? undefined
      : (change.oldObject ?? current.find((o) => o.label === subject)?.value);
  const withSubject = (value: unknown): ConfigObject[] =>
    value === undefined ? others : [...others, { label: subject, value }];
  const before = loadObjects(withSubject(old), options);
  const after = loadObjects(withSubject(change.operation === 'DELETE' ? undefined : change.object), options);

  const key = (i: ConfigIssue) => `${i.file}\u0000${i.path}\u0000${i.message}`;
  const causedBy = (was: readonly ConfigIssue[]) => {
    const known = new Set(was.map(key));
    return (i: ConfigIssue) => i.file === subject || !known.has(key(i));
  };
  return {
    errors: errorsOf(after).filter(causedBy(errorsOf(before))),
    warnings: after.warnings.filter(causedBy(before.warnings)),
  };
}

function errorsOf(result: LoadResult): readonly ConfigIssue[] {
  return result.ok ? [] : result.errors;
}
