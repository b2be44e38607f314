import { PubSub } from 'graphql-subscriptions';
import type { PrismaService } from '../database/prisma.service';
import { RevocationBus } from '../connections/revocations';
import { SessionsService } from './sessions.service';
import { loadConfig } from '../config/config';

const SID = '0b7d6a4e-3c1f-4e2a-9a55-6f0d2c1b9e11';

/** A prisma whose session reads wait until the test lets them answer. */
function fakePrisma() {
  const pending: ((row: { accountId: string; revokedAt: Date | null } | null) => void)[] = [];
  let reads = 0;
  const prisma = {
    session: {
      findUnique: () => {
        reads++;
        return new Promise((resolve) => pending.push(resolve));
      },
    },
  } as unknown as PrismaService;
  return { prisma, answer: (row: { accountId: string; revokedAt: Date | null } | null) => pending.splice(0).forEach((r) => r(row)), reads: () => reads };
}

describe('SessionsService.isActive', () => {
  let bus: RevocationBus;
  beforeEach(async () => {
    bus = new RevocationBus(new PubSub());
    bus.onModuleInit();
    await bus.ready;
  });
  afterEach(() => bus.onModuleDestroy());

  it('reads a session once for concurrent requests, then answers from memory', async () => {
    const db = fakePrisma();
    const sessions = new SessionsService(db.prisma, bus, loadConfig());
    const both = Promise.all([sessions.isActive(SID, 'acc'), sessions.isActive(SID, 'acc')]);
    db.answer({ accountId: 'acc', revokedAt: null });
    expect(await both).toEqual([true, true]);
    expect(await sessions.isActive(SID, 'acc')).toBe(true);
    expect(db.reads()).toBe(1);
  });

  it('a revocation heard while the row was being read wins over the row', async () => {
    const db = fakePrisma();
    const sessions = new SessionsService(db.prisma, bus, loadConfig());
    const check = sessions.isActive(SID, 'acc');
    await bus.publish({ kind: 'sessions', accountId: 'acc', sessions: [{ id: SID, expiresAt: Date.now() + 60_000 }] });
    db.answer({ accountId: 'acc', revokedAt: null });
    expect(await check).toBe(false);
    expect(await sessions.isActive(SID, 'acc')).toBe(false);
  });

  it('refuses a session of another account, a revoked or unknown one, and an id that is not a uuid without reading', async () => {
    const db = fakePrisma();
    const sessions = new SessionsService(db.prisma, bus, loadConfig());
    const other = sessions.isActive(SID, 'someone-else');
    db.answer({ accountId: 'acc', revokedAt: null });
    expect(await other).toBe(false);
    const sessions2 = new SessionsService(db.prisma, bus, loadConfig());
    const revoked = sessions2.isActive(SID, 'acc');
    db.answer({ accountId: 'acc', revokedAt: new Date() });
    expect(await revoked).toBe(false);
    const sessions3 = new SessionsService(db.prisma, bus, loadConfig());
    const unknown = sessions3.isActive(SID, 'acc');
    db.answer(null);
    expect(await unknown).toBe(false);
    const reads = db.reads();
    expect(await sessions3.isActive('x\u0000', 'acc')).toBe(false);
    expect(db.reads()).toBe(reads);
  });
});
