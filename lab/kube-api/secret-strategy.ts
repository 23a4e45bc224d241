import type { KubeObject } from './objects.ts';
import { isJsonObject } from './objects.ts';
import type { TypeStrategy } from './operations.ts';
import type { FieldError } from './status.ts';
import { badRequest } from './status.ts';

/**
 * Secrets as kube-apiserver stores them: `data` values are base64 (a value that is not is a 400, the
 * JSON decoder's error), `stringData` is write-only and merged into `data`, and `type` defaults to
 * Opaque. The membership key lblab keeps in a Secret goes through exactly this.
 */
export const secretStrategy: TypeStrategy = {
  prepareCreate: (secret) => prepare(secret),
  prepareUpdate: (next) => prepare(next),
};

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function prepare(secret: KubeObject): FieldError[] {
  const data = isJsonObject(secret.data) ? { ...secret.data } : {};
  for (const [key, value] of Object.entries(data))
    if (typeof value !== 'string' || !base64.test(value))
      throw badRequest(
        `Secret in version "v1" cannot be handled as a Secret: data.${key}: illegal base64 data`,
      );
  if (isJsonObject(secret.stringData))
    for (const [key, value] of Object.entries(secret.stringData))
      data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  delete secret.stringData;
  if (Object.keys(data).length > 0 || secret.data !== undefined) secret.data = data;
  secret.type ??= 'Opaque';
  return [];
}
