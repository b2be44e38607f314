/**
 * Ratings on PostgreSQL with two instances (two connection pools on one
 * database): both try to record every rated match at once; each match is
 * rated exactly once, matches of the same players recorded at once lose no
 * update (rows locked in one order, no deadlock), and a rebuild gives the
 * same numbers.
 */
import { jest } from '@jest/globals';
import { legalPlayCodesInView, seatView } from '../src/engine';
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { MatchStore } from '../src/match-store/match-store';
import { RatingStore } from '../src/ratings/rating-store';
import { freshPgDatabase } from './store/helpers';

jest.setTimeout(120_000);

const PERIOD_MS = 7 * 24 * 3600 * 1000;

describe('ratings on PostgreSQL, two instances', () => {
  let fresh: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    fresh = await freshPgDatabase();
    a = await openDatabase({ url: fresh.url, poolSize: 4 });
    b = await openDatabase({ url: fresh.url, poolSize: 4, migrate: false });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fresh?.drop();
  });

  /** A rated scopa match of two players that `loser` resigns, once each has played a card (before, it is an abort, not rated). */
  async function resigned(store: MatchStore, p: string, q: string, loser: string): Promise<string> {
    const { matchId } = await store.create({ preset: 'scopa', seats: [{ player: p }, { player: q }], createdBy: p, settings: { rated: true } });
    await store.execute(matchId, { type: 'start', player: p }, { actor: p });
    for (let n = 0; n < 2; n++) {
      const { state } = await store.current(matchId);
      const who = state.seats[state.turn].player!;
      const play = legalPlayCodesInView(seatView(state, state.turn))[0];
      await store.execute(matchId, { type: 'play', player: who, card: play.card, capture: play.capture }, { actor: who });
    }
    await store.execute(matchId, { type: 'resign', player: loser }, { actor: loser });
    return matchId;
  }

  it('rates each match once, loses no update, and rebuilds the same numbers', async () => {
    const store = new MatchStore(a.prisma);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await resigned(store, 'ann', 'bob', i % 3 === 0 ? 'ann' : 'bob'));
    ids.push(await resigned(store, 'ann', 'cat', 'cat'));
    ids.push(await resigned(store, 'bob', 'cat', 'bob'));

    const ratingsA = new RatingStore(a.prisma, { periodMs: PERIOD_MS });
    const ratingsB = new RatingStore(b.prisma, { periodMs: PERIOD_MS });
    // Every match on both instances at once, all matches together: the same rows are fought over.
    const outcomes = await Promise.all(ids.flatMap((id) => [ratingsA.record(id), ratingsB.record(id)]));
    for (let i = 0; i < ids.length; i++) expect([outcomes[2 * i], outcomes[2 * i + 1]].sort()).toEqual(['already recorded', 'rated']);

    const rows = await a.prisma.rating.findMany({ orderBy: { player: 'asc' } });
    expect(rows.map((r) => [r.player, r.games, r.wins, r.losses])).toEqual([
      ['ann', 7, 5, 2],
      ['bob', 7, 2, 5],
      ['cat', 2, 1, 1],
    ]);
    expect(await a.prisma.ratingChange.count()).toBe(2 * ids.length);

    // The order they were taken in may differ from the end order; the rebuild takes them in end order, twice alike.
    await ratingsA.rebuild();
    const first = await a.prisma.rating.findMany({ orderBy: { player: 'asc' } });
    expect(first.map((r) => r.games)).toEqual([7, 7, 2]);
    await ratingsB.rebuild();
    expect(await b.prisma.rating.findMany({ orderBy: { player: 'asc' } })).toEqual(first);
    // And one after the other in end order gives those numbers too.
    await a.prisma.$transaction([a.prisma.ratingChange.deleteMany(), a.prisma.ratedMatch.deleteMany(), a.prisma.rating.deleteMany()]);
    for (const id of ids) expect(await ratingsA.record(id)).toBe('rated');
    expect(await a.prisma.rating.findMany({ orderBy: { player: 'asc' } })).toEqual(first);
  });
});
