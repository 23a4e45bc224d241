/**
 * The membership key from the cluster, as MetalLB keeps its memberlist key: Secret `memberlist`, data key
 * `secretkey`, in lblab's namespace, created by the controller when missing. The speaker waits for it at
 * start (bounded: the data plane must not wait on the API server for long), and follows it afterwards, so
 * a rotated Secret becomes the new key without a restart, as --membership-key-file does for a file.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { MIN_KEY_BYTES } from '../../membership/auth/keyring.ts';
import type { Clock } from '../../runtime/clock.ts';
import { membershipSecret as MEMBERSHIP_SECRET } from '../bundle/names.ts';

/** The Secrets of lblab's namespace, as KubeConfigSource serves them from its informer's cache. */
export interface SecretSource {
  secret(name: string): V1Secret | undefined;
  onSecret(name: string, listener: (s: V1Secret | undefined) => void): () => void;
}

export type KeyReading = { key: Uint8Array } | { problem: string };

/** The key a Secret holds, or what is wrong with it (named so an operator can fix it). */
export function keyFromSecret(s: V1Secret | undefined, namespace: string): KeyReading {
  const where = `Secret ${namespace}/${MEMBERSHIP_SECRET.name}`;
  if (s === undefined) return { problem: `${where} does not exist (the controller creates it)` };
  const text = s.data?.[MEMBERSHIP_SECRET.key];
  if (text === undefined) return { problem: `${where} has no data.${MEMBERSHIP_SECRET.key}` };
  const key = new Uint8Array(Buffer.from(text, 'base64'));
  if (key.length < MIN_KEY_BYTES)
    return {
      problem: `${where}: data.${MEMBERSHIP_SECRET.key} is ${key.length} bytes, at least ${MIN_KEY_BYTES} are needed`,
    };
  return { key };
}

/**
 * The key, as soon as a usable one is in the Secret; undefined if none came within `timeoutMs` (the
 * caller then starts unauthenticated, with the warning file mode prints).
 */
export function waitForMembershipKey(o: {
  source: SecretSource;
  namespace: string;
  clock: Clock;
  timeoutMs: number;
  log: (line: string) => void;
}): Promise<Uint8Array | undefined> {
  const first = keyFromSecret(o.source.secret(MEMBERSHIP_SECRET.name), o.namespace);
  if ('key' in first) return Promise.resolve(first.key);
  o.log(`waiting up to ${o.timeoutMs} ms for the membership key: ${first.problem}`);
  return new Promise((resolve) => {
    const timer = o.clock.setTimer('membership key: wait', o.timeoutMs, () => {
      stop();
      resolve(undefined);
    });
    const stop = o.source.onSecret(MEMBERSHIP_SECRET.name, (s) => {
      const r = keyFromSecret(s, o.namespace);
      if (!('key' in r)) return;
      timer.cancel();
      stop();
      resolve(r.key);
    });
  });
}

/**
 * Follows the Secret after start. With a key, each new usable key is handed to `rotate` (membership
 * seals with both during the rotation window); a Secret that vanishes or turns unusable keeps the
 * current key. Started without a key, membership cannot take one without a restart (it refuses a key
 * it was not started with): the change is logged, with what to do.
 */
export function followMembershipKey(o: {
  source: SecretSource;
  namespace: string;
  current: Uint8Array | undefined;
  rotate: (key: Uint8Array) => void;
  log: (line: string) => void;
}): () => void {
  let current = o.current;
  return o.source.onSecret(MEMBERSHIP_SECRET.name, (s) => {
    const r = keyFromSecret(s, o.namespace);
    if (!('key' in r)) {
      if (current !== undefined) o.log(`keeping the current membership key: ${r.problem}`);
      return;
    }
    if (current !== undefined && Buffer.from(current).equals(r.key)) return;
    if (current === undefined) {
      o.log(
        `warning: the membership key appeared in Secret ${o.namespace}/${MEMBERSHIP_SECRET.name} after this speaker started unauthenticated; restart the speakers to authenticate membership (while some have the key and some do not, the two groups do not hear each other)`,
      );
      return;
    }
    current = r.key;
    o.log(`membership key changed in Secret ${o.namespace}/${MEMBERSHIP_SECRET.name}: rotating`);
    o.rotate(r.key);
  });
}
