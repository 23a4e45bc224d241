import type { RequestInfo } from './request-info.ts';

/** One request the API test server received, as authorization saw it, and how it was answered. */
export interface RequestRecord extends RequestInfo {
  /** Order of arrival, from 1. */
  readonly seq: number;
  /** When it arrived, on the server's Clock. */
  readonly atMs: number;
  readonly method: string;
  /** The query string, without the leading '?'. */
  readonly query: string;
  /** The user its bearer token authenticates, or "" when it had none the server knows. */
  readonly user: string;
  readonly userAgent: string;
  /** The HTTP status it was answered with; undefined while no answer has gone out. */
  code: number | undefined;
  /** Set when an injected fault answered it (the status injected) or delayed it. */
  fault?: 'failed' | 'delayed';
}

/** Which requests a fault applies to; every given field must match. */
export interface RequestMatch {
  readonly verb?: string;
  readonly apiGroup?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  /** A substring of the path, or a pattern the path matches. */
  readonly path?: string | RegExp;
}

export function matches(info: RequestInfo, match: RequestMatch | undefined): boolean {
  if (match === undefined) return true;
  const { path, ...fields } = match;
  if (path !== undefined && !(typeof path === 'string' ? info.path.includes(path) : path.test(info.path)))
    return false;
  return Object.entries(fields).every(([field, want]) => info[field as keyof RequestInfo] === want);
}

/**
 * Fault rules that apply to the next `count` matching requests (Infinity: until cleared), first added
 * first; each matching request uses up one of the first rule that still has any.
 */
export class FaultRules<T> {
  private rules: { value: T; remaining: number; match: RequestMatch | undefined }[] = [];

  add(value: T, count: number, match: RequestMatch | undefined): void {
    this.rules.push({ value, remaining: count, match });
  }

  take(info: RequestInfo): T | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && matches(info, r.match));
    if (rule === undefined) return undefined;
    rule.remaining--;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return rule.value;
  }

  clear(): void {
    this.rules = [];
  }
}
