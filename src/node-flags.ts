/**
 * Flags the service's Node process starts with, wherever it is launched
 * (`npm start`, the Dockerfile, `npm run cluster`, the process tests and
 * bench:api); a test checks that the first two carry them too.
 *
 * --heap-growing-percent=200: after a full collection V8 lets the old
 * generation grow to three times what survived before the next one (its
 * own factor is about 1.1 to 2 on a heap this size). Under steady play an
 * instance keeps some 65 MB live and promotes a few MB a second of
 * short-lived match state; with V8's factor that meant a full collection
 * every 3 to 7 s, and each one, with its marking threads taking the other
 * core, left a burst of delayed plays behind it: the largest part of the
 * play p99 at 500 plays/s on two cores (bench:api). The price is memory: the
 * heap peaks near 200 MB instead of about 100.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=200'];
