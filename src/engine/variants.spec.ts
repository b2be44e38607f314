/**
 * The games of other packs (escoba, cirulla, acchiappaquindici, chkobba,
 * chkop; `scopa-rules/4`): each new step of the rules contract, through the
 * same functions the decider, the views and the conformance runner use.
 */
import fc from 'fast-check';
import { auditEvents } from './audit';
import { declarationScope, declarationsOf, initialTableScope } from './bonuses';
import { botMove } from './bots/index';
import { mulberry32 } from './bots/rng';
import { RANK, cardCode, cardCodes, parseCard } from './cards';
import type { Card } from './cards';
import { captureValuesWith } from './captures';
import { captureValuesOf, decide, evolve, initialState } from './decider';
import { LEGACY_OPTION_NAMES, OPTION_NAMES, PRESETS, resolveRuleset } from './options';
import type { RulesetOptions } from './options';
import { legalPlaysOf } from './plays';
import { scoreRound } from './scoring';
import { seedCommitment } from './shuffle';
import { apply, moveRandomly, seedFrom, startedMatch } from './testing';
import type { Driven } from './testing';
import type { Command, MatchEvent, MatchState } from './types';
import { RULES_V1, RULES_V3, RULES_VERSION } from './version';
import { declarationsInView, legalMovesInView, legalPlaysInView, seatView, spectatorView } from './views';

const cards = (codes: string): Card[] => (codes ? codes.split(' ').map(parseCard) : []);
const codes = (list: readonly Card[]) => cardCodes(list);
const options = (preset: string, overrides: Record<string, unknown> = {}): RulesetOptions => {
  const r = resolveRuleset(preset, overrides);
  if (!r.ok) throw new Error(r.error.message);
  return r.ruleset.options;
};
const CIRULLA = options('cirulla');
const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 5) & 255);

/** Plays as sorted "card:capture+capture|scopa" strings, to compare as sets. */
function plays(o: RulesetOptions, hand: string, table: string, values = RANK, lastPlay = false): string[] {
  return legalPlaysOf(o, cards(hand), cards(table), lastPlay, values)
    .map((p) => `${cardCode(p.card)}:${codes(p.capture).sort().join('+')}${p.scopa ? '|scopa' : ''}`)
    .sort();
}

/** A started 2-player match with chosen hands and table, seat `turn` to move, nothing declared. */
function rigged(preset: string, hands: string[], table: string, extra: Partial<MatchState> = {}, overrides: Record<string, unknown> = {}): MatchState {
  const state = startedMatch(SEED, preset, overrides).state;
  return {
    ...state,
    hands: hands.map(cards),
    table: cards(table),
    turn: 0,
    declared: hands.map(() => []),
    mattaValue: null,
    ...extra,
  };
}

function step(state: MatchState, command: Command): { state: MatchState; events: MatchEvent[] } {
  const d = decide(command, state);
  if (!d.ok) throw new Error(`${d.rejection.code}: ${d.rejection.message}`);
  let next = state;
  for (const e of d.events) next = evolve(next, e);
  return { state: next, events: d.events };
}

function refusal(command: Command, state: MatchState) {
  const d = decide(command, state);
  if (d.ok) throw new Error(`expected a refusal, got ${JSON.stringify(d.events)}`);
  return d.rejection;
}

const play = (player: string, card: string, capture: string[] = []): Command => ({ type: 'play', player, card, capture });
const declare = (player: string, mattaValue?: number | null): Command =>
  mattaValue === undefined ? { type: 'declareHand', player } : { type: 'declareHand', player, mattaValue };

