import { cardCode } from './cards';
import { mulberry32 } from './bots/rng';
import { toHex } from './shuffle';
import { playRandomly, seedFrom, startedMatch } from './testing';
import type { MatchState } from './types';
import { revealView, seatView, spectatorView } from './views';

/** Every card code appearing anywhere in a JSON payload, as whole tokens. */
function cardTokens(payload: unknown): Set<string> {
  const found = new Set<string>();
  for (const m of JSON.stringify(payload).matchAll(/"(10|[1-9])([DCSB])"/g)) found.add(m[1] + m[2]);
  return found;
}

function hidden(state: MatchState, viewer: number | null): Set<string> {
  const out = new Set<string>();
  state.hands.forEach((hand, seat) => seat !== viewer && hand.forEach((c) => out.add(cardCode(c))));
  for (let i = state.deckPos; i < 40; i++) out.add(cardCode(state.deck![i]));
  return out;
}

describe('views', () => {
  it('never show another seat’s hand, the deck or the seed before the end', () => {
    for (const [preset, overrides] of [
      ['scopa', {}],
      ['scopone', {}],
      ['scopa-fr', { players: 3 }],
    ] as const) {
      const rng = mulberry32(42);
      const seed = seedFrom(rng);
      const m = startedMatch(seed, preset, overrides);
      const seedHex = toHex(seed);
      while (m.state.phase === 'playing') {
        const viewers = [...m.state.seats.keys(), null];
        for (const viewer of viewers) {
          const view = viewer === null ? spectatorView(m.state) : seatView(m.state, viewer);
          const secret = hidden(m.state, viewer);
          for (const token of cardTokens(view)) if (secret.has(token)) throw new Error(`${token} leaks to ${viewer}`);
          const text = JSON.stringify(view);
          if (text.includes(seedHex)) throw new Error('seed leaks');
          if (viewer === null && view.hand.length > 0) throw new Error('a spectator sees a hand');
        }
        expect(revealView(m.state)).toBeNull();
        playRandomly(m, rng);
      }
    }
  });

  it('show a seat its own hand and the public counts', () => {
    const m = startedMatch(seedFrom(mulberry32(3)), 'scopa');
    const view = seatView(m.state, 0);
    expect(view.hand).toEqual(m.state.hands[0].map(cardCode));
    expect(view.seats.map((s) => s.handSize)).toEqual([3, 3]);
    expect(view.deckSize).toBe(40 - 4 - 6);
    expect(view.sides.map((s) => [s.capturedCount, s.scope, s.score])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  it('reveal everything once the match is over', () => {
    const rng = mulberry32(9);
    const seed = seedFrom(rng);
    const m = startedMatch(seed, 'scopa');
    while (m.state.phase === 'playing') playRandomly(m, rng);
    const reveal = revealView(m.state)!;
    expect(reveal.seed).toBe(toHex(seed));
    expect(reveal.result).toEqual(m.state.result);
  });
});
