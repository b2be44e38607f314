import { cardCodes, declarationsInView, mulberry32, seatView, toHex } from '../engine';
import { apply, playRandomly, seedFrom, startedMatch } from '../engine/testing';
import { replayViews, stripSecrets, viewsFor } from './match-views';
import { viewFor } from '../../test/support/views';

describe('who sees what (the view policy)', () => {
  const seed = seedFrom(mulberry32(5));
  const driven = startedMatch(seed, 'scopa');
  const playing = driven.state;
  const rng = mulberry32(6);
  while (driven.state.phase !== 'over') playRandomly(driven, rng);
  const over = driven.state;

  it('a seated viewer sees its own hand only; anyone else, or nobody, the spectator view; no reveal before the end', () => {
    const [p0, reveal] = viewsFor('p0', playing);
    expect(p0.viewer).toBe(0);
    expect(p0.hand).toHaveLength(playing.hands[0].length);
    expect(reveal).toBeNull();
    for (const viewer of ['stranger', null]) {
      const [view, none] = viewsFor(viewer, playing);
      expect(view).toMatchObject({ viewer: null, hand: [] });
      expect(none).toBeNull();
    }
    for (const viewer of ['p0', 'p1', 'stranger', null]) expect(JSON.stringify(viewFor(viewer, playing))).not.toContain(toHex(seed));
  });

  it('everybody sees everything once the match is over', () => {
    for (const viewer of ['p1', null]) {
      const [view, reveal] = viewsFor(viewer, over);
      expect(reveal).toMatchObject({ seed: toHex(seed) });
      expect(view).toBe(reveal);
    }
  });

  it('a replay before the end is the spectator view, whoever asks; after it, every hand at that seq', () => {
    expect(replayViews(playing, false)).toEqual([viewsFor(null, playing)[0], null]);
    const [view, reveal] = replayViews(playing, true);
    expect(view).toBe(reveal);
    expect(reveal).toMatchObject({ seed: toHex(seed), hands: [expect.any(Array), expect.any(Array)] });
    expect(reveal!.hands[1]).toHaveLength(playing.hands[1].length);
  });

  it('only the fields of a view leave, whatever else an object carries', () => {
    const [full] = viewsFor(null, over);
    const stripped = stripSecrets(full);
    expect(stripped).not.toHaveProperty('seed');
    expect(stripped).not.toHaveProperty('hands');
    expect(stripped).not.toHaveProperty('deck');
    expect(stripped.sides).toEqual(full.sides);
  });

  it('a declared hand and the matta value leave through stripSecrets to every seat and spectator; an undeclared hand does not', () => {
    // The first cirulla deal (seeds from 1) where the seat to move holds the matta and may declare.
    for (let n = 1; n < 500; n++) {
      const d = startedMatch(seedFrom(mulberry32(n)), 'cirulla');
      const seat = d.state.turn;
      const hand = cardCodes(d.state.hands[seat]);
      const open = declarationsInView(seatView(d.state, seat)).find((x) => x.mattaValue !== null);
      if (!hand.includes('7C') || !open) continue;
      apply(d, { type: 'declareHand', player: `p${seat}`, mattaValue: open.mattaValue });
      const other = 1 - seat;
      const hidden = cardCodes(d.state.hands[other]);
      for (const viewer of [`p${seat}`, `p${other}`, null]) {
        const view = stripSecrets(viewsFor(viewer, d.state)[0]);
        expect([...view.seats[seat].declared].sort()).toEqual([...hand].sort());
        expect(view.seats[other].declared).toEqual([]);
        expect(view.captureValues).toEqual({ '7C': open.mattaValue });
        if (viewer !== `p${other}`) for (const card of hidden) expect(JSON.stringify({ ...view, table: [] })).not.toContain(`"${card}"`);
      }
      return;
    }
    throw new Error('no cirulla deal with a matta declaration in 500 seeds');
  });
});
