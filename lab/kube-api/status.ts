import { ApiStatusError } from './errors.ts';
import type { ResourceType } from './resource-types.ts';

/**
 * metav1.Status, the body of every failure (and of some deletes), with kube-apiserver's reasons and
 * messages, so a client that matches on `reason` or prints `message` sees what a real server sends.
 */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  /** Set on failures; a successful delete's Status has none (upstream leaves it out). */
  code?: number;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource's plural for NotFound, AlreadyExists and Conflict; the kind for Invalid (as upstream). */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

/** A field error of a 422 Invalid: `type` is field.ErrorType's reason (FieldValueRequired...). */
export interface FieldError {
  field: string;
  type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueNotSupported';
  message: string;
}

export function failure(code: number, reason: string, message: string, details?: StatusDetails): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details === undefined ? {} : { details }),
    code,
  };
}

/** `services` or `leases.coordination.k8s.io`: how upstream names a resource in messages. */
export const qualifiedResource = (type: ResourceType): string =>
  type.group === '' ? type.plural : `${type.plural}.${type.group}`;

const resourceDetails = (type: ResourceType, name: string): StatusDetails => ({
  name,
  ...(type.group === '' ? {} : { group: type.group }),
  kind: type.plural,
});

export const notFound = (type: ResourceType, name: string): ApiStatusError =>
  new ApiStatusError(
    failure(404, 'NotFound', `${qualifiedResource(type)} "${name}" not found`, resourceDetails(type, name)),
  );

export const alreadyExists = (type: ResourceType, name: string): ApiStatusError =>
  new ApiStatusError(
    failure(
      409,
      'AlreadyExists',
      `${qualifiedResource(type)} "${name}" already exists`,
      resourceDetails(type, name),
    ),
  );

export const conflict = (type: ResourceType, name: string): ApiStatusError =>
  new ApiStatusError(
    failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": the object has been modified; ` +
        'please apply your changes to the latest version and try again',
      resourceDetails(type, name),
    ),
  );

export function invalid(type: ResourceType, name: string, errors: readonly FieldError[]): ApiStatusError {
  const kind = type.group === '' ? type.kind : `${type.kind}.${type.group}`;
  const each = errors.map((e) => `${e.field}: ${e.message}`);
  const summary = each.length === 1 ? each[0] : `[${each.join(', ')}]`;
  return new ApiStatusError(
    failure(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, {
      name,
      ...(type.group === '' ? {} : { group: type.group }),
      kind: type.kind,
      causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
    }),
  );
}

export const badRequest = (message: string): ApiStatusError =>
  new ApiStatusError(failure(400, 'BadRequest', message));

export const pathNotFound = (): ApiStatusError =>
  new ApiStatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));

export const methodNotAllowed = (): ApiStatusError =>
  new ApiStatusError(
    failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
  );

export const unsupportedMediaType = (contentType: string, accepted: readonly string[]): ApiStatusError =>
  new ApiStatusError(
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format (${contentType}) - accepted media types include: ${accepted.join(', ')}`,
      {},
    ),
  );

export const internalError = (message: string): ApiStatusError =>
  new ApiStatusError(
    failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
  );

/** The ERROR event a watch from a compacted resourceVersion gets (the watch cache's wording). */
export const expired = (requested: number, oldest: number): Status =>
  failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`);

/** What the real server (or what stands in front of it) answers with each status a test injects. */
export function injectedFailure(code: number): Status {
  switch (code) {
    case 401:
      return failure(401, 'Unauthorized', 'Unauthorized');
    case 403:
      return failure(403, 'Forbidden', 'forbidden: the API test server was told to refuse this request', {});
    case 429:
      return failure(429, 'TooManyRequests', 'Too many requests, please try again later.', {
        retryAfterSeconds: 1,
      });
    case 500:
      return failure(500, 'InternalError', 'Internal error occurred: injected by the API test server', {
        causes: [{ message: 'injected by the API test server' }],
      });
    case 503:
      return failure(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', {});
    case 504:
      return failure(504, 'Timeout', 'the server was unable to return a response in the time allotted', {});
    default:
      return failure(code, 'Unknown', `status ${code} injected by the API test server`, {});
  }
}

/** The Status a DELETE answers with for types that do not return the deleted object. */
export function deleted(type: ResourceType, name: string, uid: string | undefined): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { ...resourceDetails(type, name), ...(uid === undefined ? {} : { uid }) },
  };
}