describe('presets and validation', () => {
  it('resolves the new presets as the contract table lists them', () => {
    expect(PRESETS.escoba.defaults).toMatchObject({
      capture: 'fifteen',
      redealKings: null,
      primiera: null,
      sevens: true,
      initialTableCapture: 'groups15',
      target: 15,
    });
    expect(PRESETS.cirulla.defaults).toMatchObject({
      capture: 'matchOrFifteen',
      primiera: 'allSuitsRequired',
      aceSweeps: true,
      aceSweepIsScopa: true,
      aceSweepBlockedByAce: true,
      piccola: true,
      grande: true,
      allDenariWins: true,
      redealAces: 2,
      redealKings: null,
      initialTableCapture: 'sum15or30',
      matta: '7C',
      lowHandBonus: 3,
      tripleBonus: 10,
      target: 51,
    });
    expect(PRESETS.acchiappaquindici.defaults).toEqual(PRESETS.cirulla.defaults);
    expect(PRESETS.acchiappaquindici.players).toEqual([2, 3, 4]);
    expect(PRESETS.chkobba.defaults).toMatchObject({ capture: 'match', redealKings: null, primiera: null, sevens: true, target: 21, fewestCards: false });
    expect(PRESETS.chkop.defaults).toMatchObject({ ...PRESETS['scopa-fr'].defaults, maxCaptureCards: null, fewestCards: true });
    expect(PRESETS.chkop.players).toEqual([2, 3, 4, 6]);
    // Unlisted options stay off in the old presets.
    expect(PRESETS.scopa.defaults).toMatchObject({ optionalCapture: false, piccola: false, redealAces: null, matta: null, lowHandBonus: 0, tripleBonus: 0 });
  });

  const errorOf = (preset: string, overrides: Record<string, unknown>) => {
    const r = resolveRuleset(preset, overrides);
    return r.ok ? null : r.error.option;
  };

  it.each([
    ['matchOrFifteen is a capture value', 'scopa', { capture: 'matchOrFifteen' }, null],
    ['the new booleans in table order (check 4)', 'scopa', { grande: 1, optionalCapture: 'no' }, 'optionalCapture'],
    ['a boolean before a bad int of check 8', 'cirulla', { lowHandBonus: 'x', piccola: null }, 'piccola'],
    ['target before redealAces (check 8 order)', 'cirulla', { redealAces: 5, target: 0 }, 'target'],
    ['redealAces 5', 'cirulla', { redealAces: 5 }, 'redealAces'],
    ['initialTableCapture unknown', 'escoba', { initialTableCapture: 'sum15' }, 'initialTableCapture'],
    ['matta 11D', 'cirulla', { matta: '11D' }, 'matta'],
    ['matta as a number', 'cirulla', { matta: 7 }, 'matta'],
    ['matta null is fine', 'cirulla', { matta: null }, null],
    ['lowHandBonus before tripleBonus', 'cirulla', { tripleBonus: 100, lowHandBonus: 100 }, 'lowHandBonus'],
    ['tripleBonus 2.5', 'cirulla', { tripleBonus: 2.5 }, 'tripleBonus'],
    ['redealAces at tableSize - 36 (check 9)', 'scopa', { handSize: 1, tableSize: 38, redealKings: null, redealAces: 2 }, 'redealAces'],
    ['redealKings before redealAces (check 9)', 'scopa', { handSize: 1, tableSize: 38, redealKings: 2, redealAces: 2 }, 'redealKings'],
    ['kings and aces together (check 9)', 'scopa', { handSize: 2, tableSize: 36, redealKings: 2, redealAces: 3 }, 'redealAces'],
    ['kings and aces that some deal escapes', 'scopa', { handSize: 2, tableSize: 36, redealKings: 3, redealAces: 3 }, null],
    ['bonus without hands of 3, handSize overridden (check 10)', 'cirulla', { handSize: 9 }, 'handSize'],
    ['bonus on a preset of hands of 9, the first bonus above 0', 'scopone', { tripleBonus: 3, lowHandBonus: 2 }, 'lowHandBonus'],
    ['check 7 before check 10', 'cirulla', { handSize: 4 }, 'handSize'],
  ])('names the option at fault: %s', (_what, preset, overrides, option) => {
    expect(errorOf(preset, overrides)).toBe(option);
  });
});

