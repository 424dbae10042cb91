/** Runs API writes with bounded concurrency so 10,000 pod updates don't open 10,000 sockets at once. */
export async function runBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  onError: (error: unknown, item: T) => void,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        onError(error, item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
