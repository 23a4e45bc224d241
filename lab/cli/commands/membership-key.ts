import { readFile } from 'node:fs/promises';
import { MIN_KEY_BYTES } from '../../../core/membership/auth/keyring.ts';

/**
 * The shared membership key from `--membership-key-file`: the file's bytes as they are (a Kubernetes
 * Secret mounted as a file holds exactly the key), except one final newline, which `echo KEY > file`
 * adds and nobody means as part of the key.
 */
export async function readMembershipKey(path: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new Error(
      `cannot read membership key file ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`,
      {
        cause: err,
      },
    );
  }
  let end = bytes.length;
  if (bytes[end - 1] === 0x0a) end--;
  if (bytes[end - 1] === 0x0d) end--;
  const key = bytes.subarray(0, end);
  if (key.length < MIN_KEY_BYTES)
    throw new Error(
      `membership key file ${path}: the key is ${key.length} bytes, at least ${MIN_KEY_BYTES} are needed`,
    );
  return key;
}