describe('legal plays', () => {
  it('free choice under matchOrFifteen: equal card, sum and fifteen, none first', () => {
    // 5S alone or 2+3 make 5; 10C alone or 5+2+3 make 15 with the 5D.
    expect(plays(CIRULLA, '5D', '5S 10C 2B 3C')).toEqual(['5D:10C', '5D:2B+3C', '5D:5S', '5D:2B+3C+5S'].sort());
  });

  it('free choice under matchOrFifteen, as a property: exactly the sets that make v(c) or 15 - v(c)', () => {
    const arb = fc.shuffledSubarray(
      Array.from({ length: 40 }, (_, c) => c),
      { minLength: 1, maxLength: 9 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 10 }), (picked, named) => {
        const [card, ...table] = picked;
        // Sometimes the matta (7C) carries a named value.
        const values = named === 0 ? RANK : captureValuesWith(parseCard('7C'), named);
        const o = { ...CIRULLA, aceSweeps: false };
        const got = legalPlaysOf(o, [card], table, false, values).map((p) => codes(p.capture).sort().join('+'));
        const want: string[] = [];
        for (let mask = 1; mask < 1 << table.length; mask++) {
          const set = table.filter((_, i) => (mask >> i) & 1);
          const sum = set.reduce((n, c) => n + values[c], 0);
          if (sum === values[card] || sum + values[card] === 15) want.push(codes(set).sort().join('+'));
        }
        expect(got.sort()).toEqual(want.length ? want.sort() : ['']);
      }),
      { numRuns: 300 },
    );
  });

  it('flags a scopa as the contract says, an ace sweep only where step 3b does not also allow the set: a property', () => {
    const arb = fc.shuffledSubarray(
      Array.from({ length: 40 }, (_, c) => c),
      { minLength: 1, maxLength: 7 },
    );
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom<RulesetOptions['capture']>('match', 'fifteen', 'matchOrFifteen'),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 10 }),
        (picked, capture, isScopa, blocked, lastPlay, named) => {
          const [card, ...table] = picked;
          const o = { ...CIRULLA, capture, aceSweepIsScopa: isScopa, aceSweepBlockedByAce: blocked };
          const values = named === 0 ? RANK : captureValuesWith(parseCard('7C'), named);
          const sweepOn = values[card] === 1 && table.length > 0 && !(blocked && table.some((c) => values[c] === 1));
          for (const p of legalPlaysOf(o, [card], table, lastPlay, values)) {
            const sum = p.capture.reduce((n, c) => n + values[c], 0);
            const threeB = capture === 'matchOrFifteen' && (sum === values[card] || sum + values[card] === 15);
            const aceSweep = sweepOn && (capture !== 'matchOrFifteen' || !threeB);
            const empties = p.capture.length > 0 && p.capture.length === table.length;
            expect(p.scopa).toBe(empties && !lastPlay && (!aceSweep || isScopa));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the decider takes every listed cirulla play and refuses any other set of table cards', () => {
    const state = rigged('cirulla', ['9C 2D 3S', '4D 4C 4S'], '9D 6S 5C 4B 3D');
    const listed = legalPlaysInView(seatView(state, 0));
    for (const p of listed) expect(decide(play('p0', cardCode(p.card), codes(p.capture)), state).ok).toBe(true);
    expect(refusal(play('p0', '9C', ['6S', '5C']), state).reason).toBe('CAPTURE_NOT_LEGAL');
    expect(refusal(play('p0', '9C'), state).reason).toBe('MUST_CAPTURE');
  });

  it('the ace sweep is blocked by a table ace, including a declared matta named an ace', () => {
    // An ace on the table: the ace takes by equal value or 15 only.
    expect(plays(CIRULLA, '1C', '1S 4B 9D')).toEqual(['1C:1S', '1C:1S+4B+9D|scopa'].sort());
    // No ace on the table: the sweep beside the 3b sets.
    expect(plays(CIRULLA, '1C', '2S 4B 9D')).toEqual(['1C:2S+4B+9D|scopa']);
    // The matta named an ace lies on the table: it blocks the sweep as an ace would.
    const asAce = captureValuesWith(parseCard('7C'), 1);
    expect(plays(CIRULLA, '1C', '7C 2S 4B', asAce)).toEqual(['1C:7C'].sort());
    // The same table with 7C at its rank: 2+4+7 = 13 is no 3b set, so the ace sweeps it.
    expect(plays(CIRULLA, '1C', '7C 2S 4B')).toEqual(['1C:2S+4B+7C|scopa']);
    // Under "match" with the block on (an override), a blocked ace captures by step 2.
    const dassi = options('scopa-d-assi', { aceSweepBlockedByAce: true });
    expect(plays(dassi, '1C', '1S 4B')).toEqual(['1C:1S']);
    expect(plays(dassi, '1C', '2S 4B')).toEqual(['1C:2S+4B']);
    // Without the option the old sweep stands (scopa-d-assi as before).
    expect(plays(options('scopa-d-assi'), '1C', '1S 4B')).toEqual(['1C:1S+4B']);
  });

  it('a blocked ace sweep in play: the decider refuses it, and a declared matta named an ace blocks it', () => {
    // Seat 1 declares 7C 2S 6B naming the matta an ace (1 + 2 + 6 = 9: low) and lays it on the empty table.
    let state = rigged('cirulla', ['1C 5D 5S', '7C 2S 6B'], '', { turn: 1 });
    state = step(state, declare('p1', 1)).state;
    state = step(state, play('p1', '7C')).state;
    state = step(state, play('p0', '5D')).state; // 5 and 1 make neither 5 nor 15: laid
    state = step(state, play('p1', '2S')).state; // laid too
    expect(state.table.map(cardCode)).toEqual(['7C', '5D', '2S']);
    const seat0 = seatView(state, 0);
    expect(seat0.captureValues).toEqual({ '7C': 1 });
    // The ace takes the matta (equal value), and may not sweep: the matta is a table ace.
    expect(
      legalPlaysInView(seat0)
        .filter((p) => cardCode(p.card) === '1C')
        .map((p) => codes(p.capture)),
    ).toEqual([['7C']]);
    expect(refusal(play('p0', '1C', ['7C', '5D', '2S']), state).reason).toBe('CAPTURE_NOT_LEGAL');
    // At its rank the matta would not block: the same table with 7C a seven is swept.
    expect(plays(CIRULLA, '1C', '7C 5D 2S')).toEqual(['1C:2S+5D+7C|scopa']);
  });

  it('optionalCapture adds laying the card beside its captures (step 5)', () => {
    expect(plays(options('escoba', { optionalCapture: true }), '5D 9S', '10C')).toEqual(['5D:', '5D:10C|scopa', '9S:'].sort());
    const state = rigged('escoba', ['5D 9S', '1C 1S'], '10C', {}, { optionalCapture: true });
    expect(decide(play('p0', '5D'), state).ok).toBe(true);
    expect(refusal(play('p0', '5D'), rigged('escoba', ['5D 9S', '1C 1S'], '10C')).reason).toBe('MUST_CAPTURE');
  });
});

