/**
 * The speakers' membership key, kept as MetalLB keeps its memberlist key: Secret `memberlist` in lblab's
 * namespace, data `secretkey`, 32 random bytes. The controller creates it when missing and never
 * changes an existing one (an operator may have rotated it; the speakers follow the Secret).
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { membershipSecret } from '../bundle/names.ts';
import { isApiCode } from '../api-time-and-errors.ts';

export type MembershipSecretResult =
  | 'created'
  | 'exists'
  /** Another replica created it between our read and our create. */
  | 'created-by-another'
  /** It exists without a usable `secretkey`: left alone, for the operator to fix. */
  | 'exists-without-key';

export async function ensureMembershipSecret(o: {
  kc: KubeConfig;
  namespace: string;
  /** Default: 32 bytes from the operating system's CSPRNG (a key, so never the seeded Random). */
  newKey?: () => Uint8Array;
}): Promise<MembershipSecretResult> {
  const core = o.kc.makeApiClient(CoreV1Api);
  const { name, key } = membershipSecret;
  try {
    const found = await core.readNamespacedSecret({ namespace: o.namespace, name });
    return found.data?.[key] ? 'exists' : 'exists-without-key';
  } catch (err) {
    if (!isApiCode(err, 404)) throw err;
  }
  const bytes = o.newKey?.() ?? randomBytes(32);
  try {
    await core.createNamespacedSecret({
      namespace: o.namespace,
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: o.namespace },
        type: 'Opaque',
        data: { [key]: Buffer.from(bytes).toString('base64') },
      },
    });
    return 'created';
  } catch (err) {
    if (isApiCode(err, 409)) return 'created-by-another';
    throw err;
  }
}
