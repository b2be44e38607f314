/**
 * The limits of src/limits/graphql-limits.ts (depth, complexity, cost) checked on a
 * GraphQL request over HTTP before Apollo validates it. graphql's full
 * validation walks every node of a document with every specified rule: for
 * a document of 60 aliases of a tournament's standings (about a thousand
 * fields) that is 70 to 170 ms of the event loop, spent even on a document
 * the cost rule then refuses. The limits need no such walk (they read the
 * document's operations and fragments), so a document over them is refused
 * here, with the same error Apollo would give, after a parse alone; the
 * verdict of a text is kept (least recently used texts out first), so a
 * document sent again costs a lookup. A request with no credential at all is
 * held to the anonymous budget here too (GRAPHQL_MAX_COST_ANONYMOUS).
 * Documents within the limits go on to Apollo, which validates them with the
 * same rules (and the rate-limit guard applies the anonymous budget to
 * whatever reaches it without a valid credential).
 */
import type { NextFunction, Request, Response } from 'express';
import { GraphQLError, Kind, TypeInfo, ValidationContext, parse } from 'graphql';
import type { ASTVisitor, DocumentNode, GraphQLSchema, OperationDefinitionNode, ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import { documentLimitRules } from '../limits/graphql-limits';
import { formatError } from './format-error';
import { maxAnonymousCost, maxCost, operationCharge, overBudget } from '../limits/request-cost';
import type { LimitsConfig } from '../config/slices';
import { DomainError } from '../common/domain-error';
import { toGraphQLExtensions } from '../common/error-mapping';

/** The limits' errors for a document (none: within them), as the validation rules report them. */
export function limitErrors(schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[]): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const context = new ValidationContext(schema, document, new TypeInfo(schema), (e) => errors.push(e));
  // Each rule acts on OperationDefinition alone (src/limits/graphql-limits.ts): called on each operation, no walk of the document.
  const visitors = rules.map((rule) => rule(context) as ASTVisitor & { OperationDefinition?: (node: OperationDefinitionNode) => void });
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of visitors) {
      v.OperationDefinition?.(def);
      if (errors.length) return errors; // the first limit exceeded is enough to refuse
    }
  }
  return errors;
}

/** What the limits say of a text: the errors to answer (null: within them), and whether it only reads (queries alone). */
interface Verdict {
  errors: readonly ReturnType<typeof formatError>[] | null;
  readOnly: boolean;
  /** The most any of its operations reads, in units (its cost without its login/register fields): what the anonymous budget bounds. */
  readCost: number;
}

/** The query text of a GraphQL request over HTTP (POST JSON body or GET query string), if any. */
function queryOf(req: Request): string | undefined {
  const q = req.method === 'GET' ? (req.query as Record<string, unknown> | undefined)?.query : (req.body as Record<string, unknown> | undefined)?.query;
  return typeof q === 'string' ? q : undefined;
}

/**
 * Express middleware for `/graphql`: refuses (400, the errors Apollo's
 * validation would give) a document beyond the depth, complexity or cost
 * limits (the instance's, `limits`) before Apollo's validation runs. `schema()`: the schema once built
 * (undefined before: the request goes on to Apollo).
 */
export function graphqlPrecheck(schema: () => GraphQLSchema | undefined, limits: LimitsConfig) {
  // The limits as the instance is configured (as Apollo's rules are, src/graphql/graphql.module.ts).
  const rules: ValidationRule[] = documentLimitRules(limits);
  const anonymousMax = maxAnonymousCost(limits);
  const credentialMax = maxCost(limits);
  const verdicts = new LRUCache<string, Verdict>({ max: 1000, maxSize: 4_000_000, sizeCalculation: (_v, text) => Math.max(1, text.length) });
  return (req: Request, res: Response, next: NextFunction): void => {
    const text = req.path === '/graphql' || req.originalUrl.split('?')[0] === '/graphql' ? queryOf(req) : undefined;
    const built = text === undefined ? undefined : schema();
    if (text === undefined || !built) return next();
    let verdict = verdicts.get(text);
    if (verdict === undefined) {
      let document: DocumentNode | null = null;
      try {
        document = parse(text);
      } catch {
        document = null; // Apollo reports the syntax error
      }
      const errors = document ? limitErrors(built, document, rules) : [];
      let readCost = 0;
      if (document && !errors.length) {
        const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
        for (const d of document.definitions) {
          if (d.kind !== Kind.OPERATION_DEFINITION) continue;
          const charge = operationCharge(built, d, fragments);
          readCost = Math.max(readCost, charge.cost - charge.authCost);
        }
      }
      verdict = {
        errors: errors.length ? errors.map((e) => formatError(e.toJSON(), e)) : null,
        readOnly: !!document && document.definitions.every((d) => d.kind !== Kind.OPERATION_DEFINITION || d.operation === 'query'),
        readCost,
      };
      verdicts.set(text, verdict);
    }
    // What the response bound (src/common/response-limit.ts) needs: a read only document's response may be refused, a mutation's not (it has acted).
    res.locals.graphqlReadOnly = verdict.readOnly;
    if (!verdict.errors && verdict.readCost > anonymousMax && !req.headers.authorization) {
      // No credential at all: the anonymous budget, as the rate-limit guard applies it once a field would run (src/limits/rate-limit.guard.ts).
      const { message, details } = overBudget(verdict.readCost, anonymousMax, true, credentialMax);
      const refused = toGraphQLExtensions(new DomainError('VALIDATION_FAILED', message, details));
      res
        .status(400)
        .type('application/json')
        .send(JSON.stringify({ errors: [refused] }));
      return;
    }
    if (!verdict.errors) return next();
    res
      .status(400)
      .type('application/json')
      .send(JSON.stringify({ errors: verdict.errors }));
  };
}
