import type { MatchState } from '../engine';
import { SnapshotCache } from './snapshot-cache';
import type { Snapshot } from './snapshot-cache';

const snap = (seq: number): Snapshot => ({ seq, hash: `h${seq}`, state: {} as MatchState, rulesetId: null, visibility: 'public' });

describe('SnapshotCache', () => {
  it('never holds more snapshots than its capacity, however many matches pass through it', () => {
    const cache = new SnapshotCache(100);
    for (let i = 0; i < 10_000; i++) {
      cache.put(`m${i}`, snap(1));
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.size).toBe(100);
    expect(cache.get('m9999')?.seq).toBe(1);
    expect(cache.get('m9899')).toBeUndefined();
  });

  it('evicts the least recently used: a match read or written stays, the oldest untouched one goes', () => {
    const cache = new SnapshotCache(3);
    cache.put('a', snap(1));
    cache.put('b', snap(1));
    cache.put('c', snap(1));
    cache.get('a'); // read
    cache.put('b', snap(2)); // written
    cache.put('d', snap(1));
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')?.seq).toBe(1);
    expect(cache.get('b')?.seq).toBe(2);
    expect(cache.get('d')?.seq).toBe(1);
  });

  it('keeps the newer of the cached and the given snapshot', () => {
    const cache = new SnapshotCache(10);
    cache.put('a', snap(5));
    cache.put('a', snap(3));
    expect(cache.get('a')?.seq).toBe(5);
    cache.put('a', snap(6));
    expect(cache.get('a')?.seq).toBe(6);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('capacity 0 keeps nothing; a negative or fractional capacity is refused', () => {
    const cache = new SnapshotCache(0);
    cache.put('a', snap(1));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(() => new SnapshotCache(-1)).toThrow(RangeError);
    expect(() => new SnapshotCache(1.5)).toThrow(RangeError);
  });
});
