/** Failures of the Kubernetes sources, each with its stable code. */
import { LblabError } from '../../errors/lblab-error.ts';

/** The informers did not all list within the start-up limit; the message names those that did not. */
export class InformerSyncError extends LblabError {
  readonly code = 'KUBE_INFORMER_SYNC';
}
