import { subscriptionIterator } from './subscription-iterator';

/** A source that yields `values` then waits forever, and records whether it was ended. */
function source<T>(values: T[]) {
  const state = { ended: false };
  const it: AsyncIterator<T> = {
    next: () => (values.length > 0 ? Promise.resolve({ done: false, value: values.shift()! }) : new Promise<IteratorResult<T>>(() => undefined)),
    return: () => {
      state.ended = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return { it, state };
}

describe('subscriptionIterator', () => {
  it('yields the first value, then the messages step keeps, mapped', async () => {
    const { it } = source([1, 2, 3, 4]);
    const out = subscriptionIterator(it, (n) => (n % 2 === 0 ? `even ${n}` : null), { first: 'now' });
    expect([(await out.next()).value, (await out.next()).value, (await out.next()).value]).toEqual(['now', 'even 2', 'even 4']);
  });

  it('ends after a final value, without reading the source again', async () => {
    const { it } = source(['a', 'done', 'b']);
    const out = subscriptionIterator(it, (s) => s, { endsAfter: (s) => s === 'done' });
    expect(await out.next()).toEqual({ done: false, value: 'a' });
    expect(await out.next()).toEqual({ done: false, value: 'done' });
    expect(await out.next()).toEqual({ done: true, value: undefined });
  });

  it('ends at once when the first value is final', async () => {
    const { it } = source(['later']);
    const out = subscriptionIterator(it, (s) => s, { first: 'done', endsAfter: (s) => s === 'done' });
    expect(await out.next()).toEqual({ done: false, value: 'done' });
    expect((await out.next()).done).toBe(true);
  });

  it('ends the source when the subscriber ends it, and yields nothing more', async () => {
    const { it, state } = source([1]);
    const out = subscriptionIterator(it, (n) => n);
    expect((await out.next()).value).toBe(1);
    expect(await out.return!()).toEqual({ done: true, value: undefined });
    expect(state.ended).toBe(true);
    expect((await out.next()).done).toBe(true);
  });

  it('ends the source on throw and rethrows', async () => {
    const { it, state } = source<number>([]);
    const out = subscriptionIterator(it, (n) => n);
    await expect(out.throw!(new Error('client gone'))).rejects.toThrow('client gone');
    expect(state.ended).toBe(true);
  });

  it('tells onEnd once, however it ends: a final value, the subscriber leaving, or a throw', async () => {
    const ends = { final: 0, left: 0, thrown: 0 };
    const final = subscriptionIterator(source(['done']).it, (s) => s, { endsAfter: (s) => s === 'done', onEnd: () => ends.final++ });
    await final.next();
    expect(ends.final).toBe(0);
    await final.next();
    await final.return!();
    expect(ends.final).toBe(1);
    const left = subscriptionIterator(source([1]).it, (n) => n, { onEnd: () => ends.left++ });
    await left.next();
    await left.return!();
    await left.return!();
    expect(ends.left).toBe(1);
    const thrown = subscriptionIterator(source<number>([]).it, (n) => n, { onEnd: () => ends.thrown++ });
    await expect(thrown.throw!(new Error('client gone'))).rejects.toThrow('client gone');
    expect(ends.thrown).toBe(1);
  });
});
