// Every suite registers its accounts from one address (127.0.0.1): the stricter
// login/register limit would throttle them. The suite of that limit sets its own
// (test/rate-limits.e2e-spec.ts). Run before each test file, so a value one file set does not leak into the next.
process.env.AUTH_RATE_LIMIT = '100000';
