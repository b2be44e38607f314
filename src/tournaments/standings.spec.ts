import fc from 'fast-check';
import { computeStandings } from './standings';
import type { ByeRecord, GameRecord, StandingsInput } from './standings';

/**
 * The reference: the definitions of docs/tournaments.md "Standings" written
 * out game by game, player by player, with no shared code.
 */
function reference(input: StandingsInput) {
  const ids = input.players.map((p) => p.id);
  const points = (id: string): number => {
    let s = input.byes.filter((b) => b.player === id).length;
    for (const g of input.games) {
      if (g.players[0] === id) s += g.outcome === 'first' ? 1 : g.outcome === 'draw' ? 0.5 : 0;
      if (g.players[1] === id) s += g.outcome === 'second' ? 1 : g.outcome === 'draw' ? 0.5 : 0;
    }
    return s;
  };
  const rows = ids.map((id, order) => {
    let buchholz = 0;
    let sb = 0;
    let gpd = 0;
    let dup = 0;
    const oppRatings: number[] = [];
    let wl = 0;
    for (const g of input.games) {
      const seat = g.players.indexOf(id);
      if (seat < 0) continue;
      const opp = g.players[1 - seat];
      const mine = seat === 0 ? 'first' : 'second';
      const score = g.outcome === mine ? 1 : g.outcome === 'draw' ? 0.5 : 0;
      buchholz += points(opp);
      sb += score * points(opp);
      if (!g.forfeit) {
        const diff = g.points[seat] - g.points[1 - seat];
        gpd += diff;
        const same = input.games.filter((h) => h.round === g.round && !h.forfeit);
        const avg = same.reduce((x, h) => x + (h.points[seat] - h.points[1 - seat]), 0) / same.length;
        dup += diff - avg;
        const r = input.players.find((p) => p.id === opp)!.rating;
        if (r !== null) {
          oppRatings.push(r);
          wl += score === 1 ? 1 : score === 0 ? -1 : 0;
        }
      }
    }
    const perf =
      input.rated && oppRatings.length ? Math.round(oppRatings.reduce((a, b) => a + b, 0) / oppRatings.length + (400 * wl) / oppRatings.length) : null;
    return {
      player: id,
      order,
      matchPoints: points(id),
      buchholz,
      sonnebornBerger: sb,
      gamePointsDifference: gpd,
      duplicateScore: input.duplicate ? Math.round(dup * 1000) / 1000 : null,
      performance: perf,
    };
  });
  const key = (r: (typeof rows)[number]) => [r.matchPoints, r.duplicateScore ?? 0, r.buchholz, r.sonnebornBerger, r.gamePointsDifference, -r.order];
  rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return 0;
  });
  return rows.map(({ order: _o, ...r }, i) => ({ rank: i + 1, ...r }));
}

/** A random event: rounds of distinct pairs among n players, one bye for odd n, random results. */
const events = fc
  .record({
    n: fc.integer({ min: 2, max: 10 }),
    rounds: fc.integer({ min: 1, max: 4 }),
    seedOrder: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
    results: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 16 }), fc.boolean()), {
      minLength: 40,
      maxLength: 40,
    }),
    duplicate: fc.boolean(),
    rated: fc.boolean(),
  })
  .map(({ n, rounds, seedOrder, results, duplicate, rated }) => {
    const players = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, rating: rated ? 1200 + ((seedOrder[i] * 37) % 600) : null, withdrawn: false }));
    const games: GameRecord[] = [];
    const byes: ByeRecord[] = [];
    let k = 0;
    for (let round = 1; round <= rounds; round++) {
      const order = [...players].sort(
        (a, b) => (seedOrder[(Number(a.id.slice(1)) + round) % 40] % 97) - (seedOrder[(Number(b.id.slice(1)) + round) % 40] % 97) || (a.id < b.id ? -1 : 1),
      );
      if (order.length % 2) byes.push({ round, player: order.pop()!.id });
      for (let i = 0; i < order.length; i += 2) {
        const [o, a, b, forfeit] = results[k++ % results.length];
        games.push({
          round,
          players: [order[i].id, order[i + 1].id],
          outcome: o === 0 ? 'first' : o === 1 ? 'second' : 'draw',
          points: forfeit ? [0, 0] : [a, b],
          forfeit,
        });
      }
    }
    return { players, games, byes, duplicate, rated } satisfies StandingsInput;
  });

describe('standings', () => {
  it('equal the reference computation (property)', () => {
    fc.assert(
      fc.property(events, (input) => {
        const got = computeStandings(input).map((r) => ({
          rank: r.rank,
          player: r.player,
          matchPoints: r.matchPoints,
          buchholz: r.buchholz,
          sonnebornBerger: r.sonnebornBerger,
          gamePointsDifference: r.gamePointsDifference,
          duplicateScore: r.duplicateScore,
          performance: r.performance,
        }));
        expect(got).toEqual(reference(input));
      }),
      { numRuns: 300 },
    );
  });

  it('counts a bye as a win and orders by match points, then Buchholz, Sonneborn-Berger, game points', () => {
    const rows = computeStandings({
      players: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, rating: null, withdrawn: false })),
      games: [
        { round: 1, players: ['a', 'b'], outcome: 'first', points: [11, 5], forfeit: false },
        { round: 1, players: ['c', 'd'], outcome: 'draw', points: [8, 8], forfeit: false },
        { round: 2, players: ['e', 'a'], outcome: 'second', points: [3, 11], forfeit: false },
        { round: 2, players: ['b', 'c'], outcome: 'first', points: [11, 2], forfeit: false },
      ],
      byes: [
        { round: 1, player: 'e' },
        { round: 2, player: 'd' },
      ],
      duplicate: false,
      rated: false,
    });
    expect(rows.map((r) => [r.player, r.matchPoints, r.buchholz, r.sonnebornBerger, r.gamePointsDifference])).toEqual([
      ['a', 2, 2, 2, 14],
      ['d', 1.5, 0.5, 0.25, 0],
      ['b', 1, 2.5, 0.5, 3],
      ['e', 1, 2, 0, -8],
      ['c', 0.5, 2.5, 0.75, -9],
    ]);
  });

  it('puts the duplicate score right after match points in duplicate events', () => {
    const rows = computeStandings({
      players: ['a', 'b', 'c', 'd'].map((id) => ({ id, rating: null, withdrawn: false })),
      games: [
        // same cards at both tables: seat 0 won by 6 at table 1, by 2 at table 2
        { round: 1, players: ['a', 'b'], outcome: 'first', points: [11, 5], forfeit: false },
        { round: 1, players: ['c', 'd'], outcome: 'first', points: [11, 9], forfeit: false },
      ],
      byes: [],
      duplicate: true,
      rated: false,
    });
    expect(rows.map((r) => [r.player, r.duplicateScore])).toEqual([
      ['a', 2],
      ['c', -2],
      ['d', 2],
      ['b', -2],
    ]);
  });
});
