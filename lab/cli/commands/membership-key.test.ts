import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMembershipKey } from './membership-key.ts';

const dir = await mkdtemp(join(tmpdir(), 'lblab-key-test-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function keyFile(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('readMembershipKey', () => {
  it('takes the bytes as they are, less one final newline that `echo` adds', async () => {
    const key = 'sixteen bytes or more of key';
    expect(Buffer.from(await readMembershipKey(await keyFile('echo', `${key}\n`))).toString()).toBe(key);
    expect(Buffer.from(await readMembershipKey(await keyFile('crlf', `${key}\r\n`))).toString()).toBe(key);
    const binary = Uint8Array.from({ length: 32 }, (_, i) => (i * 37) % 256);
    expect([...(await readMembershipKey(await keyFile('binary', binary)))]).toEqual([...binary]);
  });

  it('refuses a short key and a missing file, naming the file', async () => {
    const short = await keyFile('short', 'too short\n');
    await expect(readMembershipKey(short)).rejects.toThrow(
      `membership key file ${short}: the key is 9 bytes, at least 16 are needed`,
    );
    await expect(readMembershipKey(join(dir, 'nowhere'))).rejects.toThrow(
      /cannot read membership key file .*nowhere: ENOENT/,
    );
  });
});
