import { setFlagsFromString } from 'node:v8';
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
 *
 * --v8-pool-size=0: as many V8 background threads as the machine has cores
 * less one (at least one), instead of Node's fixed four. Those threads mark
 * the old generation while JavaScript runs; four of them on two cores took
 * both for 100 to 200 ms at each full collection (a scheduler trace: the
 * event loop thread got 6 to 8 ms of every 25 and waited up to 9 ms for a
 * core each time it woke), and the plays of that window were the bursts that
 * set the paced p99. With one, a core stays for the event loop: graphql-ws
 * at 500 plays/s on one instance went from 5 to 78 plays of 50 ms or more
 * per pass to 0 or 1, at the same CPU per play (bench/README.md, 2026-11-27,
 * fourth session). The embedded default's peak fell by 35 to 41 MB with it,
 * likely from fewer compiler threads at start. It is read when the process
 * starts, so it is a flag.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=200', '--v8-pool-size=0'];

/**
 * Flags the embedded default (no DATABASE_URL) starts with besides those
 * above: `npm start` (scripts/start.sh), the process tests and the benches
 * add them when DATABASE_URL is unset or blank. The Docker image runs the
 * compose file's PostgreSQL replicas and does not.
 *
 * --max-semi-space-size=2: V8 doubles each of the young generation's two
 * semi-spaces whenever a scavenge finds it busy, up to 16 MB, and keeps
 * them; the service's start alone grows them there (32 MB of new space at
 * ready). On PGlite the database shares the process, so that is 30 MB more
 * resident for nothing the embedded instance's throughput needs.
 * bench:embedded's peak fell by some 50 MB (bench/README.md, "Fourth
 * pass: V8's young generation"). V8 sizes the semi-spaces once, when the heap is set up, so this
 * cannot be set from the configuration module as the heap factor below is.
 */
export const EMBEDDED_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/** The Node flags of a service process started with `env`: the embedded default's added where DATABASE_URL is unset or blank. */
export function serviceNodeFlags(env: Readonly<Record<string, string | undefined>>, flags = SERVICE_NODE_FLAGS, embedded = EMBEDDED_NODE_FLAGS): string[] {
  return env.DATABASE_URL?.trim() ? [...flags] : [...flags, ...embedded];
}

/**
 * Environment the service's process starts with, wherever it is launched
 * (the same launchers as the flags above; the same test checks them).
 *
 * MALLOC_ARENA_MAX=2: glibc gives threads that allocate at once arenas of
 * their own, up to eight per core, and keeps what they freed resident. V8's
 * compiler and collector threads (compiling PGlite's and Prisma's
 * WebAssembly at start) and libuv's pool threads (each argon2 hash takes a
 * 19 MB block) left some 90 to 150 MB of an embedded instance's peak in
 * such arenas. Two arenas bound that: bench:embedded's peak went from 430 to
 * 435 MB down to 395 to 397 MB, alternating on the same machine. glibc reads
 * it before any JavaScript runs, so it cannot be set from the configuration
 * module; an operator's own value in the environment wins.
 */
export const SERVICE_ENVIRONMENT: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * The embedded default (no DATABASE_URL) trades that factor back for memory:
 * V8 lets the old generation grow to (1 + PGLITE_HEAP_GROWING_PERCENT/100)
 * times what survived the last full collection (default 10, where the
 * service flag above says 200). On PGlite the database runs in the service's
 * own process and thread, throughput is a fraction of PostgreSQL's, and the
 * heap was the largest part of the instance's peak RSS (bench:embedded: old
 * space 124 MB for some 65 MB live). V8 reads this flag at every full
 * collection, so setting it at start (before the first one that matters)
 * has the effect of the command-line flag; 0 leaves V8's own factor.
 * PostgreSQL mode keeps the command-line flags as they are.
 *
 * The flag holds for the whole process from then on, so callers other than
 * the service's entry point (a unit test in a jest worker that goes on to
 * run other suites) pass their own `setFlags`.
 */
export function applyEmbeddedHeapSettings(
  config: { DATABASE_URL?: string; PGLITE_HEAP_GROWING_PERCENT: number },
  setFlags: (flags: string) => void = setFlagsFromString,
): string | null {
  if (config.DATABASE_URL) return null;
  const flag = `--heap-growing-percent=${config.PGLITE_HEAP_GROWING_PERCENT}`;
  setFlags(flag);
  return flag;
}
