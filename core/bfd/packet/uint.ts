/** True when `v` is an integer from 0 to `max`: a value an unsigned wire field of that size can carry. */
export function isUint(v: number, max: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= max;
}
