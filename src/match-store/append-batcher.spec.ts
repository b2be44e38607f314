import { AppendBatcher } from './append-batcher';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A batcher whose statements finish when the test says so, recording what each carried. */
function harness(maxInFlight: number, maxBatch = 64) {
  const statements: { kind: 'one' | 'batch'; inputs: string[]; done: Deferred<void> }[] = [];
  const failBatches = { on: false };
  const batcher = new AppendBatcher<string, string>({
    maxInFlight,
    maxBatch,
    runOne: async (input) => {
      const done = deferred<void>();
      statements.push({ kind: 'one', inputs: [input], done });
      await done.promise;
      if (input.startsWith('bad')) throw new Error(`rejected ${input}`);
      return `ok ${input}`;
    },
    runBatch: async (inputs) => {
      const done = deferred<void>();
      statements.push({ kind: 'batch', inputs, done });
      await done.promise;
      if (failBatches.on) throw new Error('statement failed');
      return inputs.map((i) => (i.startsWith('conflict') ? new Error(`conflict ${i}`) : `ok ${i}`));
    },
  });
  return { batcher, statements, failBatches };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('AppendBatcher', () => {
  it('sends an append alone and at once while a slot is free', async () => {
    const { batcher, statements } = harness(2);
    const a = batcher.submit('m1', 'a');
    await settle();
    expect(statements.map((s) => [s.kind, s.inputs])).toEqual([['one', ['a']]]);
    statements[0].done.resolve();
    await expect(a).resolves.toBe('ok a');
  });

  it('groups the appends that wait for a slot into one statement, one per match, in arrival order', async () => {
    const { batcher, statements } = harness(1);
    const first = batcher.submit('m1', 'a');
    const waiting = [batcher.submit('m2', 'b'), batcher.submit('m3', 'c'), batcher.submit('m2', 'd'), batcher.submit('m4', 'e')];
    await settle();
    expect(statements).toHaveLength(1);
    expect(batcher.queued).toBe(4);
    statements[0].done.resolve();
    await first;
    await settle();
    // m2's second append waits for the next statement: one match never appears twice in one
    expect(statements[1].kind).toBe('batch');
    expect(statements[1].inputs).toEqual(['b', 'c', 'e']);
    statements[1].done.resolve();
    await settle();
    expect(statements[2].inputs).toEqual(['d']);
    statements[2].done.resolve();
    await expect(Promise.all(waiting)).resolves.toEqual(['ok b', 'ok c', 'ok d', 'ok e']);
  });

  it('holds an append of a match whose previous append is still under way, even with a free slot', async () => {
    const { batcher, statements } = harness(4);
    const a = batcher.submit('m1', 'a');
    const b = batcher.submit('m1', 'b');
    await settle();
    expect(statements.map((s) => s.inputs)).toEqual([['a']]);
    statements[0].done.resolve();
    await a;
    await settle();
    expect(statements.map((s) => s.inputs)).toEqual([['a'], ['b']]);
    statements[1].done.resolve();
    await expect(b).resolves.toBe('ok b');
  });

  it('fails only the append whose own outcome is an error', async () => {
    const { batcher, statements } = harness(1);
    const first = batcher.submit('m0', 'x');
    const b = batcher.submit('m1', 'b');
    const c = batcher.submit('m2', 'conflict-c');
    await settle();
    statements[0].done.resolve();
    await first;
    await settle();
    statements[1].done.resolve();
    await expect(b).resolves.toBe('ok b');
    await expect(c).rejects.toThrow('conflict conflict-c');
  });

  it('retries every append of a failed statement on its own, each with its own outcome', async () => {
    const { batcher, statements, failBatches } = harness(1);
    failBatches.on = true;
    const first = batcher.submit('m0', 'x');
    const good = batcher.submit('m1', 'good');
    const bad = batcher.submit('m2', 'bad');
    await settle();
    statements[0].done.resolve();
    await first;
    await settle();
    expect(statements[1].kind).toBe('batch');
    statements[1].done.resolve();
    await settle();
    const retries = statements.slice(2);
    expect(retries.map((s) => [s.kind, s.inputs])).toEqual([
      ['one', ['good']],
      ['one', ['bad']],
    ]);
    retries.forEach((s) => s.done.resolve());
    await expect(good).resolves.toBe('ok good');
    await expect(bad).rejects.toThrow('rejected bad');
  });

  it('never puts more than maxBatch appends in one statement', async () => {
    const { batcher, statements } = harness(1, 2);
    const all = [batcher.submit('m0', 'x'), ...['a', 'b', 'c'].map((v, i) => batcher.submit(`m${i + 1}`, v))];
    await settle();
    statements[0].done.resolve();
    await settle();
    expect(statements[1].inputs).toEqual(['a', 'b']);
    statements[1].done.resolve();
    await settle();
    expect(statements[2].inputs).toEqual(['c']);
    statements[2].done.resolve();
    await expect(Promise.all(all)).resolves.toHaveLength(4);
  });
});
