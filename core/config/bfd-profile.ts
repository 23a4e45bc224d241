/**
 * metallb.io/v1beta1 BFDProfile, with the defaults the CRD documents (FRR's BFD defaults), and lblab's
 * authentication annotations.
 */
import { readBfdAuthAnnotations } from './bfd-auth-annotations.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { ParsedOf } from './parsed.ts';
import { bool, int, object } from './schema.ts';

const interval = int(10, 60000);

export const bfdProfileSpec = object({
  receiveInterval: interval,
  transmitInterval: interval,
  detectMultiplier: int(2, 255),
  echoInterval: interval,
  echoMode: bool,
  passiveMode: bool,
  minimumTtl: int(1, 254),
});

export function parseBFDProfile(input: DocumentInput): ParsedOf<'BFDProfile'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  const doc = readEnvelope(input, { spec: bfdProfileSpec });
  if (doc === undefined) return undefined;
  const s = doc.fields.spec ?? {};
  if (s.echoInterval !== undefined && s.echoMode !== true) {
    log.warn('spec.echoInterval', 'has no effect unless echoMode is true');
  }
  const authRequest = readBfdAuthAnnotations(doc.annotations, doc.meta.namespace, log);
  if (log.errorCount() !== before) return undefined;
  return {
    kind: 'BFDProfile',
    ...(authRequest === undefined ? {} : { authRequest }),
    value: {
      meta: doc.meta,
      receiveIntervalMs: s.receiveInterval ?? 300,
      transmitIntervalMs: s.transmitInterval ?? 300,
      detectMultiplier: s.detectMultiplier ?? 3,
      echoIntervalMs: s.echoInterval ?? 50,
      echoMode: s.echoMode ?? false,
      passiveMode: s.passiveMode ?? false,
      minimumTtl: s.minimumTtl ?? 254,
    },
  };
}
