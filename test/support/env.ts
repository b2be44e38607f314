// Every suite registers its accounts from one address (127.0.0.1): the stricter
// login/register limit would throttle them. The suite of that limit sets its own
// (test/rate-limits.e2e-spec.ts). Run before each test file, so a value one file set does not leak into the next.
process.env.AUTH_RATE_LIMIT = '100000';
// A start waits up to CLIENT_SEED_WINDOW (default 30 s) for the client seeds of
// human seats that gave none. The suites written before client seeds start
// matches whose players give no seed and expect them dealt at once: 0 keeps
// that behaviour (it is the documented "no wait" setting; instances spawned
// by a suite inherit it). test/client-seeds.e2e-spec.ts sets its own window.
process.env.CLIENT_SEED_WINDOW = '0';
// Rate-limit counters in Redis are per key and shared by every instance on that Redis; the suites all
// charge from 127.0.0.1, and each instance leases a share of a key's limit (src/limits/rate-limits.ts), so
// suites run side by side would spend each other's budget. Each test file gets counters of its own; the
// instances one file spawns inherit them and share them, as instances of one deployment do.
process.env.RATE_LIMIT_REDIS_PREFIX = `scopa:rl:test:${process.pid}:${Date.now()}`;
