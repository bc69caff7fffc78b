/**
 * Racing work against an AbortSignal: the caller stops waiting the moment the signal aborts, even
 * if the work ignores it (a tool stuck in a blocking call, a server that never answers). The work
 * is left to settle on its own; its late result or error is dropped, never unhandled.
 */

/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('cancelled', 'AbortError');
}
