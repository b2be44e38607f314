import { DECK_SIZE, cardCode, parseCard } from '../engine/cards';
import { decide, evolve, initialState } from '../engine/decider';
import { seedFromHex } from '../engine/shuffle';
import { mulberry32 } from '../engine/bots/index';
import { playedWithMistakes, startedMatch } from '../engine/testing';
import type { Command, MatchEvent, MatchState } from '../engine/types';
import { declarationsInView, legalPlaysInView, seatView } from '../engine/views';
import { accuracyOf, analyzeDecision, analyzeMatch, analyzeMatchSteps, analyzerInfo, classOf, decisionAt, decisionPoints } from './analyzer';
import type { AnalysisOption, LoggedEvent } from './analyzer';
import { isExactPosition } from './option-values';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
/** A small budget: these tests check what is exact, or differences of a point or more. */
const SMALL = analyzerInfo({ iterationsPerOption: 150, exploration: 2.5 });

/** A match played to its end by greedy seats that play at random a fifth of the time (so there are mistakes to find). */
function playedMatch(preset: string, overrides: Record<string, unknown>, seed = SEED): LoggedEvent[] {
  return playedWithMistakes(startedMatch(seed, preset, overrides), mulberry32(seed[0])).map((event, i) => ({ seq: i + 1, event }));
}

function stateBefore(events: readonly LoggedEvent[], seq: number): MatchState {
  const last = events[events.length - 1].event as Extract<MatchEvent, { type: 'MatchEnded' }>;
  return events.slice(0, seq - 1).reduce((s, { event }) => evolve(s, event), initialState(seedFromHex(last.seed)));
}

// ------------------------------------------------------------------ an exhaustive search written here, on the decider

/** Round point difference per side (own minus best other) at the round's end, every line tried, both hands known. */
function exhaustive(state: MatchState): number[] {
  const seat = state.turn;
  const player = state.seats[seat].player!;
  const side = seat % state.options!.players; // 2 players: a side per seat
  let best: number[] | null = null;
  for (const command of commandsOf(state, seat, player)) {
    const r = outcome(state, command);
    if (best === null || r[side] > best[side]) best = r;
  }
  return best!;
}

function commandsOf(state: MatchState, seat: number, player: string): Command[] {
  const view = seatView(state, seat);
  const out: Command[] = declarationsInView(view).map((d) => ({ type: 'declareHand', player, mattaValue: d.mattaValue }));
  for (const p of legalPlaysInView(view)) out.push({ type: 'play', player, card: cardCode(p.card), capture: p.capture.map(cardCode) });
  return out;
}

function outcome(state: MatchState, command: Command): number[] {
  const decision = decide(command, state);
  if (!decision.ok) throw new Error(decision.rejection.message);
  let next = state;
  for (const event of decision.events) {
    if (event.type === 'RoundScored') {
      const points = event.breakdown.points;
      return points.map((p, side) => p - Math.max(...points.filter((_, o) => o !== side)));
    }
    next = evolve(next, event);
  }
  return exhaustive(next);
}

/** The value of a chosen option by the exhaustive search: apply it, then every line. */
function exhaustiveValue(state: MatchState, option: AnalysisOption): number {
  const seat = state.turn;
  const player = state.seats[seat].player!;
  const side = seat;
  if (option.type === 'play') return outcome(state, { type: 'play', player, card: option.card, capture: option.capture })[side];
  if (option.type === 'declare') return outcome(state, { type: 'declareHand', player, mattaValue: option.mattaValue })[side];
  // No declaration: the seat plays at once (every play, none declared first).
  let best = -Infinity;
  for (const p of legalPlaysInView(seatView(state, seat)))
    best = Math.max(best, outcome(state, { type: 'play', player, card: cardCode(p.card), capture: p.capture.map(cardCode) })[side]);
  return best;
}

