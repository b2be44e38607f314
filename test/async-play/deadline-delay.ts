/**
 * The delay between a turn deadline and its expiry event, measured on real
 * clocks (the service's own periodic scan and job workers, nothing driven by
 * hand): timed matches with the shortest turn time limit allowed (PT10S),
 * created a little apart so that their deadlines fall at different points of
 * the scan's period, each left to run out. The delay of one is the expiry
 * event's created_at minus the deadline the clock row held (both the
 * database's clock). Written once for test/deadline-delay.e2e-spec.ts (one
 * instance, PGlite) and test/deadline-delay.pg-spec.ts (two instances,
 * PostgreSQL).
 */
import type { INestApplication } from '@nestjs/common';
import { MatchStore } from '../../src/match-store/match-store';
import { PrismaService } from '../../src/database/prisma.service';

/** The defaults that matter here: a scan every second, the workers' own poll every 5 s (the default). */
export const DEADLINE_ENV = { CLOCK_POLL_MS: '1000', JOB_POLL_SECONDS: '5', JOB_WORKERS: '1', BOT_SWEEP_MS: '0', WEBHOOK_POLL_MS: '0' };
/**
 * The documented bound (docs/async-play.md "Turn clocks"): the instance that queued a deadline's job wakes its worker
 * at the deadline, so the expiry comes within the time to fetch, decide and append, well under the workers' poll.
 */
export const DEADLINE_BOUND_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `count` PT10S matches through the instances in turn, `spacingMs` apart, and returns each first deadline's delay in ms. */
export async function measureDeadlineDelays(apps: INestApplication[], count: number, spacingMs: number): Promise<number[]> {
  const prisma = apps[0].get(PrismaService);
  const started: { id: string; seq: number; deadline: Date }[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await sleep(spacingMs);
    const store = apps[i % apps.length].get(MatchStore);
    const created = await store.create({
      preset: 'scopa',
      seats: [{ player: 'ann' }, { player: 'bob' }],
      createdBy: 'ann',
      settings: { turnTimeLimit: 'PT10S', onExpiry: 'autoPlay' },
    });
    const start = await store.execute(created.matchId, { type: 'start', player: 'ann' }, { actor: 'ann' });
    const [row] = await prisma.$queryRawUnsafe<{ seq: number; deadline: Date }[]>(
      'SELECT seq, deadline FROM match_clocks WHERE match_id = $1::uuid',
      created.matchId,
    );
    if (row?.seq !== start.seq) throw new Error(`no turn clock at seq ${start.seq} for ${created.matchId}`);
    started.push({ id: created.matchId, seq: start.seq, deadline: new Date(row.deadline) });
  }
  const delays = new Map<string, number>();
  for (const until = Date.now() + 60_000; delays.size < started.length && Date.now() < until;) {
    await sleep(200);
    for (const m of started) {
      if (delays.has(m.id)) continue;
      const [expired] = await prisma.$queryRawUnsafe<{ created_at: Date; actor: string | null }[]>(
        'SELECT created_at, actor FROM match_events WHERE match_id = $1::uuid AND seq = $2::int',
        m.id,
        m.seq + 1,
      );
      if (!expired) continue;
      if (expired.actor !== null) throw new Error(`${m.id}: seq ${m.seq + 1} is not the clock's`);
      delays.set(m.id, new Date(expired.created_at).getTime() - m.deadline.getTime());
    }
  }
  return started.map((m) => delays.get(m.id) ?? Number.POSITIVE_INFINITY);
}

export function summary(label: string, delays: number[]): string {
  const sorted = [...delays].sort((a, b) => a - b);
  return `${label}: deadline → expiry event, ms: ${sorted.join(', ')} (median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted[sorted.length - 1]})`;
}
