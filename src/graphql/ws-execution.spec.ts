import { GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import type { ExecutionArgs, ExecutionResult, GraphQLError, ValidationContext } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { DomainError } from '../common/domain-error';
import { formatError } from './format-error';
import { wsExecution } from './ws-execution';

/** A stream of numbers pushed by the test; records whether it was closed. */
function pushStream() {
  const waiting: ((r: IteratorResult<number>) => void)[] = [];
  const state = { closed: false };
  const stream: AsyncIterableIterator<number> = {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    return: async () => {
      state.closed = true;
      for (const w of waiting.splice(0)) w({ done: true, value: undefined });
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return { stream, state, push: (n: number) => waiting.shift()?.({ done: false, value: n }) };
}

function setup() {
  let validations = 0;
  const countingRule = (_context: ValidationContext) => {
    validations++;
    return {};
  };
  const streams: (ReturnType<typeof pushStream> & { matchId: string })[] = [];
  const Event = new GraphQLObjectType({ name: 'Event', fields: { n: { type: GraphQLInt }, label: { type: GraphQLString } } });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        double: { type: GraphQLInt, args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_root, args: { n: number }) => 2 * args.n },
        refused: { type: GraphQLInt, resolve: () => Promise.reject(new DomainError('NOT_YOUR_TURN', 'it is seat 1 to play', { turn: 1 })) },
        broken: {
          type: GraphQLInt,
          resolve: () => {
            throw new Error('connection to 10.0.0.7 refused');
          },
        },
      },
    }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        events: {
          type: Event,
          // Named unlike the variable that feeds it: the stream must see the argument's value.
          args: { matchId: { type: new GraphQLNonNull(GraphQLString) } },
          subscribe: (_root, args: { matchId: string }) => {
            const s = pushStream();
            streams.push({ ...s, matchId: args.matchId });
            return s.stream as AsyncIterable<unknown> as never;
          },
          resolve: (n: number, args: { matchId: string }) => ({ n, label: `${args.matchId}#${n}` }),
        },
      },
    }),
  });
  const ws = wsExecution({ rules: [countingRule], formatError });
  ws.useSchema(schema);
  const ctx = {} as never;
  const prepare = async (query: unknown, variables?: Record<string, unknown>) =>
    (await ws.hooks.onSubscribe(ctx, '1', { query, variables } as SubscribePayload)) as ExecutionArgs | readonly GraphQLError[];
  const run = async (query: string, variables?: Record<string, unknown>): Promise<ExecutionResult> => {
    const args = await prepare(query, variables);
    if (Array.isArray(args)) return { errors: (await ws.hooks.onError(ctx, '1', { query }, args as readonly GraphQLError[])) as never };
    const result = (await ws.hooks.execute(args as ExecutionArgs)) as ExecutionResult;
    return ((await ws.hooks.onNext(ctx, '1', { query }, args as ExecutionArgs, result)) as ExecutionResult | undefined) ?? result;
  };
  return { ws, prepare, run, streams, validations: () => validations };
}

describe('operations over graphql-ws', () => {
  it('parses and validates a query text once, however often it is sent', async () => {
    const { run, validations } = setup();
    for (let n = 1; n <= 3; n++) expect(await run('query($n: Int!) { double(n: $n) }', { n })).toEqual({ data: { double: 2 * n } });
    expect(validations()).toBe(1);
  });

  it('refuses a text that does not parse or validate with VALIDATION_FAILED, every time', async () => {
    const { run } = setup();
    for (let attempt = 0; attempt < 2; attempt++) {
      const syntax = await run('{ double(n: ');
      expect(syntax.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(syntax.errors?.[0]?.message).toMatch(/^Syntax Error/);
      const unknownField = await run('{ nope }');
      expect(unknownField.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(unknownField.errors?.[0]?.message).toBe('Cannot query field "nope" on type "Query".');
    }
  });

  it('refuses bad variables with the message graphql-js gives over HTTP', async () => {
    const { run } = setup();
    const result = await run('query($n: Int!) { double(n: $n) }', { n: 'seven' });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.message).toBe('Variable "$n" got invalid value "seven"; Int cannot represent non-integer value: "seven"');
    expect(result.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it("maps a resolver's domain error to its code and details, and an unexpected one to INTERNAL without its message", async () => {
    const { run } = setup();
    const refused = await run('{ refused }');
    expect(refused.data).toEqual({ refused: null });
    expect(refused.errors?.[0]).toMatchObject({ message: 'it is seat 1 to play', path: ['refused'], extensions: { code: 'NOT_YOUR_TURN', turn: 1 } });
    const broken = await run('{ broken }');
    expect(broken.errors?.[0]).toMatchObject({ message: 'an unexpected error occurred', extensions: { code: 'INTERNAL' } });
    expect(JSON.stringify(broken)).not.toContain('10.0.0.7');
  });

  it("runs each event of a subscription through the selection, with the field's arguments, and closes the stream when the subscriber leaves", async () => {
    const { ws, prepare, streams } = setup();
    const args = (await prepare('subscription($id: String!) { events(matchId: $id) { n label } }', { id: 'm1' })) as ExecutionArgs;
    const results = (await ws.hooks.subscribe(args)) as AsyncIterableIterator<ExecutionResult>;
    expect(streams.map((s) => s.matchId)).toEqual(['m1']);
    const first = results.next();
    streams[0].push(7);
    expect(await first).toEqual({ done: false, value: { data: { events: { n: 7, label: 'm1#7' } } } });
    const waiting = results.next(); // pending until the next event: leaving must not wait for one
    await results.return?.();
    expect(streams[0].state.closed).toBe(true);
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});
