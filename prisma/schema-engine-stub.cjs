#!/usr/bin/env node
// Stand-in for Prisma's native schema engine, which cannot be downloaded here.
// `prisma generate` only needs PRISMA_SCHEMA_ENGINE_BINARY to name an existing
// file; it never runs it. Commands that would run it land here.
console.error('The native Prisma schema engine is not installed. Migrations are applied by the service on start (src/database/migrator.ts); see docs/match-store.md.');
process.exit(1);
