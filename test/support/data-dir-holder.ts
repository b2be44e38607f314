/**
 * Child of the data-dir lock test: opens DATA_DIR as the service does
 * (PrismaService), records its pid in the database, prints `ready`, and closes
 * the database on SIGTERM. A refusal to open is printed on stderr, exit code 1
 * (as the service's start fails).
 */
import { PrismaService } from '../../src/database/prisma.service';

async function main(): Promise<void> {
  const prisma = new PrismaService({ dataDir: process.env.DATA_DIR });
  await prisma.onModuleInit();
  await prisma.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS holders (pid int NOT NULL)');
  await prisma.$executeRawUnsafe(`INSERT INTO holders VALUES (${process.pid})`);
  process.once('SIGTERM', () => {
    void prisma.onModuleDestroy().then(() => process.exit(0));
  });
  process.stdout.write('ready\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