describe('the analyzer', () => {
  it.each([
    ['scopa', {}],
    ['cirulla', { target: 20 }],
  ])('values every option of a last-deal position of two players exactly as an exhaustive search over every line (%s)', (preset, overrides) => {
    const events = playedMatch(preset, overrides);
    const analysis = analyzeMatch('exact-test', events, SMALL);
    const exact = analysis.decisions.filter((d) => d.method === 'exact');
    expect(exact.length).toBeGreaterThan(10);
    if (preset === 'cirulla') expect(analysis.decisions.some((d) => d.kind === 'declaration')).toBe(true);
    for (const d of exact) {
      const state = stateBefore(events, d.seq);
      expect(isExactPosition(seatView(state, d.seat))).toBe(true);
      for (const { option, value } of d.options) expect([d.seq, option, value]).toEqual([d.seq, option, exhaustiveValue(state, option)]);
    }
    // Every other decision was searched (not every deal is the last).
    expect(analysis.decisions.filter((d) => d.method === 'search').length).toBeGreaterThan(exact.length);
  });

  it('finds every decision of the log: each play, each declaration window (declared or not), with the option played', () => {
    const events = playedMatch('cirulla', { target: 20 });
    const points = decisionPoints(events);
    const plays = events.filter((e) => e.event.type === 'CardPlayed').length;
    const declared = events.filter((e) => e.event.type === 'HandDeclared').length;
    expect(points.filter((p) => p.kind === 'play').length).toBe(plays);
    expect(points.filter((p) => p.kind === 'declaration' && p.played > 0).length).toBe(declared);
    expect(points.some((p) => p.kind === 'declaration' && p.played === 0)).toBe(true); // a window left unused
  });

  it('reproduces the same numbers for the same request, paused or not', () => {
    const events = playedMatch('scopa', { target: 1 });
    const whole = analyzeMatch('m', events, SMALL);
    expect(analyzeMatch('m', events, SMALL)).toEqual(whole);
    // Stepped as a worker runs it: progress between decisions and pauses inside their searches, the same result.
    const steps = analyzeMatchSteps('m', events, SMALL);
    const progress: { done: number; total: number }[] = [];
    let next = steps.next();
    for (; !next.done; next = steps.next()) progress.push(next.value);
    expect(next.value).toEqual(whole);
    expect(progress.length).toBeGreaterThan(whole.decisions.length + 1);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({ done: whole.decisions.length, total: whole.decisions.length });
  });

  // A position built by hand: the started match's state with these piles (the rest is the deck, or the captures when `deck` is empty).
  function position(spec: { hands: string[][]; table: string[]; captured?: string[][]; deck?: string[] }): MatchState {
    const base = startedMatch(SEED, 'scopa').state;
    const placed = [...spec.hands.flat(), ...spec.table, ...(spec.captured ?? []).flat(), ...(spec.deck ?? [])];
    const rest: string[] = [];
    for (let c = 0; c < DECK_SIZE; c++) if (!placed.includes(cardCode(c))) rest.push(cardCode(c));
    const deck = spec.deck ?? rest;
    const captured = spec.captured ?? [[], []];
    if (spec.deck) rest.forEach((c, i) => captured[i % 2].push(c)); // last deal: what is not in play was captured
    const dealt = [...spec.hands.flat(), ...spec.table, ...captured.flat()];
    return {
      ...base,
      hands: spec.hands.map((h) => h.map(parseCard)),
      table: spec.table.map(parseCard),
      captured: captured.map((p) => p.map(parseCard)),
      deck: Uint8Array.from([...dealt, ...deck].map(parseCard)),
      deckPos: dealt.length,
      turn: 0,
      lastCapturer: null,
    };
  }

  const play = (card: string, capture: string[] = []): AnalysisOption => ({ type: 'play', card, capture, scopa: false });

  it('classes laying the settebello where the next seat can take it as a mistake or a blunder', () => {
    // 7D takes nothing here; laid, any 7 takes it, and any 10 takes it with the 3.
    const state = position({
      hands: [
        ['7D', '2S', '5B'],
        ['4C', '6C', '8S'],
      ],
      table: ['3C', '9B'],
    });
    const blunder = analyzeDecision('settebello', decisionAt(state, 10, play('7D')), SMALL);
    expect(['mistake', 'blunder']).toContain(blunder.class);
    expect(blunder.options[blunder.best].option).not.toMatchObject({ card: '7D' });
    const fine = analyzeDecision('settebello', decisionAt(state, 10, blunder.options[0].option), SMALL);
    expect(fine.class).toBe('best');
    expect(fine.loss).toBe(0);
  });

  it('classes a missed scopa as a mistake or a blunder', () => {
    // 7S takes 4C + 3B, the whole table: a scopa. Laying the 2 or the 9 misses it (and leaves the table to the next seat).
    const state = position({
      hands: [
        ['7S', '2D', '9C'],
        ['4S', '6B', '8C'],
      ],
      table: ['4C', '3B'],
    });
    const missed = analyzeDecision('scopa', decisionAt(state, 10, play('9C')), SMALL);
    expect(['mistake', 'blunder']).toContain(missed.class);
    expect(missed.options[missed.best].option).toEqual({ type: 'play', card: '7S', capture: ['4C', '3B'], scopa: true });
  });

  it('never reads a card the seat did not know: other hands and the deck changed, every value stays', () => {
    const events = playedMatch('scopa', {});
    const points = decisionPoints(events)
      .filter((p) => !isExactPosition(seatView(p.state, p.seat)) && p.moves.length > 1)
      .slice(0, 12);
    expect(points.length).toBe(12);
    for (const point of points) {
      const { state, seat } = point;
      const other = 1 - seat;
      // Swap the other seat's hand with cards of the deck: the seat to move cannot tell the two states apart.
      const undealt = Array.from(state.deck!.subarray(state.deckPos));
      const theirs = state.hands[other].slice();
      const swapped = undealt.slice(0, theirs.length);
      const deck = Uint8Array.from(state.deck!);
      theirs.forEach((c, k) => (deck[state.deckPos + k] = c));
      const changed: MatchState = { ...state, hands: state.hands.map((h, s) => (s === other ? swapped : h)), deck };
      expect(changed.hands[other]).not.toEqual(state.hands[other]);
      expect(seatView(changed, seat)).toEqual(seatView(state, seat));
      expect(analyzeDecision('hidden', { ...point, state: changed }, SMALL)).toEqual(analyzeDecision('hidden', point, SMALL));
    }
    // At an exact position (two players, last deal) nothing is hidden to change: the deck is empty and the cards the seat
    // has not seen are exactly the other hand, which the seat deduces. Changing them changes what it knows (its view).
    const exact = decisionPoints(events).find((p) => isExactPosition(seatView(p.state, p.seat)))!;
    expect(exact.state.deck!.length - exact.state.deckPos).toBe(0);
  });

  it('sums a seat’s losses, its accuracy and its three costliest decisions', () => {
    const analysis = analyzeMatch('summary', playedMatch('scopa', { target: 1 }), SMALL);
    for (const seat of analysis.players) {
      const mine = analysis.decisions.filter((d) => d.seat === seat.seat && !d.forced);
      expect(seat.decisions).toBe(mine.length);
      expect(seat.totalLoss).toBeCloseTo(
        mine.reduce((s, d) => s + d.loss, 0),
        2,
      );
      expect(seat.accuracy).toBe(accuracyOf(mine.map((d) => d.loss)));
      expect(seat.costliest.map((c) => c.loss)).toEqual(
        mine
          .map((d) => d.loss)
          .filter((l) => l > 0)
          .sort((a, b) => b - a)
          .slice(0, 3),
      );
    }
    for (const d of analysis.decisions) {
      expect(d.loss).toBeCloseTo(d.bestValue - d.playedValue, 3);
      expect(d.class).toBe(classOf(d.loss));
      expect(d.options.map((o) => o.value)).toEqual([...d.options.map((o) => o.value)].sort((a, b) => b - a));
    }
    expect(analysis.analyzer).toMatchObject({ name: 'ismcts', version: 1, id: 'ismcts/1' });
  });

  it('classes and accuracy follow the documented thresholds and formula', () => {
    expect([0, 0.05, 0.1, 0.3, 0.6, 1, 3].map(classOf)).toEqual(['best', 'best', 'good', 'inaccuracy', 'mistake', 'blunder', 'blunder']);
    expect(accuracyOf([])).toBe(100);
    expect(accuracyOf([0, 1])).toBe(75);
    expect(accuracyOf([2])).toBe(25);
  });
});
