/**
 * An LRUCache bound by its number of entries without lru-cache's `max`: with
 * `max`, the cache allocates its whole index up front (for 100,000 entries
 * with a TTL, about 5 MB per cache whether it holds one entry or none; the
 * service's caches together took some 20 MB of every instance's memory).
 * `maxSize` with a size of 1 per entry gives the same bound on arrays that
 * grow as the entries come.
 */
export function entriesAtMost(count: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: count, sizeCalculation: () => 1 };
}
