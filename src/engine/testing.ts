/** Helpers to drive whole matches in tests and benchmarks (pure, like the rest). */
import { cardCode } from './cards';
import { decide, evolve, initialState } from './decider';
import { greedyMove } from './bots/greedy';
import { randomPlay } from './bots/random';
import { declarationsInView } from './views';
import type { Rng } from './bots/rng';
import { resolveRuleset } from './options';
import { seedCommitment } from './shuffle';
import { seatView } from './views';
import type { Command, MatchEvent, MatchState, SeatSpec } from './types';

export interface Driven {
  state: MatchState;
  events: MatchEvent[];
}

/** Applies a command, throwing on a rejection (only for tests and benches, where a rejection is a bug). */
export function apply(driven: Driven, command: Command): MatchEvent[] {
  const decision = decide(command, driven.state);
  if (!decision.ok) throw new Error(`${decision.rejection.code}: ${decision.rejection.message}`);
  for (const event of decision.events) {
    driven.events.push(event);
    driven.state = evolve(driven.state, event);
  }
  return decision.events;
}

export interface StartOptions {
  /** Rules version to create under (default: the engine's RULES_VERSION). */
  rulesVersion?: string;
  /** Client seed (hex) per seat, given before the start; null or missing: none. */
  clientSeeds?: readonly (string | null)[];
}

/** A created and started match with players p0, p1, ... in its seats. */
export function startedMatch(seed: Uint8Array, preset: string, overrides: Record<string, unknown> = {}, players?: number, start: StartOptions = {}): Driven {
  const driven: Driven = { state: initialState(seed), events: [] };
  const resolved = resolveRuleset(preset, overrides);
  const count = players ?? (resolved.ok ? resolved.ruleset.options.players : 2);
  const seats: SeatSpec[] = Array.from({ length: count }, (_, i) => ({ player: `p${i}` }));
  const create: Command = { type: 'create', preset, overrides, seats, createdBy: 'p0', seedCommitment: seedCommitment(seed) };
  apply(driven, start.rulesVersion === undefined ? create : { ...create, rulesVersion: start.rulesVersion });
  (start.clientSeeds ?? []).forEach((clientSeed, seat) => {
    if (clientSeed !== null) apply(driven, { type: 'setClientSeed', player: `p${seat}`, clientSeed });
  });
  apply(driven, { type: 'start', player: 'p0' });
  return driven;
}

export function playRandomly(driven: Driven, rng: Rng): MatchEvent[] {
  const seat = driven.state.turn;
  const play = randomPlay(seatView(driven.state, seat), rng);
  return apply(driven, { type: 'play', player: driven.state.seats[seat].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) });
}

export function seedFrom(rng: Rng): Uint8Array {
  return Uint8Array.from({ length: 32 }, () => Math.floor(rng() * 256));
}

/**
 * Like playRandomly, but first declares the hand, at random among the open
 * declarations, half the time one is open (cirulla). Without an open
 * declaration it draws from the rng exactly as playRandomly does.
 */
export function moveRandomly(driven: Driven, rng: Rng): MatchEvent[] {
  const seat = driven.state.turn;
  const open = declarationsInView(seatView(driven.state, seat));
  if (open.length > 0 && rng() < 0.5) {
    const d = open[Math.floor(rng() * open.length)];
    const player = driven.state.seats[seat].player!;
    const events = apply(driven, d.mattaValue === null ? { type: 'declareHand', player } : { type: 'declareHand', player, mattaValue: d.mattaValue });
    return [...events, ...playRandomly(driven, rng)];
  }
  return playRandomly(driven, rng);
}

/**
 * Plays the match to its end by greedy seats that play at random a fifth of
 * the time and declare an open hand half the time (so an analysis finds
 * mistakes, and declarations); returns every event of the match, in order.
 */
export function playedWithMistakes(driven: Driven, rng: Rng): MatchEvent[] {
  while (driven.state.phase === 'playing') {
    const seat = driven.state.turn;
    const player = driven.state.seats[seat].player!;
    const view = seatView(driven.state, seat);
    const move = greedyMove(view);
    if (move.type === 'declare' && rng() < 0.5) {
      apply(driven, move.mattaValue === null ? { type: 'declareHand', player } : { type: 'declareHand', player, mattaValue: move.mattaValue });
      continue;
    }
    const play = rng() < 0.2 || move.type === 'declare' ? randomPlay(view, rng) : move.play;
    apply(driven, { type: 'play', player, card: cardCode(play.card), capture: play.capture.map(cardCode) });
  }
  return driven.events;
}
