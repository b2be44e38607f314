import { loadConfig } from '../config/config';
import { DomainError } from '../common/domain-error';
import { ReadReplica, primaryReads, replicaReads } from './read-replica';
import type { PrimaryDatabase, ReadSource } from './read-replica';

const source = (name: string): ReadSource & { name: string } => ({ name, prisma: {} as never, rows: async () => [] });

describe('replicaReads', () => {
  const replica = source('replica');
  const primary = source('primary');
  const nameOf = async (db: ReadSource) => (db as ReadSource & { name: string }).name;

  it('answers from the replica when it can', async () => {
    const heard: string[] = [];
    const reads = replicaReads(replica, primary, (reason) => heard.push(reason));
    expect(await reads.read(nameOf)).toBe('replica');
    expect(await reads.read(nameOf, (r) => r === 'replica')).toBe('replica');
    expect(heard).toEqual([]);
  });

  it('reads again on the primary when the replica fails or answers stale, and the primary answer stands', async () => {
    const heard: string[] = [];
    const reads = replicaReads(replica, primary, (reason) => heard.push(reason));
    const failing = async (db: ReadSource) => {
      if (db === replica) throw new Error('canceling statement due to conflict with recovery');
      return nameOf(db);
    };
    expect(await reads.read(failing)).toBe('primary');
    // "stale": the replica's answer is refused (e.g. not over yet); the primary's is taken even if `fresh` refuses it too
    expect(await reads.read(nameOf, () => false)).toBe('primary');
    expect(heard).toEqual(['error', 'stale']);
  });

  it("a domain error on the replica (a row not replayed yet) is the primary's to confirm", async () => {
    const reads = replicaReads(replica, primary);
    const notFoundThere = async (db: ReadSource) => {
      if (db === replica) throw new DomainError('NOT_FOUND', 'no match');
      return 'found';
    };
    expect(await reads.read(notFoundThere)).toBe('found');
    await expect(reads.read(async () => Promise.reject(new DomainError('FORBIDDEN', 'not over')))).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('primaryReads runs every read on the primary', async () => {
    const reads = primaryReads(primary);
    expect(reads.separate).toBe(false);
    expect(await reads.read(nameOf, () => false)).toBe('primary');
  });
});

describe('ReadReplica', () => {
  const embedded = (kind: 'pg' | 'pglite'): PrimaryDatabase => ({ database: { kind, rows: async () => [] } }) as unknown as PrimaryDatabase;

  it('is the primary itself without DATABASE_READ_URL, on the embedded database, or with the primary URL', async () => {
    const url = 'postgresql://postgres@127.0.0.1:1/x';
    for (const r of [
      new ReadReplica(embedded('pg'), { primaryUrl: url, poolSize: 1 }),
      new ReadReplica(embedded('pglite'), { readUrl: url, poolSize: 1 }),
      new ReadReplica(embedded('pg'), { readUrl: url, primaryUrl: url, poolSize: 1 }),
    ]) {
      expect(r.separate).toBe(false);
      await r.onModuleDestroy();
    }
  });

  it('opens a second pool for another URL (no connection until a read)', async () => {
    const r = new ReadReplica(embedded('pg'), {
      readUrl: 'postgresql://postgres@127.0.0.1:1/x',
      primaryUrl: 'postgresql://postgres@127.0.0.1:2/x',
      poolSize: 1,
    });
    expect(r.separate).toBe(true);
    await r.onModuleDestroy();
  });
});

describe('DATABASE_READ_URL', () => {
  it('takes a postgres URL and refuses anything else', () => {
    expect(loadConfig({ DATABASE_READ_URL: 'postgresql://reader@10.0.0.2:5432/scopa' }).DATABASE_READ_URL).toBe('postgresql://reader@10.0.0.2:5432/scopa');
    expect(loadConfig({ DATABASE_READ_URL: 'postgres://h/db' }).DATABASE_READ_URL).toBe('postgres://h/db');
    expect(loadConfig({ DATABASE_READ_URL: ' ' }).DATABASE_READ_URL).toBeUndefined();
    for (const bad of ['mysql://h/db', 'localhost:5432', 'postgresql:///db'])
      expect(() => loadConfig({ DATABASE_READ_URL: bad })).toThrow(/DATABASE_READ_URL=.*PostgreSQL URL/);
  });
});
