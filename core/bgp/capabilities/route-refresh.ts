import { expectLength } from './malformed.ts';

// RFC 2918 §2 Route Refresh capability, code 2, length 0.

export const CAPABILITY_ROUTE_REFRESH = 2;

export interface RouteRefreshCapability {
  code: 'route-refresh';
}

export function decodeRouteRefreshCapability(value: Uint8Array): RouteRefreshCapability {
  expectLength(CAPABILITY_ROUTE_REFRESH, value, 0, 'the route refresh capability');
  return { code: 'route-refresh' };
}

export function encodeRouteRefreshCapability(): Uint8Array {
  return new Uint8Array(0);
}
