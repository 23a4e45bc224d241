/**
 * JSON text with exact int64 counters. An IPv6 pool's address count does not fit a JS number (a /64 is
 * 2^64), JSON.stringify cannot write a BigInt, and Node 20 has no JSON.rawJSON; so the counters are
 * written here as decimal digits. Kubernetes' int64 fields stop at 2^63-1: larger counts are sent as
 * MaxInt64, as MetalLB writes them.
 */
export const maxInt64 = 2n ** 63n - 1n;

export function int64Text(value: bigint): string {
  if (value < 0n) throw new RangeError(`a count cannot be negative: ${value}`);
  return (value > maxInt64 ? maxInt64 : value).toString();
}

/** `object` as JSON text with its `status` replaced by these counters, each an exact integer. */
export function withInt64Status(object: object, status: Readonly<Record<string, bigint>>): string {
  const rest: Record<string, unknown> = { ...object };
  delete rest.status;
  const fields = Object.entries(status).map(([k, v]) => `${JSON.stringify(k)}:${int64Text(v)}`);
  const statusText = `"status":{${fields.join(',')}}`;
  const head = JSON.stringify(rest);
  return head === '{}' ? `{${statusText}}` : `${head.slice(0, -1)},${statusText}}`;
}
