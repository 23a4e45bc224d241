/**
 * Applies objects as `kubectl apply --server-side --force-conflicts --field-manager lblab-lab` does:
 * one server-side apply PATCH per object through client-node, so the API server (and its admission
 * webhooks) sees what a user's apply would send.
 */
import {
  ApiException,
  KubernetesObjectApi,
  loadYaml,
  PatchStrategy,
  type KubeConfig,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { LblabError } from '../../../../core/errors/lblab-error.ts';
import type { KubeObject } from './deploy-plan.ts';
import { waitUntil, type WaitOptions } from './wait.ts';

export const fieldManager = 'lblab-lab';

export class ApplyError extends LblabError {
  readonly code = 'KIND_APPLY';

  constructor(
    message: string,
    /** The API's HTTP status, when it answered. */
    readonly status: number | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** `Kind namespace/name`, as messages name an object. */
export function objectRef(o: KubeObject): string {
  return `${o.kind} ${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata.name}`;
}

export class Applier {
  private readonly objects: KubernetesObjectApi;

  constructor(kc: KubeConfig) {
    this.objects = KubernetesObjectApi.makeApiClient(kc);
  }

  /** Server-side apply of one object, forcing conflicts (the lab owns what it applies). */
  async apply(o: KubeObject): Promise<KubernetesObject> {
    try {
      return await this.objects.patch(
        asModel(o),
        undefined,
        undefined,
        fieldManager,
        true,
        PatchStrategy.ServerSideApply,
      );
    } catch (err) {
      const status = err instanceof ApiException ? err.code : undefined;
      throw new ApplyError(`applying ${objectRef(o)} failed: ${describeFailure(err)}`, status, {
        cause: err,
      });
    }
  }

  async applyAll(objects: readonly KubeObject[], progress: (line: string) => void): Promise<void> {
    for (const o of objects) {
      await this.apply(o);
      progress(`applied ${objectRef(o)}`);
    }
  }

  /** Waits until every CRD is Established (served), as `kubectl wait --for condition=Established`. */
  async waitEstablished(crds: readonly KubeObject[], o: WaitOptions): Promise<void> {
    for (const crd of crds)
      await waitUntil(
        `${objectRef(crd)} to be Established`,
        async () => {
          const read = (await this.objects.read({
            apiVersion: crd.apiVersion,
            kind: crd.kind,
            metadata: { name: crd.metadata.name },
          })) as V1CustomResourceDefinition;
          const established = read.status?.conditions?.find((c) => c.type === 'Established');
          return {
            done: established?.status === 'True',
            state: `Established=${established?.status ?? 'absent'}`,
          };
        },
        o,
      );
  }
}

/**
 * `o` as client-node's typed model. `patch` serializes a known kind through its model, which names some
 * fields differently from the API (a CRD schema's `x-kubernetes-preserve-unknown-fields` is
 * `x_kubernetes_preserve_unknown_fields`, `enum` is `_enum`) and drops what it does not find under those
 * names: a CRD sent as plain API JSON would arrive without them and, no longer structural, be refused.
 * Deserializing first maps the API's names to the model's, and serializing maps them back.
 */
function asModel(o: KubeObject): KubernetesObject {
  return loadYaml<KubernetesObject>(JSON.stringify(o));
}

/** client-node 1.4.0 puts the API's Status in `body` as text: its message is what a user needs. */
export function describeFailure(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  const code = (err as { code?: unknown }).code;
  if (typeof body === 'string') {
    try {
      const status = JSON.parse(body) as { message?: string };
      if (status.message) return `${String(code)} ${status.message}`;
    } catch {
      // not JSON: fall through to the error's own message
    }
  }
  return err instanceof Error ? err.message : String(err);
}
