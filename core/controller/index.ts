export { Controller, type ControllerOptions, type Reconciliation } from './controller.ts';
export { formatEvent, type ControllerEvent } from './events.ts';
