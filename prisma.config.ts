// Prisma 7 configuration (used by `prisma generate`). The service applies
// prisma/migrations itself (src/database/migrator.ts); DATABASE_URL is only
// read here for the Prisma CLI commands that need a database.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
