/**
 * decisionCount (what ANALYSIS_MAX_DECISIONS bounds, counted at request time) is the number of decisions the
 * analysis evaluates: without hand declarations counted from the plays alone, with them by the replay.
 */
import { cardCode } from '../engine/cards';
import { greedyMove, mulberry32, randomPlay } from '../engine/bots/index';
import { apply, startedMatch } from '../engine/testing';
import type { Driven } from '../engine/testing';
import { seatView } from '../engine/views';
import { decisionCount, decisionPoints } from './analyzer';
import type { LoggedEvent } from './analyzer';

function playedMatch(preset: string, overrides: Record<string, unknown>, seedByte: number): LoggedEvent[] {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 41 + seedByte) & 0xff);
  const d: Driven = startedMatch(seed, preset, overrides);
  const rng = mulberry32(seedByte);
  while (d.state.phase === 'playing') {
    const seat = d.state.turn;
    const player = d.state.seats[seat].player!;
    const view = seatView(d.state, seat);
    const move = greedyMove(view);
    if (move.type === 'declare' && rng() < 0.5) {
      apply(d, move.mattaValue === null ? { type: 'declareHand', player } : { type: 'declareHand', player, mattaValue: move.mattaValue });
      continue;
    }
    const play = rng() < 0.2 || move.type === 'declare' ? randomPlay(view, rng) : move.play;
    apply(d, { type: 'play', player, card: cardCode(play.card), capture: play.capture.map(cardCode) });
  }
  return d.events.map((event, i) => ({ seq: i + 1, event }));
}

describe('decisionCount', () => {
  it.each([
    ['scopa', { target: 11 }, 3],
    ['scopa-fr', { players: 6, target: 11 }, 5],
    ['cirulla', { target: 11 }, 7],
    ['acchiappaquindici', { target: 11 }, 9],
  ] as const)('%s %j: the decisions the analysis evaluates', (preset, overrides, seedByte) => {
    const events = playedMatch(preset, overrides, seedByte);
    const plays = events.filter((e) => e.event.type === 'CardPlayed').length;
    const n = decisionCount(events);
    expect(n).toBe(decisionPoints(events).length);
    expect(n).toBeGreaterThanOrEqual(plays);
    if (preset === 'cirulla' || preset === 'acchiappaquindici') expect(n).toBeGreaterThan(plays); // declaration windows count too
    else expect(n).toBe(plays);
  });

  it('refuses an unfinished log as the analysis does', () => {
    const events = playedMatch('scopa', { target: 1 }, 11).slice(0, -1);
    expect(() => decisionCount(events)).toThrow(RangeError);
  });
});
