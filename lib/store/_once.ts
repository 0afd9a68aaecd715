/**
 * A lazily made value shared by every caller; a failure is not remembered, so the next call
 * tries again (e.g. the server secret while Redis is down).
 */
export function onceUntilSuccess<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= make().catch((error) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}
