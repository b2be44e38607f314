/**
 * For tests: a migrated PGlite cluster, dumped once and cached on disk under
 * node_modules/.cache (keyed on the migrations' checksums). A fresh initdb
 * costs seconds; loading the dump well under one. Use it as
 * `openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() })`
 * or `new PrismaService({ dataDir: 'memory', loadDataDir: ... })`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../src/database/database';
import { readMigrations } from '../../src/database/migrator';

export async function pgliteTemplate(): Promise<Blob> {
  const migrations = readMigrations();
  const key = createHash('sha256')
    .update(JSON.stringify(migrations.map((m) => [m.name, m.checksum])))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(process.cwd(), 'node_modules', '.cache', 'scopa-store');
  const file = path.join(dir, `pglite-template-${key}.tgz`);
  if (!existsSync(file)) {
    const db = await openDatabase({ dataDir: 'memory', migrations });
    const dump = await db.pglite!.dumpDataDir('gzip');
    await db.close();
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file); // atomic: a concurrent worker reads a whole file or none
  }
  return new Blob([readFileSync(file)]);
}
