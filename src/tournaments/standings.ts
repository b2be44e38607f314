/**
 * Standings: pure, from the games and byes of the log (docs/tournaments.md
 * "Standings").
 *
 * - match points: win 1, draw 0.5, loss 0, bye 1 (a forfeit is a win for the
 *   one who did not forfeit);
 * - Buchholz: the sum of the current match points of every opponent met
 *   (forfeits included; a bye adds nothing);
 * - Sonneborn-Berger: the sum of the match points of the opponents beaten,
 *   plus half those of the opponents drawn;
 * - game points difference: Scopa points scored minus conceded, over the
 *   games played at the table (a forfeit without a match counts 0 to 0);
 * - duplicate score (duplicate events): for each round, the player's game
 *   points difference minus the average difference of everyone who held the
 *   same seat's cards that round (every table of a round deals the same
 *   cards, so seat s at one table held what seat s held at all the others);
 * - performance rating (rated events): the average rating of the opponents
 *   met at a table plus 400 × (wins − losses) / games (the "algorithm of
 *   400"), null before a game.
 * Order: match points, then (duplicate events) the duplicate score, then
 * Buchholz, Sonneborn-Berger, game points difference, and last join order.
 */

export type GameOutcome = 'first' | 'second' | 'draw';

export interface GameRecord {
  round: number;
  /** [first seat, second seat] */
  players: [string, string];
  outcome: GameOutcome;
  /** Game points per seat. */
  points: [number, number];
  /** Decided without play at the table (a withdrawal): no game points, no duplicate comparison, no rating. */
  forfeit: boolean;
}

export interface ByeRecord {
  round: number;
  player: string;
}

export interface StandingsInput {
  /** Players in join order. */
  players: readonly { id: string; rating: number | null; withdrawn: boolean }[];
  games: readonly GameRecord[];
  byes: readonly ByeRecord[];
  duplicate: boolean;
  rated: boolean;
}

export interface StandingRow {
  rank: number;
  player: string;
  matchPoints: number;
  wins: number;
  draws: number;
  losses: number;
  byes: number;
  played: number;
  buchholz: number;
  sonnebornBerger: number;
  gamePointsDifference: number;
  /** Duplicate events only, else null. */
  duplicateScore: number | null;
  /** Rated events only (null before a game at a table), else null. */
  performance: number | null;
  withdrawn: boolean;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function computeStandings(input: StandingsInput): StandingRow[] {
  const idx = new Map(input.players.map((p, i) => [p.id, i]));
  const mp = new Array<number>(input.players.length).fill(0);
  const rows = input.players.map((p) => ({
    id: p.id,
    wins: 0,
    draws: 0,
    losses: 0,
    byes: 0,
    played: 0,
    gpd: 0,
    dup: 0,
    oppRatings: [] as number[],
    perf: 0,
    results: [] as { opp: number; score: number }[],
  }));
  for (const b of input.byes) {
    const i = idx.get(b.player);
    if (i === undefined) continue;
    mp[i] += 1;
    rows[i].byes++;
  }
  for (const g of input.games) {
    const a = idx.get(g.players[0])!;
    const b = idx.get(g.players[1])!;
    const [sa, sb] = g.outcome === 'first' ? [1, 0] : g.outcome === 'second' ? [0, 1] : [0.5, 0.5];
    mp[a] += sa;
    mp[b] += sb;
    for (const [me, opp, s, mine, theirs] of [
      [a, b, sa, g.points[0], g.points[1]],
      [b, a, sb, g.points[1], g.points[0]],
    ] as const) {
      const r = rows[me];
      r.played++;
      if (s === 1) r.wins++;
      else if (s === 0) r.losses++;
      else r.draws++;
      r.results.push({ opp, score: s });
      if (!g.forfeit) {
        r.gpd += mine - theirs;
        const rating = input.players[opp].rating;
        if (rating !== null) {
          r.oppRatings.push(rating);
          r.perf += s === 1 ? 1 : s === 0 ? -1 : 0;
        }
      }
    }
  }
  if (input.duplicate) {
    // per round and seat: the average difference of everyone who held that seat's cards
    const bySeat = new Map<string, number[]>();
    for (const g of input.games) {
      if (g.forfeit) continue;
      for (const s of [0, 1] as const) {
        const key = `${g.round}:${s}`;
        const diffs = bySeat.get(key) ?? [];
        diffs.push(g.points[s] - g.points[1 - s]);
        bySeat.set(key, diffs);
      }
    }
    for (const g of input.games) {
      if (g.forfeit) continue;
      for (const s of [0, 1] as const) {
        const diffs = bySeat.get(`${g.round}:${s}`)!;
        const avg = diffs.reduce((x, y) => x + y, 0) / diffs.length;
        rows[idx.get(g.players[s])!].dup += g.points[s] - g.points[1 - s] - avg;
      }
    }
  }
  const out = rows.map((r, i) => {
    const buchholz = r.results.reduce((sum, x) => sum + mp[x.opp], 0);
    const sb = r.results.reduce((sum, x) => sum + x.score * mp[x.opp], 0);
    const rated = input.rated && r.oppRatings.length > 0;
    return {
      order: i,
      row: {
        rank: 0,
        player: r.id,
        matchPoints: mp[i],
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        byes: r.byes,
        played: r.played,
        buchholz,
        sonnebornBerger: sb,
        gamePointsDifference: r.gpd,
        duplicateScore: input.duplicate ? round3(r.dup) : null,
        performance: rated ? Math.round(r.oppRatings.reduce((x, y) => x + y, 0) / r.oppRatings.length + (400 * r.perf) / r.oppRatings.length) : null,
        withdrawn: input.players[i].withdrawn,
      } satisfies StandingRow,
    };
  });
  out.sort(
    (x, y) =>
      y.row.matchPoints - x.row.matchPoints ||
      (y.row.duplicateScore ?? 0) - (x.row.duplicateScore ?? 0) ||
      y.row.buchholz - x.row.buchholz ||
      y.row.sonnebornBerger - x.row.sonnebornBerger ||
      y.row.gamePointsDifference - x.row.gamePointsDifference ||
      x.order - y.order,
  );
  return out.map((x, i) => ({ ...x.row, rank: i + 1 }));
}
