/** Waiting on child processes' output in the real-kernel tests (tcp, bfd): re-check on each new line. */

/** Waits for `check` to return a value, re-checking on every `wake`, for at most `ms`. */
export function waitUntil<T>(
  what: string,
  ms: number,
  wake: Set<() => void>,
  check: () => T | undefined,
): Promise<T> {
  return new Promise((resolve, reject) => {
    // A check may throw (the child it waits on is gone): that ends the wait with its error.
    const attempt = () => {
      let value: T | undefined;
      try {
        value = check();
      } catch (e) {
        clearTimeout(timer);
        wake.delete(attempt);
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (value === undefined) return;
      clearTimeout(timer);
      wake.delete(attempt);
      resolve(value);
    };
    const timer = setTimeout(() => {
      wake.delete(attempt);
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    wake.add(attempt);
    attempt();
  });
}
