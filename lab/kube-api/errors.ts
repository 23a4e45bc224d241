import { LblabError } from '../../core/errors/lblab-error.ts';
import type { Status } from './status.ts';

/**
 * The API test server answers a request with a failure Status (404, 409, 422...). Thrown inside the
 * server and by its direct (non-HTTP) store methods; `status.reason` says which failure it is.
 */
export class ApiStatusError extends LblabError {
  readonly code = 'KUBE_API_STATUS';

  constructor(readonly status: Status) {
    super(`${status.code} ${status.reason}: ${status.message}`);
  }
}

/** A resource type the test server was not told about (register it first), or a bad registration. */
export class UnknownResourceTypeError extends LblabError {
  readonly code = 'KUBE_API_UNKNOWN_TYPE';
}

/** The test server cannot do what a test asked of it (listen, come back up, parse a command line). */
export class KubeApiServerError extends LblabError {
  readonly code = 'KUBE_API_SERVER';
}

/** A JSON patch that cannot apply (bad pointer, failed test, malformed operation); upstream answers 422. */
export class JsonPatchError extends LblabError {
  readonly code = 'KUBE_API_JSON_PATCH';
}
