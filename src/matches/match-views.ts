/**
 * Who sees what of a match: the one place that chooses between a seat's
 * view, a spectator's and the reveal (the engine builds each; this picks).
 * A seated viewer sees its seat, anyone else the spectator view, everybody
 * everything once the match is over. Pure: no Nest, no I/O.
 */
import { cardCodes, revealView, seatOf, spectatorView, seatView, toHex } from '../engine';
import type { MatchState, MatchView } from '../engine';

/** The whole state, seed included: only for a match that is over. */
export interface FullView extends MatchView {
  seed: string;
  hands: string[][];
  deck: string[];
  captured: string[][];
}

/** What `viewer` (a player id; null: nobody seated) may see of a state: [view, reveal]. */
export function viewsFor(viewer: string | null, state: MatchState): [MatchView, FullView | null] {
  if (state.phase === 'over') {
    const full = fullView(state, false);
    return [full, full];
  }
  const seat = viewer === null ? -1 : seatOf(state, viewer);
  return [seat >= 0 ? seatView(state, seat) : spectatorView(state), null];
}

/**
 * A replay at an earlier seq: everything (the hands at that seq) once the
 * match is over, else only what a spectator saw at that seq, whoever asks.
 */
export function replayViews(state: MatchState, over: boolean): [MatchView, FullView | null] {
  if (!over) return [spectatorView(state), null];
  const full = fullView(state, true);
  return [full, full];
}

/** Everything: for a finished match only (the callers check). At an earlier seq of a finished match, the hands at that seq. */
function fullView(state: MatchState, replaying: boolean): FullView {
  const revealed = state.phase === 'over' ? revealView(state) : null;
  if (revealed && !replaying) return revealed;
  return {
    ...spectatorView(state),
    seed: state.seed ? toHex(state.seed) : '',
    hands: state.hands.map((h) => cardCodes(h)),
    deck: state.deck ? cardCodes(Array.from(state.deck.subarray(state.deckPos))) : [],
    captured: state.captured.map((pile) => cardCodes(pile)),
  };
}

/** A view is copied field by field: whatever the engine adds to its types, only these leave. */
export function stripSecrets(view: MatchView): MatchView {
  return {
    viewer: view.viewer,
    phase: view.phase,
    rulesVersion: view.rulesVersion,
    preset: view.preset,
    options: view.options,
    settings: view.settings,
    seedCommitment: view.seedCommitment,
    clientSeeds: view.clientSeeds,
    round: view.round,
    dealer: view.dealer,
    turn: view.turn,
    lastCapturer: view.lastCapturer,
    hand: view.hand,
    table: view.table,
    // Public: a declared matta's value, until the round ends.
    captureValues: { ...(view.captureValues ?? {}) },
    deckSize: view.deckSize,
    // A seat's declared cards are public; its hand is only its size.
    seats: view.seats.map((s) => ({
      seat: s.seat,
      side: s.side,
      player: s.player,
      reservedFor: s.reservedFor,
      bot: s.bot,
      handSize: s.handSize,
      declared: s.declared ?? [],
      clock: { paused: s.clock?.paused ?? false },
    })),
    sides: view.sides,
    rounds: view.rounds,
    result: view.result,
  };
}
