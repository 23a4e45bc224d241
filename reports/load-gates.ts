/** Reads a gates file for `lblab run --gates FILE`. */
import { readFile } from 'node:fs/promises';
import { parseGates, type GatesParse } from './gates.ts';

/** A file that cannot be read is reported like any other problem with it: file, document 0, message. */
export async function loadGates(file: string): Promise<GatesParse> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    return {
      ok: false,
      errors: [{ file, document: 0, path: '', message: `cannot read the gates file (${why})` }],
    };
  }
  return parseGates(file, text);
}
