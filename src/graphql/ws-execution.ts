/**
 * How operations run over graphql-ws, the transport of subscribed clients
 * (their plays included), where every event runs the subscription's
 * selection again for every subscriber.
 *
 * - A query text is parsed and validated once (the depth and complexity
 *   limits included: they depend on the text alone, never on variables), and
 *   compiled once with graphql-jit, the compiler Mercurius runs on; graphql-js
 *   runs what the compiler refuses. Under load, graphql-js's per-field
 *   bookkeeping was the largest share of an instance's allocations.
 * - Errors are rendered by the same formatError as over HTTP: the stable
 *   code, the domain's details, nothing of the internals.
 */
import {
  GraphQLError,
  createSourceEventStream,
  execute as executeWithGraphqlJs,
  parse,
  specifiedRules,
  subscribe as subscribeWithGraphqlJs,
  validate,
} from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, GraphQLFormattedError, GraphQLSchema, ValidationRule } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';
import type { ServerOptions, SubscribePayload } from 'graphql-ws';
import { LRUCache } from 'lru-cache';
import { isDomainError } from '../common/domain-error';
import { isGraphQLError } from './format-error';

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** A query text, parsed and validated: its document, or why it was refused. */
type Prepared = { document: DocumentNode } | { errors: readonly GraphQLError[] };

export interface WsExecutionOptions {
  /** Rules on top of graphql's specified ones. */
  rules: readonly ValidationRule[];
  formatError: FormatError;
  /** Query texts kept parsed (and their compiled forms), least recently used out first. */
  maxTexts?: number;
  /** Bound on the kept texts' total length, so large one-off queries cannot pile up. */
  maxTextChars?: number;
}

export interface WsExecution {
  /** graphql-ws's options that do the above. */
  hooks: Required<Pick<ServerOptions, 'onSubscribe' | 'validate' | 'execute' | 'subscribe' | 'onNext' | 'onError'>>;
  /** Takes the schema to run on once built (Nest builds it after reading the module's options). */
  useSchema(schema: GraphQLSchema): GraphQLSchema;
}

/** What a resolver threw, when graphql wrapped it with a path (or a hook's domain error); else the error itself. */
function resolverErrorOf(error: unknown): unknown {
  if (!isGraphQLError(error) || !error.originalError) return error;
  return error.path || isDomainError(error.originalError) ? error.originalError : error;
}

/**
 * Variables refused before anything ran (no data, no error with a path):
 * graphql-js then runs it again, so the message is the one HTTP gives
 * (graphql-jit names nested input fields as variables of their own).
 */
function refusedVariables(result: unknown): boolean {
  if (!result || typeof result !== 'object' || 'data' in result || isPromiseLike(result) || Symbol.asyncIterator in result) return false;
  const errors = (result as ExecutionResult).errors;
  return !!errors?.length && errors.every((e) => !e.path);
}

const isPromiseLike = (value: object): boolean => typeof (value as { then?: unknown }).then === 'function';

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof Object(value)[Symbol.asyncIterator] === 'function';

/** Each event of a stream through `map`; closing the result closes the stream at once, even while it waits. */
function mapEvents<T, R>(stream: AsyncIterable<T>, map: (event: T) => R | Promise<R>): AsyncIterableIterator<R> {
  const source = stream[Symbol.asyncIterator]();
  const mapped = async (step: IteratorResult<T>): Promise<IteratorResult<R>> =>
    step.done ? { done: true, value: undefined } : { done: false, value: await map(step.value) };
  const it: AsyncIterableIterator<R> = {
    next: async () => mapped(await source.next()),
    return: async () => (source.return ? mapped(await source.return()) : { done: true, value: undefined }),
    throw: async (error?: unknown) => {
      if (source.throw) return mapped(await source.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

export function wsExecution(options: WsExecutionOptions): WsExecution {
  const { formatError } = options;
  let schema: GraphQLSchema | null = null;
  const rules = [...specifiedRules, ...options.rules];
  const prepared = new LRUCache<string, Prepared>({
    max: options.maxTexts ?? 500,
    maxSize: options.maxTextChars ?? 2_000_000,
    sizeCalculation: (_value, text) => Math.max(1, text.length),
  });
  // Tied to the cached documents: evicted with them.
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

  const prepare = (schema: GraphQLSchema, text: string): Prepared => {
    const known = prepared.get(text);
    if (known) return known;
    let entry: Prepared;
    try {
      const document = parse(text);
      const errors = validate(schema, document, rules);
      entry = errors.length > 0 ? { errors } : { document };
    } catch (err) {
      if (!isGraphQLError(err)) throw err;
      entry = { errors: [err] };
    }
    prepared.set(text, entry);
    return entry;
  };

  /** The compiled operation, or null where graphql-jit cannot compile it (graphql-js runs it then). */
  const compiledFor = (args: ExecutionArgs): CompiledQuery | null => {
    if (args.schema !== schema || schema === null) return null;
    let byOperation = compiled.get(args.document);
    if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
    const key = args.operationName ?? '';
    let query = byOperation.get(key);
    if (query === undefined) {
      // Bounded: graphql-ws runs only operations the (cached) document defines.
      try {
        const result = compileQuery(schema, args.document, args.operationName ?? undefined);
        query = isCompiledQuery(result) ? result : null;
      } catch {
        query = null;
      }
      byOperation.set(key, query);
    }
    return query;
  };

  const format = (error: GraphQLError): GraphQLFormattedError => {
    const formatted: GraphQLFormattedError = typeof error.toJSON === 'function' ? error.toJSON() : { message: String(error.message) };
    return formatError(formatted, resolverErrorOf(error));
  };

  const useSchema = (built: GraphQLSchema): GraphQLSchema => {
    if (built !== schema) prepared.clear();
    schema = built;
    return built;
  };

  const hooks: WsExecution['hooks'] = {
    onSubscribe: (_ctx, _id, payload: SubscribePayload) => {
      if (!schema) return undefined; // not built yet: graphql-ws parses, validates and runs it its own way
      if (typeof payload.query !== 'string') return [new GraphQLError('query: a GraphQL document as a string', { extensions: { code: 'VALIDATION_FAILED' } })];
      const entry = prepare(schema, payload.query);
      if ('errors' in entry) return entry.errors;
      return { schema, document: entry.document, operationName: payload.operationName, variableValues: payload.variables };
    },
    // Only where onSubscribe leaves it to graphql-ws: the same rules.
    validate: (built: GraphQLSchema, document: DocumentNode) => validate(built, document, rules),
    execute: (args: ExecutionArgs) => {
      const query = compiledFor(args);
      if (!query) return executeWithGraphqlJs(args);
      const result = query.query(args.rootValue, args.contextValue, args.variableValues);
      return refusedVariables(result) ? executeWithGraphqlJs(args) : result;
    },
    // The event stream comes from graphql-js (graphql-jit hands a subscription field the variables as its
    // arguments); each event's selection runs compiled.
    subscribe: async (args: ExecutionArgs) => {
      const query = compiledFor(args);
      if (!query) return subscribeWithGraphqlJs(args);
      const stream = await createSourceEventStream(args);
      if (!isAsyncIterable(stream)) return stream;
      return mapEvents(stream, (payload) => query.query(payload, args.contextValue, args.variableValues));
    },
    onNext: (_ctx, _id, _payload, _args, result: ExecutionResult) => {
      if (!result.errors?.length) return undefined;
      return { ...result, errors: result.errors.map(format) };
    },
    onError: (_ctx, _id, _payload, errors: readonly GraphQLError[]) => errors.map(format),
  };
  return { hooks, useSchema };
}
