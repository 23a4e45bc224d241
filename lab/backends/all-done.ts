/**
 * Waits for every one of `work` to end, then gives their results in order or throws the first failure.
 * Unlike Promise.all it never returns while some are still running: a lab that starts containers or
 * daemons side by side cleans up after a failure only once nothing more can appear.
 */
export async function allDone<T>(work: readonly Promise<T>[]): Promise<T[]> {
  const ended = await Promise.allSettled(work);
  const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return ended.map((r) => (r as PromiseFulfilledResult<T>).value);
}
