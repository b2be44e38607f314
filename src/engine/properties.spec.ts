import fc from 'fast-check';
import { DECK_SIZE, cardCode } from './cards';
import { captureValuesOf, decide, evolve, replay } from './decider';
import { legalPlaysOf } from './plays';
import { PRESETS, PRESET_IDS, sideCount } from './options';
import { mulberry32 } from './bots/rng';
import { moveRandomly, playRandomly, seedFrom, startedMatch } from './testing';
import type { MatchState } from './types';

/** Every preset with every player count it allows, teams on and off where allowed. */
const CONFIGS: { preset: string; overrides: Record<string, unknown> }[] = PRESET_IDS.flatMap((id) =>
  PRESETS[id].players.flatMap((players) => {
    const teamsChoices = players === 4 ? (id.startsWith('scopone') ? [true] : [false, true]) : [false];
    return teamsChoices.map((teams) => ({ preset: id, overrides: { players, teams } }));
  }),
);

/** A plain check: jest's expect is too slow for the thousands of checks of each match. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function assertConserved(state: MatchState): void {
  if (state.phase !== 'playing') return;
  const seen = new Set<number>();
  const add = (c: number) => {
    check(!seen.has(c), `card ${c} is in two places`);
    seen.add(c);
  };
  state.hands.forEach((hand) => hand.forEach(add));
  state.table.forEach(add);
  state.captured.forEach((pile) => pile.forEach(add));
  for (let i = state.deckPos; i < DECK_SIZE; i++) add(state.deck![i]);
  check(seen.size === DECK_SIZE, `${seen.size} cards instead of 40`);
}

describe.each(CONFIGS)('$preset with $overrides', ({ preset, overrides }) => {
  it('keeps its invariants over whole random matches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (n) => {
        const rng = mulberry32(n);
        const seed = seedFrom(rng);
        const driven = startedMatch(seed, preset, overrides);
        const options = driven.state.options!;
        let plays = 0;
        while (driven.state.phase === 'playing') {
          assertConserved(driven.state);
          const state = driven.state;
          const lastPlay = state.deckPos === DECK_SIZE && state.hands.reduce((n, h) => n + h.length, 0) === 1;
          const legal = legalPlaysOf(options, state.hands[state.turn], state.table, lastPlay, captureValuesOf(state));
          // the seat to move always has a legal play, and every legal play applies
          check(legal.length > 0, 'the seat to move has no legal play');
          for (const play of legal) {
            const d = decide({ type: 'play', player: state.seats[state.turn].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) }, state);
            check(d.ok, `legal play refused: ${JSON.stringify(d)}`);
          }
          const events = moveRandomly(driven, rng); // a declaration first, sometimes, where the ruleset has them
          plays++;
          const played = events.find((e) => e.type === 'CardPlayed')!;
          if (played.type === 'CardPlayed' && events.some((e) => e.type === 'RoundEnded')) check(!played.scopa, 'scopa on the last play');
          for (const e of events) {
            if (e.type !== 'RoundScored') continue;
            const b = e.breakdown;
            // One point per award, but the piccola (3 to 6) and the grande (5).
            const awards = Object.entries(b.awards);
            for (let side = 0; side < sideCount(options); side++) {
              const won = awards
                .filter(([, w]) => w === side)
                .reduce((n, [name]) => n + (name === 'piccola' ? b.piccolaPoints! : name === 'grande' ? 5 : 1), 0);
              check(b.points[side] === b.scope[side] + won + (b.denariBonus?.[side] ?? 0), `round points of side ${side} do not add up`);
            }
          }
          if (plays > 5000) throw new Error('match does not end');
        }
        const result = driven.state.result!;
        const scores = driven.state.scores;
        if (result.reason === 'points') {
          expect(result.winner).not.toBeNull();
          expect(scores[result.winner!]).toBeGreaterThanOrEqual(options.target);
          scores.forEach((s, side) => side !== result.winner && expect(scores[result.winner!]).toBeGreaterThan(s));
        }
        // the same seed and plays give the same state
        expect(replay(driven.events, seed)).toEqual(driven.state);
      }),
      { numRuns: 8 },
    );
  });
});

it('folds to the same state at every prefix as stepwise evolution', () => {
  const rng = mulberry32(7);
  const seed = seedFrom(rng);
  const driven = startedMatch(seed, 'scopa', {});
  const states: MatchState[] = [driven.state];
  while (driven.state.phase === 'playing') {
    playRandomly(driven, rng);
    states.push(driven.state);
  }
  let state = replay([], seed);
  for (const event of driven.events) state = evolve(state, event);
  expect(state).toEqual(driven.state);
});
