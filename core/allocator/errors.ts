import { LblabError } from '../errors/lblab-error.ts';

/**
 * The allocator was handed something validated configuration can never contain (two pools with the
 * same name, overlapping address ranges). That is a bug upstream of the allocator, so it throws rather
 * than returning a result.
 */
export class AllocatorConfigError extends LblabError {
  readonly code = 'ALLOCATOR_CONFIG';
}

/** The allocator's own bookkeeping disagrees with itself: always a bug in the allocator. */
export class AllocatorInvariantError extends LblabError {
  readonly code = 'ALLOCATOR_INVARIANT';
}
