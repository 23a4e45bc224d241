/**
 * v1 Secret, read only so that a BGPPeer's `passwordSecret` and a BFDProfile's `bfd.lblab.io/auth-secret`
 * can be resolved: MetalLB wants type kubernetes.io/basic-auth with the password under the key "password"
 * (checked where it is referenced, checks/secret-password.ts).
 */
import { joinPath } from './issues.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { ParsedOf, PasswordSecret } from './parsed.ts';
import { bool, str, stringMap } from './schema.ts';

export const basicAuthType = 'kubernetes.io/basic-auth';

export function parseSecret(input: DocumentInput): ParsedOf<'Secret'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { type: str, data: stringMap, stringData: stringMap, immutable: bool });
  if (doc === undefined) return undefined;
  const { type = 'Opaque', data = {}, stringData = {} } = doc.fields;
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    const text = decodeBase64(value);
    if (text === undefined) log.error(joinPath('data', key), 'is not base64-encoded UTF-8 text');
    else decoded[key] = text;
  }
  if (log.errorCount() !== before) return undefined;
  // As the API server does on write, stringData entries win over data entries of the same key.
  const password = stringData['password'] ?? decoded['password'];
  const secret: PasswordSecret = { meta: doc.meta, type };
  if (password !== undefined) secret.password = password;
  return { kind: 'Secret', value: secret };
}

function decodeBase64(value: string): string | undefined {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return undefined;
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
