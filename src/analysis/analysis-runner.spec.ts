/**
 * The job's own rules, on stand-ins for the database, the store and the
 * pub/sub: a done analysis is not run again; the result is told once (a
 * second writer changes nothing and tells nothing); the last failed attempt
 * marks the analysis failed, an earlier one leaves it to the retry.
 */
import { apply, startedMatch } from '../engine/testing';
import { cardCode, greedyPlay, seatView } from '../engine';
import type { Prisma } from '../database/database';
import type { MatchStore } from '../match-store/match-store';
import type { PubSubEngine } from '../realtime/realtime.module';
import { AnalysisRunner } from './analysis-runner';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

function finishedLog() {
  const d = startedMatch(SEED, 'scopa', { target: 1 });
  while (d.state.phase === 'playing') {
    const seat = d.state.turn;
    const play = greedyPlay(seatView(d.state, seat));
    apply(d, { type: 'play', player: d.state.seats[seat].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) });
  }
  return d.events.map((e, i) => {
    const { type, ...payload } = e;
    return { seq: i + 1, type, payload };
  });
}

function standIns(status: string, analyzer = 'ismcts/1?iterations=4&exploration=2.5', written = 1) {
  const row = { id: 'a1', match_id: 'm1', analyzer, requested_by: 'alice', status };
  const sql: string[] = [];
  const published: { channel: string; message: { status?: string; type?: string } }[] = [];
  const db = {
    $queryRawUnsafe: async (text: string) => {
      sql.push(text);
      if (text.includes("SET status = 'running'")) return status === 'done' ? [] : [row];
      if (text.includes("SET status = 'failed'")) return [row];
      return [];
    },
    $executeRawUnsafe: async (text: string) => {
      sql.push(text);
      return text.includes("SET status = 'done'") ? written : 1;
    },
    $transaction: async <T>(fn: (tx: unknown) => Promise<T>) => fn(db),
  };
  const store = { eventsFrom: async () => finishedLog() };
  const pubsub = { publish: async (channel: string, message: { status?: string; type?: string }) => void published.push({ channel, message }) };
  const runner = new AnalysisRunner(db as unknown as Prisma, store as unknown as MatchStore, pubsub as unknown as PubSubEngine);
  return { runner, sql, published };
}

const job = (retryCount: number, retryLimit = 2) => ({ id: 'j1', data: { analysisId: 'a1' }, retryCount, retryLimit });

describe('the analysis job', () => {
  it('runs a queued analysis, writes its result and tells it once: done on the match channel, analysisReady to each reader', async () => {
    const { runner, sql, published } = standIns('queued');
    await runner.run(job(0));
    expect(sql.some((s) => s.includes("SET status = 'done'"))).toBe(true);
    expect(published.filter((p) => p.message.status === 'done')).toHaveLength(1);
    const ready = published
      .filter((p) => p.message.type === 'analysisReady')
      .map((p) => p.channel)
      .sort();
    expect(ready).toEqual(['player:alice', 'player:p0', 'player:p1']);
  });

  it('a second writer of the same result changes nothing and tells nothing', async () => {
    const { runner, published } = standIns('running', undefined, 0);
    await runner.run(job(1));
    expect(published.filter((p) => p.message.status === 'done' || p.message.type === 'analysisReady')).toEqual([]);
  });

  it('a done analysis is not run again', async () => {
    const { runner, sql } = standIns('done');
    await runner.run(job(0));
    expect(sql.filter((s) => s.includes('done ='))).toEqual([]);
  });

  it('a failed run before the last is left to the retry; the last marks the analysis failed', async () => {
    const early = standIns('queued', 'other/7');
    await expect(early.runner.run(job(0))).rejects.toThrow(/not other\/7/);
    expect(early.sql.some((s) => s.includes("SET status = 'failed'"))).toBe(false);

    const last = standIns('queued', 'other/7');
    await expect(last.runner.run(job(2))).rejects.toThrow(/not other\/7/);
    expect(last.sql.some((s) => s.includes("SET status = 'failed'"))).toBe(true);
    expect(last.published.map((p) => p.message.status)).toContain('failed');
  });
});
