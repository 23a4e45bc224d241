/**
 * apiextensions.k8s.io/v1 ConversionReview for the BGPPeer CRD: every object converted to the desired
 * version, in order, or a failed result saying why (kube-apiserver then fails the request that needed it).
 */
import { isMapping } from '../../config/schema.ts';
import type { Reply } from './admission.ts';
import { bgpPeerVersions, ConversionError, convertBgpPeer, isBgpPeerVersion } from './conversion.ts';

export const conversionApiVersion = 'apiextensions.k8s.io/v1';

export function convertReview(body: unknown): Reply {
  if (
    !isMapping(body) ||
    body['kind'] !== 'ConversionReview' ||
    body['apiVersion'] !== conversionApiVersion
  ) {
    return { status: 400, body: `expected a ${conversionApiVersion} ConversionReview\n` };
  }
  const request = body['request'];
  if (!isMapping(request) || typeof request['uid'] !== 'string' || !Array.isArray(request['objects'])) {
    return { status: 400, body: 'request.uid and request.objects are required\n' };
  }
  const { uid, desiredAPIVersion: desired, objects } = request;
  if (!isBgpPeerVersion(desired)) {
    const served = bgpPeerVersions.join(' and ');
    return failure(uid, `cannot convert to ${JSON.stringify(desired)}: BGPPeer is served as ${served}`);
  }
  try {
    const convertedObjects = (objects as unknown[]).map((o) => convertBgpPeer(o, desired));
    return reply(uid, { convertedObjects, result: { status: 'Success' } });
  } catch (err) {
    if (!(err instanceof ConversionError)) throw err;
    return failure(uid, err.message);
  }
}

function failure(uid: string, message: string): Reply {
  return reply(uid, { result: { status: 'Failure', message } });
}

function reply(uid: string, response: object): Reply {
  return {
    status: 200,
    body: { apiVersion: conversionApiVersion, kind: 'ConversionReview', response: { uid, ...response } },
  };
}
