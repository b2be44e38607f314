/**
 * Glicko-2 written out from Glickman's "Example of the Glicko-2 system"
 * (2013), steps 1 to 8, for the tests to check the service's ratings against
 * an independent computation: it imports nothing of src/ (not src/ratings, nor
 * the `glicko2` package it uses). The service's parameters are restated here
 * (docs/ratings.md): start 1500, RD 350, volatility 0.06, tau 0.5; each rated
 * match is one rating period for each of its players, rated from the ratings
 * before it; RD grows by the no-game step once per whole rating period since a
 * player's last rated match, never past 350.
 */

export interface RefRating {
  rating: number;
  rd: number;
  volatility: number;
}

export const REF_PARAMS = { rating: 1500, rd: 350, volatility: 0.06, tau: 0.5, maxRd: 350 } as const;

/** The paper's conversion factor between the Glicko scale and the Glicko-2 scale (step 2). */
const SCALE = 173.7178;
/** The convergence tolerance of step 5 (the paper's ε). */
const EPSILON = 0.000001;

const g = (phi: number): number => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/** One opponent of a rating period: their rating before the period, and the score against them (1, 0.5, 0). */
export interface RefGame {
  opponent: RefRating;
  score: number;
}

/** Step 6 alone: a period without games (φ* = √(φ² + σ²)). */
export function noGameStep(r: RefRating): RefRating {
  const phi = r.rd / SCALE;
  return { rating: r.rating, rd: Math.sqrt(phi * phi + r.volatility * r.volatility) * SCALE, volatility: r.volatility };
}

/** Steps 2 to 8: a player's rating after one rating period of `games`. */
export function ratePeriodRef(player: RefRating, games: readonly RefGame[], tau: number = REF_PARAMS.tau): RefRating {
  if (games.length === 0) return noGameStep(player);
  // Step 2
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;
  const opp = games.map((x) => ({ mu: (x.opponent.rating - 1500) / SCALE, phi: x.opponent.rd / SCALE, s: x.score }));
  // Step 3: the estimated variance v
  let inv = 0;
  for (const o of opp) {
    const e = expected(mu, o.mu, o.phi);
    inv += g(o.phi) ** 2 * e * (1 - e);
  }
  const v = 1 / inv;
  // Step 4: the estimated improvement Δ
  let sum = 0;
  for (const o of opp) sum += g(o.phi) * (o.s - expected(mu, o.mu, o.phi));
  const delta = v * sum;
  // Step 5: the new volatility σ', by the Illinois algorithm
  const a = Math.log(sigma * sigma);
  const f = (x: number): number => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA = fA / 2;
    }
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Step 6
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  // Step 7
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  // Step 8
  return { rating: SCALE * muNew + 1500, rd: SCALE * phiNew, volatility: sigmaNew };
}

/** A finished rated match as the ratings take it: its pool, when it ended, and its players' ranks (1 = best). */
export interface RefMatch {
  id: string;
  pool: string;
  endedAt: Date;
  /** Player → side; players of one side play no game against each other. */
  sides: ReadonlyMap<string, number>;
  /** Side → rank (1 = best; equal ranks draw). */
  ranks: ReadonlyMap<number, number>;
}

export interface RefPlayerState extends RefRating {
  games: number;
  lastRatedAt: Date | null;
}

/**
 * Every pool's ratings after `matches`, applied once each in the order given:
 * per match, each player's RD first grows for the whole rating periods since
 * their last rated match (capped), then every player is rated at once against
 * the others' ratings from before the match. Keyed `${pool}\u0000${player}`.
 */
export function replayRatings(matches: readonly RefMatch[], ratingPeriodMs: number): Map<string, RefPlayerState> {
  const state = new Map<string, RefPlayerState>();
  const key = (pool: string, player: string) => `${pool}\u0000${player}`;
  for (const m of matches) {
    const before = new Map<string, RefRating>();
    for (const player of m.sides.keys()) {
      const s = state.get(key(m.pool, player)) ?? { ...REF_PARAMS, games: 0, lastRatedAt: null };
      let r: RefRating = { rating: s.rating, rd: s.rd, volatility: s.volatility };
      if (s.lastRatedAt && ratingPeriodMs > 0) {
        let periods = Math.floor((m.endedAt.getTime() - s.lastRatedAt.getTime()) / ratingPeriodMs);
        while (periods-- > 0 && r.rd < REF_PARAMS.maxRd) r = noGameStep(r);
        r = { ...r, rd: Math.min(r.rd, REF_PARAMS.maxRd) };
      }
      before.set(player, r);
    }
    for (const [player, side] of m.sides) {
      const games: RefGame[] = [];
      for (const [other, otherSide] of m.sides) {
        if (other === player || otherSide === side) continue;
        const mine = m.ranks.get(side)!;
        const theirs = m.ranks.get(otherSide)!;
        games.push({ opponent: before.get(other)!, score: mine < theirs ? 1 : mine > theirs ? 0 : 0.5 });
      }
      if (games.length === 0) continue;
      const after = ratePeriodRef(before.get(player)!, games);
      const prev = state.get(key(m.pool, player));
      state.set(key(m.pool, player), { ...after, games: (prev?.games ?? 0) + 1, lastRatedAt: m.endedAt });
    }
  }
  return state;
}
