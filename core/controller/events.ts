/**
 * What the controller tells about a Service, in the shape of Kubernetes Events (MetalLB emits the same
 * reasons), so logs, the lab and reports read one set of facts.
 */
export interface ControllerEvent {
  type: 'Normal' | 'Warning';
  reason: 'IPAllocated' | 'IPReleased' | 'AllocationFailed' | 'IPsCleared';
  /** "namespace/name" of the Service. */
  service: string;
  message: string;
}

export function formatEvent(e: ControllerEvent): string {
  return `${e.type === 'Warning' ? 'warning' : 'event'} ${e.reason} ${e.service}: ${e.message}`;
}