describe('the matta', () => {
  it('keeps its named value after it is laid and after it is captured, until the round ends', () => {
    // Seat 1 declares 7C 3B 4D naming the matta a 2 (2 + 3 + 4 = 9: low), and lays it.
    let state = rigged('cirulla', ['8S 10B 9B', '7C 3B 4D'], '5S', { turn: 1 });
    state = step(state, declare('p1', 2)).state;
    expect(state.scope).toEqual([0, 3]);
    expect(captureValuesOf(state)[parseCard('7C')]).toBe(2);
    state = step(state, play('p1', '7C')).state; // 2 with 5 makes neither 2 nor 13: laid
    expect(state.table.map(cardCode)).toEqual(['5S', '7C']);
    // On the table it is still a 2: 8S takes 5S + 7C (5 + 2 + 8 = 15), not 7C alone (7 + 8 at its rank).
    const seat0 = legalPlaysInView(seatView(state, 0)).map((p) => `${cardCode(p.card)}:${codes(p.capture).sort().join('+')}`);
    expect(seat0).toContain('8S:5S+7C');
    expect(seat0).not.toContain('8S:7C');
    expect(refusal(play('p0', '8S', ['7C']), state).reason).toBe('CAPTURE_NOT_LEGAL');
    const taken = step(state, play('p0', '8S', ['5S', '7C']));
    expect(taken.events[0]).toMatchObject({ type: 'CardPlayed', scopa: true });
    state = taken.state;
    // Captured, it keeps its value (and its code for scoring) until the round ends.
    expect(state.mattaValue).toBe(2);
    expect(spectatorView(state).captureValues).toEqual({ '7C': 2 });
    expect(state.captured[0].map(cardCode)).toContain('7C');
  });

  it('is named by the declaration only: an undeclared matta is a seven', () => {
    const state = rigged('cirulla', ['7C 2D 9S', '3S 3B 5D'], '8B');
    expect(legalPlaysInView(seatView(state, 0)).map((p) => `${cardCode(p.card)}:${codes(p.capture).join('+')}`)).toContain('7C:8B');
    expect(seatView(state, 0).captureValues).toEqual({});
  });

  it('is forgotten at the round end: the next round shows no capture value', () => {
    const rng = mulberry32(5);
    for (let n = 0; n < 40; n++) {
      const m = startedMatch(seedFrom(rng), 'cirulla');
      let named = false;
      while (m.state.phase === 'playing' && m.state.round === 1) {
        const events = moveRandomly(m, rng);
        if (events.some((e) => e.type === 'HandDeclared' && e.mattaValue !== null)) named = true;
        if (m.state.round === 1 && named) expect(spectatorView(m.state).captureValues).toEqual({ '7C': m.state.mattaValue });
      }
      if (!named) continue;
      expect(m.state.mattaValue).toBeNull();
      expect(spectatorView(m.state).captureValues).toEqual({});
      return;
    }
    throw new Error('no round with a named matta in 40 matches');
  });
});

