import { LineQueue } from './line-queue';

/** An async source that yields what is pushed to it and records whether it was closed. */
function source<T>() {
  const items: T[] = [];
  let wake: (() => void) | null = null;
  let returned = false;
  const it: AsyncIterableIterator<T> = {
    next: async () => {
      while (items.length === 0 && !returned) await new Promise<void>((r) => (wake = r));
      if (returned) return { done: true, value: undefined };
      return { done: false, value: items.shift()! };
    },
    return: async () => {
      returned = true;
      wake?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => it,
  };
  return { it, send: (v: T) => (items.push(v), wake?.()), returned: () => returned, pending: () => items.length };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('LineQueue', () => {
  it('merges sources in arrival order, maps them, and ends with a last line', async () => {
    const q = new LineQueue<string>();
    const a = source<number>();
    const b = source<string>();
    void q.pump(a.it, (n) => `a${n}`);
    void q.pump(b.it);
    a.send(1);
    await tick();
    b.send('b1');
    await tick();
    a.send(2);
    await tick();
    q.end('last');
    const out: string[] = [];
    for await (const line of q) out.push(line);
    expect(out).toEqual(['a1', 'b1', 'a2', 'last']);
    await tick();
    expect(a.returned() && b.returned()).toBe(true);
  });

  it('closes every source at once when the reader goes, even while it waits for a line; owned sources too', async () => {
    const q = new LineQueue<number>();
    const a = source<number>();
    const owned = source<number>();
    q.own(owned.it);
    void q.pump(a.it);
    const waiting = q.next();
    await q.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await tick();
    expect(a.returned()).toBe(true);
    expect(owned.returned()).toBe(true);
    // a source owned after the end is closed at once
    const late = source<number>();
    q.own(late.it);
    await tick();
    expect(late.returned()).toBe(true);
  });

  it('pulls no more than highWater lines ahead of the reader (backpressure)', async () => {
    const q = new LineQueue<number>(2);
    const a = source<number>();
    for (let i = 0; i < 10; i++) a.send(i);
    void q.pump(a.it);
    await tick();
    expect(a.pending()).toBe(8); // two taken, the rest left in the source
    expect((await q.next()).value).toBe(0);
    await tick();
    expect(a.pending()).toBe(7);
    await q.return();
  });

  it("a source's error ends the queue after the lines before it, as a rejection the writer turns into its last line", async () => {
    const q = new LineQueue<number>();
    const failing: AsyncIterator<number> = {
      next: (() => {
        let n = 0;
        return async () => {
          if (n++ === 0) return { done: false, value: 1 };
          throw new Error('boom');
        };
      })(),
    };
    void q.pump(failing);
    expect(await q.next()).toEqual({ done: false, value: 1 });
    await expect(q.next()).rejects.toThrow('boom');
    expect(await q.next()).toEqual({ done: true, value: undefined });
  });
});
