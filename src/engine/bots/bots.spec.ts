import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cardCode, cardCodes } from '../cards';
import { decide } from '../decider';
import { legalPlaysInView, seatView } from '../views';
import type { MatchView } from '../views';
import type { Play } from '../plays';
import { apply, seedFrom, startedMatch } from '../testing';
import type { Driven } from '../testing';
import type { BotLevel, MatchState } from '../types';
import { botPlay } from './index';
import { greedyPlay } from './greedy';
import { ismctsSearch } from './ismcts';
import { randomPlay } from './random';
import { mulberry32 } from './rng';

const FAST = { iterations: 15 };

function sameP(a: Play, b: Play): boolean {
  return a.card === b.card && a.capture.length === b.capture.length && a.capture.every((c) => b.capture.includes(c));
}

function playFor(driven: Driven, play: Play): void {
  const seat = driven.state.turn;
  apply(driven, { type: 'play', player: driven.state.seats[seat].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) });
}

/** A round-1 state some plays in, for view-purity checks. */
function midRound(seedNumber: number, plays: number, preset = 'scopa', overrides: Record<string, unknown> = {}): Driven {
  const driven = startedMatch(seedFrom(mulberry32(seedNumber)), preset, overrides);
  const rng = mulberry32(seedNumber + 1);
  for (let i = 0; i < plays; i++) playFor(driven, randomPlay(seatView(driven.state, driven.state.turn), rng));
  return driven;
}

/** Same public information and the same hand for `seat`, but other hands and the deck shuffled. */
function hiddenShuffled(state: MatchState, seat: number): MatchState {
  const others: number[] = [];
  state.hands.forEach((hand, s) => {
    if (s !== seat) others.push(...hand);
  });
  const deckRest = Array.from(state.deck!.subarray(state.deckPos));
  const pool = [...others, ...deckRest].reverse(); // a different assignment of the same cards
  const hands = state.hands.map((hand, s) => (s === seat ? hand.slice() : pool.splice(0, hand.length)));
  const deck = new Uint8Array(state.deck!);
  deck.set(pool, state.deckPos);
  return { ...state, hands, deck, seed: new Uint8Array(32).fill(7) };
}

/** A consistent 2-player view at a round's first play, with the given hand and table. */
function roundStart(view: MatchView, hand: string[], table: string[]): MatchView {
  return {
    ...view,
    hand,
    table,
    deckSize: 40 - table.length - 6,
    seats: view.seats.map((s) => ({ ...s, handSize: 3 })),
    sides: view.sides.map((s) => ({ ...s, captured: [], capturedCount: 0, scope: 0 })),
  };
}

const LEVELS: BotLevel[] = ['random', 'greedy', 'ismcts'];

