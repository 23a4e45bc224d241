/**
 * tshark as a second opinion on our encoders: the codec tests write a pcap of what we encode and read
 * tshark's JSON field view of every frame. A missing tshark fails every test that asks for frames: it
 * is installed by .ci/run and never a reason to skip.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const TSHARK = '/usr/bin/tshark';

/** One frame's fields as tshark's `-T json -e FIELD` prints them (every value a list of strings). */
export type Layers = Record<string, string[] | undefined>;

/**
 * Registers the suite's hooks: before all tests, `pcap()` goes to a temporary file and tshark decodes it
 * with `args` (e.g. `-d tcp.port==179,bgp`) into the given fields; after all, the file is removed.
 * Returns the accessor the tests call for tshark's view of each frame.
 */
export function tsharkFrames(
  name: string,
  pcap: () => Uint8Array,
  fields: readonly string[],
  args: readonly string[] = [],
): () => Layers[] {
  let dir: string | undefined;
  let decoded: Layers[] | Error = new Error('tshark has not run yet');
  beforeAll(() => {
    try {
      execFileSync(TSHARK, ['--version'], { stdio: 'ignore' });
    } catch (e) {
      decoded = new Error(`this test needs tshark at ${TSHARK} (Debian package "tshark")`, { cause: e });
      return;
    }
    dir = mkdtempSync(join(tmpdir(), `lblab-${name}-tshark-`));
    const file = join(dir, `${name}.pcap`);
    writeFileSync(file, pcap());
    const out = execFileSync(
      TSHARK,
      ['-r', file, ...args, '-T', 'json', ...fields.flatMap((f) => ['-e', f])],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    decoded = (JSON.parse(out) as { _source: { layers: Layers } }[]).map((p) => p._source.layers);
  }, 60_000);
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (decoded instanceof Error) throw decoded;
    return decoded;
  };
}
