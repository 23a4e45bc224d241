import type { Json } from './objects.ts';
import { copy, isJsonObject } from './objects.ts';

/**
 * JSON Merge Patch (RFC 7386 §2): objects merge key by key, null removes a key, anything else (arrays
 * included) replaces. The API test server also uses it for strategic merge patch and server-side apply,
 * whose list-merge rules it does not model.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return copy(patch);
  const result: Json = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
