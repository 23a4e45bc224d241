import { SutOutputError } from './errors.ts';

/** Small readers for the daemons' JSON output (FRR's vtysh, GoBGP's CLI). */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Parses a command's JSON output; a parse failure names `what` and quotes the start of the text.
 * `emptyIsNull`: the command prints nothing at all when it has nothing to list (GoBGP does).
 */
export function parseJson(text: string, what: string, options: { emptyIsNull?: boolean } = {}): unknown {
  try {
    return JSON.parse(options.emptyIsNull && text.trim() === '' ? 'null' : text);
  } catch (err) {
    throw new SutOutputError(`${what}: not JSON (${(err as Error).message}): ${text.slice(0, 200)}`);
  }
}
