import type { KubeObject } from './objects.ts';
import { isJsonObject } from './objects.ts';
import type { TypeStrategy } from './operations.ts';
import type { FieldError } from './status.ts';

/**
 * core/v1 Events as kube-apiserver validates them (legacyValidateEvent): an Event lives in the namespace
 * of the object it is about, or in `default` for cluster-scoped objects such as Nodes; an Event with an
 * eventTime (the new style) also needs reportingComponent, reportingInstance, action and reason.
 */
export const eventStrategy: TypeStrategy = {
  prepareCreate: (event) => validateEvent(event),
  prepareUpdate: (next) => validateEvent(next),
};

function validateEvent(event: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const involved = isJsonObject(event.involvedObject) ? event.involvedObject : {};
  const about = typeof involved.namespace === 'string' ? involved.namespace : '';
  const namespace = event.metadata.namespace ?? '';
  const newStyle = event.eventTime !== undefined && event.eventTime !== null;
  const allowed = about !== '' ? [about] : newStyle ? ['default', 'kube-system'] : ['', 'default'];
  if (!allowed.includes(namespace))
    errors.push({
      field: 'involvedObject.namespace',
      type: 'FieldValueInvalid',
      message: `Invalid value: "${about}": does not match event.namespace`,
    });
  // core/v1 spells reportingController `reportingComponent` on the wire; upstream's error uses the Go name.
  if (newStyle)
    for (const [json, field] of [
      ['reportingComponent', 'reportingController'],
      ['reportingInstance', 'reportingInstance'],
      ['action', 'action'],
      ['reason', 'reason'],
    ] as const)
      if (typeof event[json] !== 'string' || event[json] === '')
        errors.push({ field, type: 'FieldValueRequired', message: 'Required value' });
  return errors;
}
