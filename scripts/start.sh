#!/usr/bin/env bash
# npm start: the built service with the Node flags and environment of
# src/node-flags.ts (which says why each is there; a test keeps the two equal).
# exec: no shell stays between npm and the service, so the SIGTERM npm
# forwards reaches the service (test/npm-start.e2e-spec.ts).
set -euo pipefail
flags=(--heap-growing-percent=200 --v8-pool-size=0)
# The embedded default (no DATABASE_URL): EMBEDDED_NODE_FLAGS.
url="${DATABASE_URL:-}"
if [ -z "${url// /}" ]; then flags+=(--max-semi-space-size=2); fi
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node "${flags[@]}" dist/main.js "$@"
