import fc from 'fast-check';
import { DECK_SIZE, cardCode, cardCodes } from '../cards';
import type { Card } from '../cards';
import { mattaCard } from '../bonuses';
import { captureValuesOf, decide, evolve } from '../decider';
import { PRESETS, PRESET_IDS, hasDeclarations } from '../options';
import { legalPlaysOf } from '../plays';
import { playRandomly, seedFrom, startedMatch } from '../testing';
import type { MatchEvent, MatchState } from '../types';
import { declarationsInView, seatView } from '../views';
import { applyDeclaration, applyPlay, legalDeclarations, legalPlays } from './round-simulator';
import type { Sim } from './round-simulator';
import { mulberry32 } from './rng';

// The determinized search (the ismcts bot's and the analyzer's) runs on its own
// fast round simulator (./round-simulator.ts); this holds it to
// the rules: from seeded states of every preset, the same plays through the
// simulator and through decide/evolve leave the same hands, table, captures,
// scope and turn, up to the round's end. Hand declarations (cirulla) too: the
// same declarations are open to both, and they score the same.

const CONFIGS = PRESET_IDS.flatMap((preset) => PRESETS[preset].players.map((players) => ({ preset, overrides: { players } as Record<string, unknown> })));

/** The simulator's round for a real state, every card known; its deck pops in the order the engine deals. */
function simOf(state: MatchState): Sim {
  const options = state.options!;
  const { players, handSize, tableSize } = options;
  const perDeal = players * handSize;
  if (state.deckPos !== tableSize + state.deal * perDeal) throw new Error('deck position and deal disagree');
  const pops: Card[] = [];
  for (let deal = state.deal; tableSize + deal * perDeal < DECK_SIZE; deal++) {
    for (let seat = 0; seat < players; seat++) {
      const position = (seat - state.dealer - 1 + 2 * players) % players;
      for (let k = 0; k < handSize; k++) pops.push(state.deck![tableSize + deal * perDeal + position * handSize + k]);
    }
  }
  return {
    options,
    players,
    hands: state.hands.map((h) => h.slice()),
    table: state.table.slice(),
    deck: pops.reverse(),
    captured: state.captured.map((p) => p.slice()),
    scope: state.scope.slice(),
    lastCapturer: state.lastCapturer ?? -1,
    turn: state.turn,
    cardsInHands: state.hands.reduce((n, h) => n + h.length, 0),
    over: false,
    values: captureValuesOf(state),
    matta: mattaCard(options),
    declarable: hasDeclarations(options),
    declared: state.declared.map((d, seat) => d.length > 0 && state.hands[seat].length === handSize),
  };
}

const sorted = (cards: readonly Card[]) => cardCodes([...cards].sort((a, b) => a - b));

/** What both must agree on; a finished round has no turn (the engine's -1, the simulator's `over`). */
function observed(
  s: {
    hands: readonly (readonly Card[])[];
    table: readonly Card[];
    captured: readonly (readonly Card[])[];
    scope: readonly number[];
    turn: number;
    lastCapturer: number;
  },
  over: boolean,
) {
  return {
    hands: s.hands.map(sorted),
    table: sorted(s.table),
    captured: s.captured.map(sorted),
    scope: s.scope.slice(),
    lastCapturer: s.lastCapturer,
    turn: over ? -1 : s.turn,
  };
}

/** The engine's side of one play: its events up to the round's end (what follows, scoring and the next deal, the simulator does not model). */
function engineStep(state: MatchState, card: Card, capture: readonly Card[]): { state: MatchState; events: MatchEvent[]; roundOver: boolean } {
  const d = decide({ type: 'play', player: state.seats[state.turn].player!, card: cardCode(card), capture: cardCodes(capture) }, state);
  if (!d.ok) throw new Error(`refused: ${d.rejection.message}`);
  let next = state;
  const events: MatchEvent[] = [];
  for (const e of d.events) {
    next = evolve(next, e);
    events.push(e);
    if (e.type === 'RoundEnded') return { state: next, events, roundOver: true };
  }
  return { state: next, events, roundOver: false };
}

describe('the ismcts round simulator', () => {
  it('agrees with decide/evolve on every play to the end of the round', () => {
    let declarations = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...CONFIGS),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 80 }),
        ({ preset, overrides }, n, before) => {
          const rng = mulberry32(n);
          const driven = startedMatch(seedFrom(rng), preset, overrides);
          for (let i = 0; i < before && driven.state.phase === 'playing'; i++) playRandomly(driven, rng);
          if (driven.state.phase !== 'playing') return;
          let state = driven.state;
          const sim = simOf(state);
          const round = state.round;
          for (;;) {
            const open = declarationsInView(seatView(state, state.turn));
            expect(legalDeclarations(sim)).toEqual(open);
            if (open.length > 0 && rng() < 0.5) {
              const d = open[Math.floor(rng() * open.length)];
              const declared = decide({ type: 'declareHand', player: state.seats[state.turn].player!, mattaValue: d.mattaValue }, state);
              if (!declared.ok) throw new Error(`refused: ${declared.rejection.message}`);
              for (const e of declared.events) state = evolve(state, e);
              applyDeclaration(sim, d);
              declarations++;
              expect(observed(sim, false)).toEqual(observed({ ...state, lastCapturer: state.lastCapturer ?? -1 }, false));
              expect(legalDeclarations(sim)).toEqual([]);
            }
            const lastPlay = state.deckPos === DECK_SIZE && state.hands.reduce((k, h) => k + h.length, 0) === 1;
            const engineLegal = legalPlaysOf(state.options!, state.hands[state.turn], state.table, lastPlay, captureValuesOf(state));
            const simLegal = legalPlays(sim);
            expect(simLegal.map((p) => [p.card, sorted(p.capture), p.scopa])).toEqual(engineLegal.map((p) => [p.card, sorted(p.capture), p.scopa]));
            const play = simLegal[Math.floor(rng() * simLegal.length)];
            const step = engineStep(state, play.card, play.capture);
            applyPlay(sim, play);
            const played = step.events[0] as Extract<MatchEvent, { type: 'CardPlayed' }>;
            expect(played.scopa).toBe(play.scopa);
            state = step.state;
            expect(sim.over).toBe(step.roundOver);
            expect(observed(sim, sim.over)).toEqual(observed({ ...state, lastCapturer: state.lastCapturer ?? -1 }, step.roundOver));
            if (step.roundOver) break;
            expect(state.round).toBe(round);
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(declarations).toBeGreaterThan(0); // the cirulla runs declared some hands
  });
});
