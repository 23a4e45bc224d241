import type { ObjectMeta } from './objects.ts';
import { isJsonObject } from './objects.ts';
import type { FieldError } from './status.ts';

/**
 * kube-apiserver's checks of labels and ownerReferences (ValidateObjectMeta), which every type gets:
 * an agent that writes a label value too long, or an owner reference without a uid, is refused with 422
 * there, so it is refused here.
 */
const namePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const prefixPart = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function labelKeyErrors(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined && (prefix.length > 253 || !prefixPart.test(prefix)))
    return 'prefix part must be a lowercase RFC 1123 subdomain';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!namePart.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

export function validateMetadata(meta: ObjectMeta): FieldError[] {
  const errors: FieldError[] = [];
  const invalid = (field: string, value: unknown, why: string) =>
    errors.push({
      field,
      type: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
    });
  for (const [key, value] of Object.entries(isJsonObject(meta.labels) ? meta.labels : {})) {
    const keyError = labelKeyErrors(key);
    if (keyError !== undefined) invalid('metadata.labels', key, keyError);
    if (typeof value !== 'string') invalid(`metadata.labels`, value, 'a label value must be a string');
    else if (value.length > 63) invalid('metadata.labels', value, 'must be no more than 63 characters');
    else if (value !== '' && !namePart.test(value))
      invalid(
        'metadata.labels',
        value,
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      );
  }
  const owners = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  for (const owner of owners) {
    const ref = isJsonObject(owner) ? owner : {};
    for (const [field, what] of [
      ['apiVersion', 'version'],
      ['kind', 'kind'],
      ['name', 'name'],
      ['uid', 'uid'],
    ] as const)
      if (typeof ref[field] !== 'string' || ref[field] === '')
        invalid(`metadata.ownerReferences.${field}`, ref[field] ?? '', `${what} must not be empty`);
  }
  if (owners.filter((o) => isJsonObject(o) && o.controller === true).length > 1)
    errors.push({
      field: 'metadata.ownerReferences',
      type: 'FieldValueInvalid',
      message: 'Invalid value: []: Only one reference can have Controller set to true',
    });
  return errors;
}
