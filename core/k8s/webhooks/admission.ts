/**
 * One validating webhook call: the AdmissionReview in, the verdict out. Refusals carry every error the
 * change causes, one per line, each naming the object and field as kubectl users know them.
 */
import { formatIssue, objectLabel, type NodeLabels } from '../../config/index.ts';
import { admissionReview, readAdmissionReview, type Verdict } from './admission-review.ts';
import { judge } from './judge.ts';
import type { ValidatedKind } from './paths.ts';

/** What the webhooks judge a change against; the Kubernetes source of the controller provides it. */
export interface ResourceProvider {
  /**
   * Every MetalLB resource (the six kinds, BGPPeer as metallb.io/v1beta2) and every Secret in lblab's
   * namespace, as the API server returns them.
   */
  resources(): Promise<readonly unknown[]>;
  /** The cluster's nodes, when known: whether two peers or advertisements meet is decided on them. */
  nodes?(): Promise<readonly NodeLabels[]>;
}

export interface AdmissionContext {
  /** lblab's namespace: MetalLB resources elsewhere are refused, as MetalLB refuses them. */
  namespace: string;
  provider: ResourceProvider;
}

/** An HTTP answer: kube-apiserver needs 200 and a review for any verdict; 400 means the call was not one. */
export interface Reply {
  status: number;
  body: object | string;
}

export async function admit(kind: ValidatedKind, body: unknown, ctx: AdmissionContext): Promise<Reply> {
  const read = readAdmissionReview(body);
  if (!read.ok) {
    return read.uid === undefined
      ? { status: 400, body: `${read.problem}\n` }
      : answer(read.uid, { allowed: false, code: 400, message: read.problem, warnings: [] });
  }
  const { request } = read;
  if (request.kind.kind !== kind) {
    const message = `this path validates ${kind} objects, not ${request.kind.kind}`;
    return answer(request.uid, { allowed: false, code: 400, message, warnings: [] });
  }
  let existing: readonly unknown[];
  let nodes: readonly NodeLabels[] | undefined;
  try {
    [existing, nodes] = await Promise.all([ctx.provider.resources(), ctx.provider.nodes?.()]);
  } catch (err) {
    // Failing closed, as MetalLB does: without the current resources no verdict can be trusted.
    const message = `cannot read the current MetalLB resources: ${err instanceof Error ? err.message : String(err)}`;
    return answer(request.uid, { allowed: false, code: 500, message, warnings: [] });
  }
  // The object, or (kube-apiserver before 1.15 sent no oldObject on DELETE) what the request names.
  const named = { kind: request.kind.kind, metadata: { namespace: request.namespace, name: request.name } };
  const subject = objectLabel(request.object ?? request.oldObject ?? named);
  const judged = judge({ ...request, subject }, existing, {
    namespace: ctx.namespace,
    ...(nodes === undefined ? {} : { nodes }),
  });
  const warnings = judged.warnings.map(formatIssue);
  if (judged.errors.length === 0) return answer(request.uid, { allowed: true, warnings });
  const lines = judged.errors.map(formatIssue);
  // A deletion is refused for what it leaves behind, which the errors name; say what they are about.
  const message =
    request.operation === 'DELETE' ? `${subject} is in use: ${lines.join('\n')}` : lines.join('\n');
  return answer(request.uid, { allowed: false, code: 403, message, warnings });
}

function answer(uid: string, verdict: Verdict): Reply {
  return { status: 200, body: admissionReview(uid, verdict) };
}