describe('bots', () => {
  const configs: { preset: string; overrides: Record<string, unknown> }[] = [
    { preset: 'scopa', overrides: {} },
    { preset: 'scopa-quindici', overrides: {} },
    { preset: 'scopa-d-assi', overrides: { players: 3 } },
    { preset: 'scopone', overrides: {} },
  ];

  it.each(LEVELS)('%s only returns legal plays that the decider accepts', (level) => {
    for (const [i, { preset, overrides }] of configs.entries()) {
      const driven = startedMatch(seedFrom(mulberry32(100 + i)), preset, overrides);
      const rng = mulberry32(i);
      // One full round (ismcts on a small budget, to stay fast).
      while (driven.state.phase === 'playing' && driven.state.round === 1) {
        const seat = driven.state.turn;
        const view = seatView(driven.state, seat);
        const play = botPlay(level, view, rng, FAST);
        expect(legalPlaysInView(view).some((p) => sameP(p, play))).toBe(true);
        const decision = decide(
          { type: 'play', player: driven.state.seats[seat].player!, card: cardCode(play.card), capture: cardCodes(play.capture) },
          driven.state,
        );
        expect(decision.ok).toBe(true);
        playFor(driven, play);
      }
      expect(driven.state.round === 2 || driven.state.phase === 'over').toBe(true);
    }
  });

  it.each(LEVELS)('%s is a pure function of the seat view: hidden cards do not change its play', (level) => {
    for (const [seedNumber, plays] of [
      [1, 0],
      [2, 5],
      [3, 13],
      [4, 20],
    ]) {
      const driven = midRound(seedNumber, plays);
      const seat = driven.state.turn;
      const alt = hiddenShuffled(driven.state, seat);
      const hidden = (st: MatchState) => [st.hands[1 - seat], Array.from(st.deck!.subarray(st.deckPos))];
      expect(hidden(alt)).not.toEqual(hidden(driven.state));
      const view = seatView(driven.state, seat);
      const altView: MatchView = seatView(alt, seat);
      expect(altView).toEqual(view);
      const a = botPlay(level, view, mulberry32(42), { iterations: 100 });
      const b = botPlay(level, altView, mulberry32(42), { iterations: 100 });
      expect(b).toEqual(a);
    }
  });

  it('greedy is deterministic and takes the settebello when it can', () => {
    const driven = midRound(5, 3);
    const view = seatView(driven.state, driven.state.turn);
    expect(greedyPlay(view)).toEqual(greedyPlay(view));
    // 7D takes 7C: the settebello and two sevens, rather than laying a card.
    const crafted = roundStart(view, ['7D', '2C', '9S'], ['7C', '5S', '10B']);
    const play = greedyPlay(crafted);
    expect(cardCode(play.card)).toBe('7D');
  });
});

describe('ismcts', () => {
  // A position with several legal plays (a single legal play is returned without search).
  const view = [0, 1, 2, 3, 4, 5, 6, 7]
    .map((plays) => midRound(11, plays))
    .map((d) => seatView(d.state, d.state.turn))
    .find((v) => legalPlaysInView(v).length >= 3)!;

  it('runs exactly its iteration budget', () => {
    for (const iterations of [1, 37, 150]) {
      const result = ismctsSearch(view, mulberry32(3), { iterations });
      expect(result.iterations).toBe(iterations);
      expect(result.stats.reduce((n, s) => n + s.visits, 0)).toBe(iterations);
    }
  });

  it('stops on a millisecond budget with an injected clock', () => {
    let t = 0;
    const now = () => (t += 2); // every reading advances the fake clock by 2 ms
    const result = ismctsSearch(view, mulberry32(3), { ms: 10, now });
    expect(result.iterations).toBeGreaterThan(0);
    expect(result.iterations).toBeLessThanOrEqual(16 * 6);
    // An iteration cap still applies with a clock.
    expect(ismctsSearch(view, mulberry32(3), { ms: 1e9, now, iterations: 25 }).iterations).toBe(25);
  });

  it('is deterministic for a given rng seed', () => {
    const a = ismctsSearch(view, mulberry32(9), { iterations: 100 });
    const b = ismctsSearch(view, mulberry32(9), { iterations: 100 });
    expect(b.play).toEqual(a.play);
    expect(b.stats).toEqual(a.stats);
  });

  it('takes a scopa that is there for the taking', () => {
    const crafted = roundStart(view, ['7D', '2C', '9S'], ['3S', '4B']);
    const play = ismctsSearch(crafted, mulberry32(1), { iterations: 150 }).play;
    expect(play.scopa).toBe(true);
  });
});

describe('bot sources', () => {
  it('import nothing from Node and read no clock', () => {
    const dir = join(process.cwd(), 'src/engine/bots');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect({ file, nodeImport: /from ['"](node:|fs|path|os|crypto|perf_hooks)/.test(text) }).toEqual({ file, nodeImport: false });
      expect({ file, clock: /\b(performance\.now|Date\.now|new Date)\b/.test(text) }).toEqual({ file, clock: false });
    }
  });
});