describe('hand declarations', () => {
  it('list the contract examples (the handBonus kind)', () => {
    expect(declarationsOf(CIRULLA, cards('7C 3B 4D'))).toEqual([
      { mattaValue: 1, points: 3 },
      { mattaValue: 2, points: 3 },
    ]);
    expect(declarationsOf(CIRULLA, cards('2D 2C 2S'))).toEqual([{ mattaValue: null, points: 10 }]);
    expect(declarationsOf(CIRULLA, cards('1D 2C 7S'))).toEqual([]);
    expect(declarationsOf(options('scopa'), cards('2D 2C 2S'))).toEqual([]);
  });

  it('score max(triple, low), the matta counted as named: a property', () => {
    const arb = fc.shuffledSubarray(
      Array.from({ length: 40 }, (_, c) => c),
      { minLength: 3, maxLength: 3 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), (hand, low, triple) => {
        const o = { ...CIRULLA, lowHandBonus: low, tripleBonus: triple };
        const listed = declarationsOf(o, hand);
        const hasMatta = hand.includes(parseCard('7C'));
        for (const value of hasMatta ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [null]) {
          const v = hand.map((c) => (c === parseCard('7C') && value !== null ? value : RANK[c]));
          const b = Math.max(v[0] === v[1] && v[1] === v[2] ? triple : 0, v[0] + v[1] + v[2] <= 9 ? low : 0);
          expect(declarationScope(o, hand, value)).toBe(b);
          expect(listed.find((d) => d.mattaValue === value)?.points ?? 0).toBe(b);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('are legal only in their window: the seat to move, the whole deal in hand, once per deal', () => {
    const state = rigged('cirulla', ['2D 3C 4S', '9D 9C 9S'], '8B 6C');
    // Not the seat to move.
    expect(refusal(declare('p1'), state).code).toBe('NOT_YOUR_TURN');
    // In the window: scores, reveals, keeps the turn.
    const declared = step(state, declare('p0'));
    expect(declared.events).toEqual([{ type: 'HandDeclared', seat: 0, cards: ['2D', '3C', '4S'], mattaValue: null, scope: 3 }]);
    expect(declared.state.turn).toBe(0);
    expect(declared.state.lastCapturer).toBeNull();
    // Once per deal.
    expect(refusal(declare('p0'), declared.state)).toMatchObject({ code: 'DECLARATION_NOT_ALLOWED', reason: 'ALREADY_DECLARED' });
    expect(declarationsInView(seatView(declared.state, 0))).toEqual([]);
    // Playing closes the window for that deal: seat 1 may still declare on its turn, seat 0 no more.
    const after = step(declared.state, play('p0', '2D')).state;
    expect(declarationsInView(seatView(after, 1))).toEqual([{ mattaValue: null, points: 10 }]);
    const seat1Played = step(after, play('p1', '9D', ['6C'])).state;
    expect(refusal(declare('p0'), seat1Played)).toMatchObject({ code: 'DECLARATION_NOT_ALLOWED', reason: 'WINDOW_CLOSED' });
    // A seat that played without declaring also lost its window.
    const undeclared = step(step(state, play('p0', '2D')).state, play('p1', '9D', ['6C'])).state;
    expect(refusal(declare('p1'), { ...undeclared, turn: 1 })).toMatchObject({ reason: 'WINDOW_CLOSED' });
  });

  it('open again after each deal', () => {
    const rng = mulberry32(77);
    const m = startedMatch(seedFrom(rng), 'cirulla');
    let sawLaterDeal = false;
    while (m.state.phase === 'playing' && !sawLaterDeal) {
      const seat = m.state.turn;
      const view = seatView(m.state, seat);
      const open = declarationsInView(view);
      expect(open).toEqual(view.hand.length === 3 && view.seats[seat].declared.length === 0 ? declarationsOf(CIRULLA, cards(view.hand.join(' '))) : []);
      if (open.length > 0 && m.state.deal > 1) {
        apply(m, declare(`p${seat}`, open[0].mattaValue));
        sawLaterDeal = true;
      } else {
        moveRandomly(m, rng);
      }
    }
    expect(sawLaterDeal).toBe(true);
  });

  it('need the matta value exactly when the hand holds the matta', () => {
    const withMatta = rigged('cirulla', ['7C 3B 4D', '9D 9C 9S'], '8B');
    expect(refusal(declare('p0'), withMatta)).toMatchObject({ reason: 'MATTA_VALUE_MISSING' });
    expect(refusal(declare('p0', 0), withMatta)).toMatchObject({ reason: 'MATTA_VALUE_OUT_OF_RANGE' });
    expect(refusal(declare('p0', 11), withMatta)).toMatchObject({ reason: 'MATTA_VALUE_OUT_OF_RANGE' });
    expect(refusal(declare('p0', 1.5), withMatta)).toMatchObject({ reason: 'MATTA_VALUE_OUT_OF_RANGE' });
    expect(refusal(declare('p0', 3), withMatta)).toMatchObject({ reason: 'HAND_DOES_NOT_QUALIFY' });
    expect(step(withMatta, declare('p0', 2)).events[0]).toEqual({ type: 'HandDeclared', seat: 0, cards: ['7C', '3B', '4D'], mattaValue: 2, scope: 3 });
    const without = rigged('cirulla', ['2C 3B 4D', '9D 9C 9S'], '8B');
    expect(refusal(declare('p0', 2), without)).toMatchObject({ reason: 'MATTA_VALUE_NOT_EXPECTED' });
    const poor = rigged('cirulla', ['2C 3B 8D', '9D 9C 9S'], '8B');
    expect(refusal(declare('p0'), poor)).toMatchObject({ reason: 'HAND_DOES_NOT_QUALIFY' });
    const scopa = rigged('scopa', ['2C 2B 2D', '9D 9C 9S'], '8B');
    expect(refusal(declare('p0'), scopa)).toMatchObject({ code: 'DECLARATION_NOT_ALLOWED', reason: 'NO_DECLARATIONS' });
  });

  it('accept exactly the listed declarations: a property over random cirulla deals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 30 }), (n, before) => {
        const rng = mulberry32(n);
        const m = startedMatch(seedFrom(rng), 'cirulla', { players: 3 });
        for (let i = 0; i < before && m.state.phase === 'playing'; i++) moveRandomly(m, rng);
        if (m.state.phase !== 'playing') return;
        const seat = m.state.turn;
        const listed = declarationsInView(seatView(m.state, seat));
        for (const value of [null, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
          const d = decide(declare(`p${seat}`, value), m.state);
          const entry = listed.find((x) => x.mattaValue === value);
          expect(d.ok).toBe(entry !== undefined);
          if (d.ok) expect(d.events).toEqual([{ type: 'HandDeclared', seat, cards: cardCodes(m.state.hands[seat]), mattaValue: value, scope: entry!.points }]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('show the declared cards to every seat and spectator until each is played, and nothing else of the hand', () => {
    let state = rigged('cirulla', ['2D 3C 4S', '9D 8C 10S'], '8B 6C');
    const before = spectatorView(state);
    expect(before.seats.map((s) => s.declared)).toEqual([[], []]);
    state = step(state, declare('p0')).state;
    for (const view of [spectatorView(state), seatView(state, 1), seatView(state, 0)]) expect(view.seats[0].declared).toEqual(['2D', '3C', '4S']);
    expect(spectatorView(state).hand).toEqual([]);
    expect(seatView(state, 1).hand).toEqual(['9D', '8C', '10S']);
    state = step(state, play('p0', '3C')).state;
    expect(spectatorView(state).seats[0].declared).toEqual(['2D', '4S']);
    expect(spectatorView(state).seats[1].declared).toEqual([]);
    // Nothing of seat 1's undeclared hand shows.
    expect(JSON.stringify(spectatorView(state))).not.toMatch(/"(9D|8C|10S)"/);
  });

  it('leak nothing else: no view shows an undeclared card of another hand, or the deck, before the end', () => {
    const rng = mulberry32(61);
    for (const players of [2, 4]) {
      const m = startedMatch(seedFrom(rng), 'cirulla', { players });
      let declarations = 0;
      while (m.state.phase === 'playing') {
        const state = m.state;
        for (const viewer of [...state.seats.keys(), null]) {
          const view = viewer === null ? spectatorView(state) : seatView(state, viewer);
          const secret = new Set<string>();
          state.hands.forEach((hand, seat) => {
            if (seat === viewer) return;
            for (const c of hand) if (!state.declared[seat].includes(c)) secret.add(cardCode(c));
          });
          for (let i = state.deckPos; i < 40; i++) secret.add(cardCode(state.deck![i]));
          // (The options name the matta card: a rule, not a card's place.)
          for (const m2 of JSON.stringify({ ...view, options: null }).matchAll(/"(10|[1-9])([DCSB])"/g)) {
            if (secret.has(m2[1] + m2[2])) throw new Error(`${m2[1] + m2[2]} leaks to ${viewer}`);
          }
          // Declared cards still in a hand are shown to everyone.
          state.declared.forEach((shown, seat) => expect(view.seats[seat].declared).toEqual(cardCodes(shown)));
        }
        declarations += moveRandomly(m, rng).filter((e) => e.type === 'HandDeclared').length;
      }
      expect(declarations).toBeGreaterThan(0);
    }
  });

  it('count in the round score as bonus scope, and a declaration makes abort too late', () => {
    const m = startedMatch(SEED, 'cirulla');
    const seat = m.state.turn;
    const state: MatchState = { ...m.state, hands: m.state.hands.map((h, s) => (s === seat ? cards('2D 2C 2S') : h)) };
    const declared = step(state, declare(`p${seat}`)).state;
    expect(declared.bonusScope[seat]).toBe(10);
    const abort = decide({ type: 'abort', player: 'p0' }, declared);
    expect(abort.ok ? null : abort.rejection.code).toBe('ABORT_TOO_LATE');
  });

  it('are listed beside the plays for the seat to move', () => {
    const state = rigged('cirulla', ['7C 3B 4D', '9D 9C 9S'], '8B');
    const moves = legalMovesInView(seatView(state, 0));
    expect(moves.declarations).toEqual([
      { mattaValue: 1, points: 3 },
      { mattaValue: 2, points: 3 },
    ]);
    expect(moves.plays.length).toBeGreaterThan(0);
    expect(legalMovesInView(seatView(state, 1))).toEqual({ plays: [], declarations: [] });
  });
});

describe('the initial-table capture', () => {
  it('counts groups15 and sum15or30 as the contract says', () => {
    const escoba = options('escoba');
    expect(initialTableScope(escoba, cards('1D 2C 4S 8B'))).toBe(1);
    expect(initialTableScope(escoba, cards('5D 10C 7S 8B'))).toBe(2); // two groups of 15
    expect(initialTableScope(escoba, cards('10C 10S 9D 1B'))).toBe(0);
    expect(initialTableScope(escoba, cards('3D 3C 3S 6B'))).toBe(1);
    expect(initialTableScope(CIRULLA, cards('10C 10S 9D 1B'))).toBe(2);
    expect(initialTableScope(CIRULLA, cards('4B 7C 3B 6D'))).toBe(1); // the matta as a 2
    expect(initialTableScope(options('scopa'), cards('1D 2C 4S 8B'))).toBe(0);
  });

  it('groups15 with two groups, as a property: k = 2 exactly when a pair splits 15 + 15', () => {
    const escoba = options('escoba');
    const arb = fc.shuffledSubarray(
      Array.from({ length: 40 }, (_, c) => c),
      { minLength: 4, maxLength: 4 },
    );
    fc.assert(
      fc.property(arb, (table) => {
        const v = table.map((c) => RANK[c]);
        const total = v.reduce((a, b) => a + b, 0);
        const pairs = [
          [0, 1],
          [0, 2],
          [0, 3],
        ].some(([a, b]) => v[a] + v[b] === 15);
        const triples = [0, 1, 2, 3].some((skip) => total - v[skip] === 15);
        const want = total === 15 ? 1 : total === 30 && (pairs || triples) ? 2 : 0;
        expect(initialTableScope(escoba, table)).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it('is logged right after the deal that stands, and the dealer side counts as the last to capture', () => {
    for (let n = 0; n < 400; n++) {
      const seed = seedFrom(mulberry32(n));
      const m = startedMatch(seed, 'escoba');
      const at = m.events.findIndex((e) => e.type === 'InitialTableCaptured');
      if (at < 0) continue;
      const dealt = m.events[at - 1] as Extract<MatchEvent, { type: 'RoundDealt' }>;
      expect(dealt.type).toBe('RoundDealt');
      const captured = m.events[at] as Extract<MatchEvent, { type: 'InitialTableCaptured' }>;
      expect(captured).toEqual({
        type: 'InitialTableCaptured',
        dealer: 1,
        side: 1,
        cards: dealt.table,
        scope: initialTableScope(options('escoba'), cards(dealt.table.join(' '))),
      });
      expect(m.state.table).toEqual([]);
      expect(m.state.lastCapturer).toBe(1);
      expect(m.state.scope[1]).toBe(captured.scope);
      expect(m.state.captured[1].map(cardCode)).toEqual(dealt.table);
      // If nobody captures after it, what is left at the end goes to the dealer's side: the last two cards laid.
      let state: MatchState = { ...m.state, hands: [cards('5D'), cards('5S')], deckPos: 40 };
      state = step(state, play('p0', '5D')).state;
      const end = step(state, play('p1', '5S')).events;
      expect(end.find((e) => e.type === 'RoundEnded')).toMatchObject({ side: 1, cards: ['5D', '5S'] });
      const scored = end.find((e) => e.type === 'RoundScored') as Extract<MatchEvent, { type: 'RoundScored' }>;
      expect(scored.breakdown.bonusScope).toEqual([0, captured.scope]);
      expect(scored.breakdown.scope).toEqual([0, captured.scope]);
      return;
    }
    throw new Error('no escoba deal with an initial capture in 400 seeds');
  });

  it('comes after the redeal: a table with two aces is dealt again first', () => {
    for (let n = 0; n < 400; n++) {
      const m = startedMatch(seedFrom(mulberry32(n)), 'cirulla');
      const dealt = m.events.filter((e) => e.type === 'RoundDealt') as Extract<MatchEvent, { type: 'RoundDealt' }>[];
      if (dealt.length < 2) continue;
      for (const d of dealt.slice(0, -1)) expect(d.table.filter((c) => c.startsWith('1') && c.length === 2).length).toBeGreaterThanOrEqual(2);
      const types = m.events.map((e) => e.type);
      const last = types.lastIndexOf('RoundDealt');
      expect(types.slice(0, last).includes('InitialTableCaptured')).toBe(false);
      return;
    }
    throw new Error('no cirulla redeal in 400 seeds');
  });
});

describe('piccola and grande', () => {
  const DENARI = ['1D', '2D', '3D', '4D', '5D', '6D', '7D', '8D', '9D', '10D'];
  const OTHERS = Array.from({ length: 40 }, (_, c) => cardCode(c)).filter((c) => !c.endsWith('D'));

  it('piccola runs 3 to 6 and grande scores 5: a property over every split of the denari', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 10, maxLength: 10 }), fc.integer({ min: 0, max: 30 }), (owners, split) => {
        const piles: string[][] = [[], []];
        DENARI.forEach((c, i) => piles[owners[i]].push(c));
        OTHERS.forEach((c, i) => piles[i < split ? 0 : 1].push(c));
        const b = scoreRound(
          CIRULLA,
          piles.map((p) => cards(p.join(' '))),
          [0, 0],
        );
        const holder = (rank: number) => owners[rank - 1];
        const piccola = holder(1) === holder(2) && holder(2) === holder(3) ? holder(1) : null;
        let run = 0;
        if (piccola !== null) {
          run = 3;
          for (let rank = 4; rank <= 6 && holder(rank) === piccola; rank++) run++;
        }
        const grande = holder(8) === holder(9) && holder(9) === holder(10) ? holder(8) : null;
        expect(b.awards.piccola).toBe(piccola);
        expect(b.piccolaPoints).toBe(run);
        if (piccola !== null) expect(run).toBeGreaterThanOrEqual(3);
        expect(run).toBeLessThanOrEqual(6);
        expect(b.awards.grande).toBe(grande);
        const ones = (['cards', 'denari', 'settebello', 'primiera'] as const).map((a) => b.awards[a]);
        for (const side of [0, 1]) {
          const expected = ones.filter((w) => w === side).length + (piccola === side ? run : 0) + (grande === side ? 5 : 0);
          expect(b.points[side]).toBe(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('are off in the other presets: no award key', () => {
    const b = scoreRound(options('scopa'), [cards(DENARI.join(' ')), cards(OTHERS.join(' '))], [0, 0]);
    expect(Object.keys(b.awards)).not.toContain('piccola');
    expect(Object.keys(b.awards)).not.toContain('grande');
    expect(b.bonusScope).toBeUndefined();
  });
});

describe('rules versions', () => {
  it('new matches are scopa-rules/5 and record every option', () => {
    const m = startedMatch(SEED, 'scopa');
    const created = m.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>;
    expect(created.rulesVersion).toBe(RULES_VERSION);
    expect(RULES_VERSION).toBe('scopa-rules/5');
    expect(Object.keys(created.options)).toEqual([...OPTION_NAMES]);
  });

  it('a scopa-rules/1 to /3 match records the options up to target, and knows no new preset or option', () => {
    for (const rulesVersion of [RULES_V1, RULES_V3]) {
      const m = startedMatch(SEED, 'scopa-d-assi', {}, undefined, { rulesVersion });
      const created = m.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>;
      expect(Object.keys(created.options)).toEqual([...LEGACY_OPTION_NAMES]);
      const create = (preset: string, overrides: Record<string, unknown> = {}): Command => ({
        type: 'create',
        preset,
        overrides,
        seats: [{ player: 'a' }, {}],
        createdBy: 'a',
        seedCommitment: seedCommitment(SEED),
        rulesVersion,
      });
      const newPreset = decide(create('cirulla'), initialState(SEED));
      expect(newPreset.ok ? null : newPreset.rejection).toMatchObject({ code: 'INVALID_RULESET', option: 'preset' });
      const newOption = decide(create('scopa', { optionalCapture: true }), initialState(SEED));
      expect(newOption.ok ? null : newOption.rejection).toMatchObject({ code: 'INVALID_RULESET', option: 'optionalCapture' });
      const newCapture = decide(create('scopa', { capture: 'matchOrFifteen' }), initialState(SEED));
      expect(newCapture.ok ? null : newCapture.rejection).toMatchObject({ code: 'INVALID_RULESET', option: 'capture' });
    }
  });

  it('an old log with every old option replays and audits sound', () => {
    const rng = mulberry32(31);
    const seed = seedFrom(rng);
    const m = startedMatch(seed, 'scopa-d-assi', { players: 3 }, undefined, { rulesVersion: RULES_V3 });
    while (m.state.phase === 'playing') moveRandomly(m, rng);
    const logged = JSON.parse(JSON.stringify(m.events)) as MatchEvent[]; // as stored
    expect(auditEvents(logged, seed)).toMatchObject({ sound: true, events: logged.length });
  });
});

describe('whole matches of the new presets', () => {
  const finished = (preset: string, n: number, players = 2): { seed: Uint8Array; m: Driven } => {
    const rng = mulberry32(n);
    const seed = seedFrom(rng);
    const m = startedMatch(seed, preset, { players });
    while (m.state.phase === 'playing') moveRandomly(m, rng);
    return { seed, m };
  };

  it.each(['escoba', 'cirulla', 'acchiappaquindici', 'chkobba', 'chkop'])('%s: the log audits sound and replays', (preset) => {
    const { seed, m } = finished(preset, 3);
    const logged = JSON.parse(JSON.stringify(m.events)) as MatchEvent[];
    expect(auditEvents(logged, seed)).toMatchObject({ sound: true });
  });

  it('a tampered HandDeclared (other cards, other points) is found at its exact event', () => {
    for (let n = 0; n < 50; n++) {
      const { seed, m } = finished('cirulla', 100 + n);
      const i = m.events.findIndex((e) => e.type === 'HandDeclared');
      if (i < 0) continue;
      const declared = m.events[i] as Extract<MatchEvent, { type: 'HandDeclared' }>;
      const points = m.events.map((e, k) => (k === i ? { ...declared, scope: declared.scope + 1 } : e));
      expect(auditEvents(points, seed)).toMatchObject({ sound: false, index: i });
      const other = m.events.map((e, k) =>
        k === i ? { ...declared, cards: [declared.cards[0], declared.cards[1], declared.cards[0] === '1B' ? '2B' : '1B'] } : e,
      );
      expect(auditEvents(other, seed)).toMatchObject({ sound: false, index: i });
      const initial = m.events.findIndex((e) => e.type === 'InitialTableCaptured');
      if (initial >= 0) {
        const more = m.events.map((e, k) => (k === initial ? { ...e, scope: 5 } : e));
        expect(auditEvents(more as MatchEvent[], seed)).toMatchObject({ sound: false, index: initial });
      }
      return;
    }
    throw new Error('no cirulla match with a declaration');
  });
});

describe('bots on the new presets', () => {
  it.each(['random', 'greedy', 'ismcts'] as const)('%s plays a round of every new preset with moves the decider accepts', (level) => {
    for (const [i, preset] of ['escoba', 'cirulla', 'acchiappaquindici', 'chkobba', 'chkop'].entries()) {
      const m = startedMatch(seedFrom(mulberry32(200 + i)), preset);
      const rng = mulberry32(i);
      let declarations = 0;
      while (m.state.phase === 'playing' && m.state.round === 1) {
        const seat = m.state.turn;
        const move = botMove(level, seatView(m.state, seat), rng, { iterations: 12 });
        if (move.type === 'declare') {
          declarations++;
          apply(m, declare(`p${seat}`, move.mattaValue));
        } else {
          apply(m, play(`p${seat}`, cardCode(move.play.card), codes(move.play.capture)));
        }
      }
      expect(m.state.round === 2 || m.state.phase === 'over').toBe(true);
      expect(declarations).toBeLessThanOrEqual(14); // at most once per deal and seat
    }
  });

  it('greedy declares whenever a declaration scores, naming the value that scores most', () => {
    const triple = rigged('cirulla', ['7C 1D 1S', '9D 9C 9S'], '8B 4C');
    expect(botMove('greedy', seatView(triple, 0), mulberry32(1))).toEqual({ type: 'declare', mattaValue: 1 });
    const low = rigged('cirulla', ['7C 3B 4D', '9D 9C 9S'], '8B');
    const move = botMove('greedy', seatView(low, 0), mulberry32(1));
    expect(move.type).toBe('declare');
    expect([1, 2]).toContain(move.type === 'declare' ? move.mattaValue : 0);
    const none = rigged('cirulla', ['7C 3B 8D', '9D 9C 9S'], '8B');
    expect(botMove('greedy', seatView(none, 0), mulberry32(1)).type).toBe('play');
    const done = step(triple, declare('p0', 1)).state;
    expect(botMove('greedy', seatView(done, 0), mulberry32(1)).type).toBe('play');
  });

  it('ismcts weighs a ten-point declaration and keeps revealed cards in their hands', () => {
    const triple = rigged('cirulla', ['2D 2C 2S', '9D 9C 9S'], '8B 4C');
    expect(botMove('ismcts', seatView(triple, 0), mulberry32(4), { iterations: 200 })).toEqual({ type: 'declare', mattaValue: null });
    // Seat 1 declared 9D 9C 9S: seat 0's search must find 9s in seat 1's hand, never elsewhere; a hidden-card change does not change its move.
    let state = rigged('cirulla', ['6D 3C 5S', '9D 9C 9S'], '10B', { turn: 1 });
    state = step(state, declare('p1')).state;
    state = step(state, play('p1', '9D')).state;
    const view = seatView(state, 0);
    expect(view.seats[1].declared).toEqual(['9C', '9S']);
    const a = botMove('ismcts', view, mulberry32(9), { iterations: 150 });
    const b = botMove('ismcts', seatView({ ...state, deck: new Uint8Array(state.deck!).reverse() }, 0), mulberry32(9), { iterations: 150 });
    expect(b).toEqual(a);
  });
});
