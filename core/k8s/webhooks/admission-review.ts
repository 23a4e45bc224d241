/**
 * admission.k8s.io/v1 AdmissionReview, as kube-apiserver sends it to a validating webhook and reads the
 * answer: the response repeats the request's uid, says allowed, and on a refusal carries a Status whose
 * code and message kube-apiserver hands to the client ("admission webhook ... denied the request: ...").
 */
import { isMapping } from '../../config/schema.ts';
import type { Operation } from './judge.ts';

export const admissionApiVersion = 'admission.k8s.io/v1';

export interface AdmissionRequest {
  uid: string;
  /** The kind of `object` (after conversion to the version the webhook asked for). */
  kind: { group: string; version: string; kind: string };
  operation: Operation;
  namespace?: string;
  name?: string;
  object?: unknown;
  oldObject?: unknown;
}

export type Verdict =
  | { allowed: true; warnings: string[] }
  | { allowed: false; code: number; message: string; warnings: string[] };

/** The request, or what is wrong with the review (and its uid when it has one, so the answer can cite it). */
export function readAdmissionReview(
  body: unknown,
): { ok: true; request: AdmissionRequest } | { ok: false; uid?: string; problem: string } {
  if (!isMapping(body) || body['kind'] !== 'AdmissionReview') {
    return { ok: false, problem: 'expected an AdmissionReview' };
  }
  const request = body['request'];
  const uid = isMapping(request) && typeof request['uid'] === 'string' ? request['uid'] : undefined;
  const fail = (problem: string) => ({ ok: false as const, problem, ...(uid === undefined ? {} : { uid }) });
  if (body['apiVersion'] !== admissionApiVersion) {
    return fail(
      `AdmissionReview ${JSON.stringify(body['apiVersion'])} is not served; use ${admissionApiVersion}`,
    );
  }
  if (!isMapping(request) || uid === undefined || uid === '') return fail('request.uid is missing');
  const kind = request['kind'];
  if (!isMapping(kind) || typeof kind['kind'] !== 'string') return fail('request.kind is missing');
  const operation = request['operation'];
  if (operation !== 'CREATE' && operation !== 'UPDATE' && operation !== 'DELETE') {
    return fail(
      `operation ${JSON.stringify(operation)} is not one this webhook judges (CREATE, UPDATE, DELETE)`,
    );
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const out: AdmissionRequest = {
    uid,
    kind: { group: text(kind['group']), version: text(kind['version']), kind: kind['kind'] },
    operation,
  };
  // kube-apiserver sends null for the side that does not exist (oldObject on CREATE, object on DELETE).
  for (const field of ['namespace', 'name'] as const) {
    if (typeof request[field] === 'string') out[field] = request[field];
  }
  for (const field of ['object', 'oldObject'] as const) {
    if (request[field] !== null && request[field] !== undefined) out[field] = request[field];
  }
  if (operation !== 'DELETE' && out.object === undefined)
    return fail(`request.object is missing on ${operation}`);
  return { ok: true, request: out };
}

export function admissionReview(uid: string, verdict: Verdict): object {
  const status = verdict.allowed
    ? { code: 200 }
    : {
        code: verdict.code,
        // The reason kube-apiserver would give for the code, as controller-runtime's webhooks send it.
        reason: verdict.code === 403 ? 'Forbidden' : verdict.code === 400 ? 'BadRequest' : 'InternalError',
        message: verdict.message,
      };
  return {
    apiVersion: admissionApiVersion,
    kind: 'AdmissionReview',
    response: {
      uid,
      allowed: verdict.allowed,
      status,
      ...(verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {}),
    },
  };
}
