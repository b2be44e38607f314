/**
 * The rating arithmetic: Glicko-2 (Glickman, "Example of the Glicko-2
 * system") through the `glicko2` package, with the service's parameters.
 * Pure: no clock, no I/O; time comes in as data, so a rebuild from the logs
 * repeats every number.
 */
import glicko2 from 'glicko2';

export const GLICKO = {
  rating: 1500,
  rd: 350,
  volatility: 0.06,
  tau: 0.5,
  /** RD never grows past the RD of a new player. */
  maxRd: 350,
  /** A rating whose RD is above this is provisional. */
  provisionalRd: 110,
} as const;

export interface Rating {
  rating: number;
  rd: number;
  volatility: number;
}

export const INITIAL_RATING: Rating = { rating: GLICKO.rating, rd: GLICKO.rd, volatility: GLICKO.volatility };

export function isProvisional(r: Pick<Rating, 'rd'>): boolean {
  return r.rd > GLICKO.provisionalRd;
}

function system(): InstanceType<typeof glicko2.Glicko2> {
  return new glicko2.Glicko2({ tau: GLICKO.tau, rating: GLICKO.rating, rd: GLICKO.rd, vol: GLICKO.volatility });
}

/**
 * Glicko-2's no-game step (RD grows with the volatility) once per whole rating
 * period between `from` and `to`, capped at 350.
 */
export function afterInactivity(r: Rating, from: Date | null, to: Date, periodMs: number): Rating {
  if (!from || !(periodMs > 0)) return r;
  let periods = Math.floor((to.getTime() - from.getTime()) / periodMs);
  if (periods <= 0) return r;
  const player = system().makePlayer(r.rating, r.rd, r.volatility);
  // Each step adds σ² to φ²: once at the cap, further steps change nothing.
  while (periods-- > 0 && player.getRd() < GLICKO.maxRd) player.update_rank();
  return { rating: r.rating, rd: Math.min(player.getRd(), GLICKO.maxRd), volatility: r.volatility };
}

/** One game of a rating period: player `a` against player `b`, scoring 1, 0.5 or 0 for `a`. */
export interface Game {
  a: string;
  b: string;
  score: number;
}

/**
 * One rating period for every player named: all their games rated at once
 * against the opponents' ratings from before the period. Returns the new
 * ratings of the players who played a game.
 */
export function ratePeriod(before: ReadonlyMap<string, Rating>, games: readonly Game[]): Map<string, Rating> {
  const g = system();
  const players = new Map<string, ReturnType<typeof g.makePlayer>>();
  const player = (id: string) => {
    let p = players.get(id);
    if (!p) {
      const r = before.get(id) ?? INITIAL_RATING;
      p = g.makePlayer(r.rating, r.rd, r.volatility);
      players.set(id, p);
    }
    return p;
  };
  for (const game of games) {
    if (game.a === game.b) continue;
    if (game.score !== 0 && game.score !== 0.5 && game.score !== 1) throw new Error(`a game scores 0, 0.5 or 1, not ${game.score}`);
    g.addResult(player(game.a), player(game.b), game.score);
  }
  g.updateRatings();
  const after = new Map<string, Rating>();
  for (const [id, p] of players) after.set(id, { rating: p.getRating(), rd: p.getRd(), volatility: p.getVol() });
  return after;
}
