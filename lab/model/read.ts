/** The one place lab/model touches the filesystem: reading a topology file and finding its MetalLB files. */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseTopology, type TopologyResult } from './parse.ts';

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** Reads and resolves a topology file; a file that cannot be read is an error like any other. */
export async function readTopology(path: string): Promise<TopologyResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const message = `cannot read the file: ${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, errors: [{ file: path, document: 0, path: '', message }] };
  }
  return parseTopology(path, text, { fileExists: isFile });
}
