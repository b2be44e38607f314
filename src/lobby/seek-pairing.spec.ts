import { createHash } from 'node:crypto';
import { seatEntropy } from '../match-store/match-store';
import { compatible, groupSeeks, seatOrder } from './seek-pairing';

type S = {
  player: string;
  rated: boolean;
  rating: number;
  rating_min: number | null;
  rating_max: number | null;
  players: number;
  blocked_players?: string[];
};
const seek = (player: string, extra: Partial<S> = {}): S => ({ player, rated: false, rating: 1500, rating_min: null, rating_max: null, players: 2, ...extra });

describe('groupSeeks', () => {
  it('pairs the oldest compatible seeks first and leaves the odd one waiting', () => {
    const groups = groupSeeks([seek('a'), seek('b'), seek('c'), seek('d'), seek('e')]);
    expect(groups.map((g) => g.map((s) => s.player))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('never pairs a player with itself', () => {
    expect(groupSeeks([seek('a'), seek('a'), seek('b')]).map((g) => g.map((s) => s.player))).toEqual([['a', 'b']]);
    expect(groupSeeks([seek('a'), seek('a')])).toEqual([]);
  });

  it('groups four for a four-seat match', () => {
    const four = ['a', 'b', 'c', 'd', 'e'].map((p) => seek(p, { players: 4 }));
    expect(groupSeeks(four).map((g) => g.map((s) => s.player))).toEqual([['a', 'b', 'c', 'd']]);
    expect(groupSeeks(four.slice(0, 3))).toEqual([]);
  });

  it('keeps rated seeks inside each other’s range; an old seek nobody fits does not block the younger ones', () => {
    const picky = seek('picky', { rated: true, rating: 1500, rating_min: 1600, rating_max: 1700 });
    const low = seek('low', { rated: true, rating: 1450 });
    const high = seek('high', { rated: true, rating: 1650, rating_min: 1400, rating_max: 1499 });
    expect(compatible(picky, low)).toBe(false);
    expect(compatible(low, high)).toBe(true);
    expect(compatible(picky, high)).toBe(false); // picky is outside high's range
    expect(groupSeeks([picky, low, high]).map((g) => g.map((s) => s.player))).toEqual([['low', 'high']]);
    // unrated seeks ignore ratings
    expect(compatible(seek('x', { rating: 100 }), seek('y', { rating: 3000, rating_min: 2000, rating_max: 2100 }))).toBe(true);
  });

  it('never groups players blocked either way (each seek read with the players it must not meet); each still meets others', () => {
    const a = seek('a', { blocked_players: ['b'] });
    const b = seek('b', { blocked_players: ['a'] });
    expect(compatible(a, b)).toBe(false);
    expect(compatible(b, a)).toBe(false);
    // one side's row is enough (the read names the pair on both, but either suffices)
    expect(compatible(seek('a', { blocked_players: ['b'] }), seek('b'))).toBe(false);
    expect(compatible(seek('a'), seek('b', { blocked_players: ['a'] }))).toBe(false);
    expect(groupSeeks([a, b])).toEqual([]);
    expect(groupSeeks([a, b, seek('c'), seek('d')]).map((g) => g.map((s) => s.player))).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
    // four seats: no group holds both
    const four = [
      seek('a', { players: 4, blocked_players: ['b'] }),
      seek('b', { players: 4, blocked_players: ['a'] }),
      ...['c', 'd', 'e'].map((p) => seek(p, { players: 4 })),
    ];
    expect(groupSeeks(four).map((g) => g.map((s) => s.player))).toEqual([['a', 'c', 'd', 'e']]);
  });

  it('stops at maxGroups', () => {
    expect(
      groupSeeks(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => seek(p)),
        2,
      ),
    ).toHaveLength(2);
  });
});

describe('seatOrder', () => {
  it('is a permutation, a function of the entropy, pinned on one seed', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    // the entropy is SHA-256("scopa-seats/1" ‖ seed): recomputed here with Node's own SHA-256
    const entropy = seatEntropy(seed);
    expect(Buffer.from(entropy).toString('hex')).toBe(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from('scopa-seats/1'), Buffer.from(seed)]))
        .digest('hex'),
    );
    for (const n of [2, 3, 4, 6]) {
      const order = seatOrder(n, entropy);
      expect([...order].sort()).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(seatOrder(n, entropy)).toEqual(order);
    }
    expect(seatOrder(4, entropy)).toEqual([0, 2, 3, 1]);
    expect(seatOrder(6, entropy)).toEqual([2, 0, 3, 4, 1, 5]);
  });

  it('draws every order of four seats about equally often', () => {
    const counts = new Map<string, number>();
    const runs = 24_000;
    for (let i = 0; i < runs; i++) {
      const entropy = createHash('sha256').update(`run${i}`).digest();
      const key = seatOrder(4, entropy).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    for (const c of counts.values()) expect(Math.abs(c - runs / 24)).toBeLessThan(200); // ~6 standard deviations
  });

  it('draws more bytes when the entropy runs out (rejections)', () => {
    const allRejected = new Uint8Array(32).fill(255); // 255 is rejected for every i + 1 that does not divide 256
    const order = seatOrder(6, allRejected);
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
