import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../src/database/database';
import { readMigrations } from '../../src/database/migrator';

/**
 * A migrated PGlite cluster, dumped once and cached on disk (keyed on the
 * migrations): a fresh initdb costs seconds, loading the dump well under one.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const migrations = readMigrations();
  const key = createHash('sha256')
    .update(JSON.stringify(migrations.map((m) => [m.name, m.checksum])))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(process.cwd(), 'node_modules', '.cache', 'scopa-test');
  const file = path.join(dir, `pglite-${key}.tgz`);
  if (!existsSync(file)) {
    const db = await openDatabase({ dataDir: 'memory' });
    const dump = await db.pglite!.dumpDataDir('gzip');
    await db.close();
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file); // atomic: a concurrent worker reads a whole file or none
  }
  return new Blob([readFileSync(file)]);
}
