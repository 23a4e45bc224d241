/**
 * Options for one client-node call that change its request (client-node 1.4.0's middleware, whose
 * Observable shape is wrapped here once): `pre` before it is sent, `post` when its answer arrives.
 */
import { Observable, type RequestContext, type ResponseContext } from '@kubernetes/client-node';

export function perCall(o: { pre?: (request: RequestContext) => void; post?: () => void }) {
  return {
    middleware: [
      {
        pre: (request: RequestContext) => {
          o.pre?.(request);
          return new Observable(Promise.resolve(request));
        },
        post: (response: ResponseContext) => {
          o.post?.();
          return new Observable(Promise.resolve(response));
        },
      },
    ],
    middlewareMergeStrategy: 'append' as const,
  };
}
