/**
 * Code-unit order, the same on every host (localeCompare is not): what every "sorted by name" in lblab
 * means, so that speakers, reports and tests agree on an order whatever the machine's locale.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
