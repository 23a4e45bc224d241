import { expectLength } from './malformed.ts';

// RFC 7313 §3.1 Enhanced Route Refresh capability, code 70, length 0.

export const CAPABILITY_ENHANCED_ROUTE_REFRESH = 70;

export interface EnhancedRouteRefreshCapability {
  code: 'enhanced-route-refresh';
}

export function decodeEnhancedRouteRefresh(value: Uint8Array): EnhancedRouteRefreshCapability {
  expectLength(CAPABILITY_ENHANCED_ROUTE_REFRESH, value, 0, 'the enhanced route refresh capability');
  return { code: 'enhanced-route-refresh' };
}

export function encodeEnhancedRouteRefresh(): Uint8Array {
  return new Uint8Array(0);
}
