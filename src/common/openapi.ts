import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { stringify } from 'yaml';
import { DESCRIPTIONS } from './api-descriptions';
import { API_ERRORS, API_ERRORS_OMITTED, API_ETAG, API_IF_MATCH } from './api-errors';
import { ERROR_CODES } from './domain-error';
import type { ErrorCode } from './domain-error';
import { httpStatusOf, titleOf } from './error-mapping';
import { IS_PUBLIC, SKIP_RATE_LIMIT } from './public.decorator';

// Route metadata keys of Nest (@nestjs/common/constants) and of the auth decorators (src/common/principal.ts:
// common must not import auth, so the two keys are restated here; openapi.spec.ts checks they agree).
const METHOD_METADATA = 'method';
const ROUTE_ARGS_METADATA = '__routeArguments__';
const HEADERS_PARAMTYPE = 6; // RouteParamtypes.HEADERS
export const REQUIRED_SCOPE_KEY = 'scopa:requiredScope';
export const SESSION_ONLY_KEY = 'scopa:sessionOnly';
/** The scope of a route without @RequireScope (DEFAULT_SCOPE of src/common/principal.ts, restated: common must not import auth). */
export const DEFAULT_SCOPE_OF_ROUTES = 'match:read';

/** What the OpenAPI post-processing needs to know of a route, read from its decorators. */
export interface RouteContract {
  operationId: string;
  isPublic: boolean;
  rateLimited: boolean;
  sessionOnly: boolean;
  /** The API token scope the operation needs (a session holds every scope). */
  scope: string;
  /** The handler reads If-Match (optimistic concurrency on the match's seq). */
  acceptsIfMatch: boolean;
  /** The success response carries the match's seq as ETag. */
  sendsETag: boolean;
  /** Codes the handler declares with @ApiErrors. */
  errors: ErrorCode[];
  /** Codes the handler says it never answers with (@ApiOmitErrors). */
  omitted: ErrorCode[];
}

const meta = <T>(key: string, handler: object, cls: object): T | undefined =>
  (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, cls) as T | undefined);

/** Every controller route of the application, by OpenAPI operationId (the factory below: @ApiOperation's, else the method name). */
export function routeContracts(app: INestApplication): Map<string, RouteContract> {
  const routes = new Map<string, RouteContract>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as Type | null;
      if (!cls?.prototype) continue;
      for (const key of Object.getOwnPropertyNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[key];
        if (key === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const operationId = (Reflect.getMetadata('swagger/apiOperation', handler) as { operationId?: string } | undefined)?.operationId ?? key;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, key) ?? {}) as Record<string, { data?: unknown }>;
        const acceptsIfMatch =
          Reflect.getMetadata(API_IF_MATCH, handler) === true ||
          Object.entries(args).some(([k, v]) => k.startsWith(`${HEADERS_PARAMTYPE}:`) && String(v.data).toLowerCase() === 'if-match');
        const errors = [
          ...new Set([...((Reflect.getMetadata(API_ERRORS, cls) as ErrorCode[]) ?? []), ...((Reflect.getMetadata(API_ERRORS, handler) as ErrorCode[]) ?? [])]),
        ];
        if (routes.has(operationId)) throw new Error(`two routes have the OpenAPI operationId ${operationId}: give one an @ApiOperation({ operationId })`);
        routes.set(operationId, {
          operationId,
          isPublic: meta<boolean>(IS_PUBLIC, handler, cls) === true,
          rateLimited: meta<boolean>(SKIP_RATE_LIMIT, handler, cls) !== true,
          sessionOnly: meta<boolean>(SESSION_ONLY_KEY, handler, cls) === true,
          scope: meta<string>(REQUIRED_SCOPE_KEY, handler, cls) ?? DEFAULT_SCOPE_OF_ROUTES,
          acceptsIfMatch,
          sendsETag: Reflect.getMetadata(API_ETAG, handler) === true,
          errors,
          omitted: (Reflect.getMetadata(API_ERRORS_OMITTED, handler) as ErrorCode[] | undefined) ?? [],
        });
      }
    }
  }
  return routes;
}

type Json = Record<string, unknown>;
interface Operation extends Json {
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  description?: string;
  security?: Json[];
}

/**
 * The error codes an operation may answer with: those its metadata implies
 * (bad input where it takes any, a too large body where it takes one, 404
 * where the path names something, 401/403 unless public, 429 unless exempt
 * from the rate limit) plus those the handler declares.
 */
export function errorCodesOf(route: RouteContract, op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors);
  const params = op.parameters ?? [];
  if (params.length > 0 || op.requestBody) codes.add('VALIDATION_FAILED');
  if (op.requestBody) codes.add('PAYLOAD_TOO_LARGE');
  if (params.some((p) => p.in === 'path')) codes.add('NOT_FOUND');
  if (!route.isPublic) {
    codes.add('UNAUTHENTICATED');
    codes.add('FORBIDDEN');
  }
  if (route.rateLimited) codes.add('RATE_LIMITED');
  if (route.acceptsIfMatch) {
    codes.add('VERSION_CONFLICT');
    codes.add('VALIDATION_FAILED');
  }
  // Every operation reads or writes the database (the health checks omit it): a lost or read-only one is a retryable 503.
  codes.add('SERVICE_UNAVAILABLE');
  for (const c of route.omitted) codes.delete(c);
  return ERROR_CODES.filter((c) => codes.has(c));
}

const PROBLEM = 'application/problem+json';
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** Codes with details of their own: their problem documents have a schema of their own. */
const DETAILED: Partial<Record<ErrorCode, string>> = {
  ILLEGAL_PLAY: 'IllegalPlayProblem',
  DECLARATION_NOT_ALLOWED: 'DeclarationNotAllowedProblem',
  INVALID_RULESET: 'InvalidRulesetProblem',
  RATE_LIMITED: 'RateLimitedProblem',
  RATED_PLAY_SUSPENDED: 'RatedPlaySuspendedProblem',
  SERVICE_UNAVAILABLE: 'ServiceUnavailableProblem',
};

/** The problem+json schemas, true to src/common/error-mapping.ts (toProblem) and the details each code carries. */
function problemSchemas(): Record<string, Json> {
  const only = (code: ErrorCode, required: string[], properties: Json = {}): Json => ({
    allOf: [ref('Problem'), { type: 'object', required: ['code', ...required], properties: { code: { type: 'string', enum: [code] }, ...properties } }],
  });
  return {
    Problem: {
      type: 'object',
      description:
        "An RFC 9457 problem document (application/problem+json). `code` is stable and is the same as the GraphQL error's `extensions.code`; " +
        'details ride along as extension members (more may be added: ignore unknown members).',
      required: ['type', 'title', 'status', 'code', 'detail'],
      additionalProperties: true,
      properties: {
        type: {
          type: 'string',
          description:
            "A URI reference naming the problem type: the code's section of the error guide the service serves, /docs/guides/errors.html#<code in lower case>.",
          example: '/docs/guides/errors.html#not_your_turn',
        },
        title: { type: 'string', description: 'A short summary of the problem type.', example: 'Not your turn' },
        status: { type: 'integer', description: 'The HTTP status code.', example: 409 },
        code: { type: 'string', enum: [...ERROR_CODES], description: 'The stable error code.', example: 'NOT_YOUR_TURN' },
        detail: { type: 'string', description: 'What went wrong with this request, for people.', example: "it is seat 1's turn" },
        errors: {
          type: 'array',
          description: 'VALIDATION_FAILED of a request body or query: one entry per field at fault.',
          items: {
            type: 'object',
            required: ['field', 'messages'],
            properties: {
              field: { type: 'string', description: 'The field, dotted for nested ones (seats.0.type).' },
              messages: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        expectedSeq: {
          type: 'integer',
          nullable: true,
          description: 'VERSION_CONFLICT: the seq the request expected (null when it named none and the retries ran out).',
        },
        currentSeq: { type: 'integer', description: 'VERSION_CONFLICT: the current seq of the match; VALIDATION_FAILED of atSeq: the last seq.' },
        requiredScope: { type: 'string', description: 'FORBIDDEN: the API token scope the operation needs.' },
        presets: { type: 'array', items: { type: 'string' }, description: 'NOT_FOUND of a preset: the preset ids there are.' },
      },
    },
    IllegalPlayProblem: only('ILLEGAL_PLAY', ['reason'], {
      reason: {
        type: 'string',
        enum: ['UNKNOWN_CARD', 'CARD_NOT_IN_HAND', 'CAPTURE_NOT_ON_TABLE', 'MUST_CAPTURE', 'CAPTURE_NOT_LEGAL'],
        description: 'Which rule the play breaks.',
      },
    }),
    DeclarationNotAllowedProblem: only('DECLARATION_NOT_ALLOWED', ['reason'], {
      reason: {
        type: 'string',
        enum: [
          'NO_DECLARATIONS',
          'WINDOW_CLOSED',
          'ALREADY_DECLARED',
          'MATTA_VALUE_MISSING',
          'MATTA_VALUE_OUT_OF_RANGE',
          'MATTA_VALUE_NOT_EXPECTED',
          'HAND_DOES_NOT_QUALIFY',
        ],
        description: 'Why the declaration is refused.',
      },
    }),
    InvalidRulesetProblem: only('INVALID_RULESET', [], {
      option: {
        type: 'string',
        description: 'The option at fault (as the rules contract names it); absent when the preset itself is unknown.',
        example: 'target',
      },
    }),
    RatedPlaySuspendedProblem: only('RATED_PLAY_SUSPENDED', ['until', 'player'], {
      until: { type: 'string', format: 'date-time', description: 'When the suspension ends (ISO 8601).' },
      player: { type: 'string', description: 'The suspended player (the caller, or another player of the match to make).' },
    }),
    RateLimitedProblem: only('RATE_LIMITED', ['limit', 'remaining', 'reset', 'retryAfter'], {
      limit: { type: 'integer', description: 'Units of the bucket per window.' },
      remaining: { type: 'integer', description: 'Units left (0).' },
      reset: { type: 'integer', description: 'Seconds until the bucket is full again.' },
      retryAfter: { type: 'integer', description: 'Seconds to wait before retrying (also the Retry-After header).' },
      windowSeconds: { type: 'integer', description: 'The window of the bucket, in seconds.' },
      cost: { type: 'integer', description: 'Units this request costs.' },
    }),
    ServiceUnavailableProblem: only('SERVICE_UNAVAILABLE', ['retryAfter'], {
      retryAfter: {
        type: 'integer',
        description:
          'Seconds to wait before sending the same request again (also the Retry-After header); a command keeps its idempotencyKey, so it is never applied twice.',
      },
    }),
  };
}

function commonHeaders(): Record<string, Json> {
  const int = (description: string): Json => ({ description, schema: { type: 'integer' } });
  return {
    'RateLimit-Limit': int(
      'Units of the tightest rate-limit bucket this request spent from, per window. Sent on every response once the request reached the rate limiter (errors included; not on a body the parser refused).',
    ),
    'RateLimit-Remaining': int('Units left in that bucket.'),
    'RateLimit-Reset': int('Seconds until that bucket is full again.'),
    'RateLimit-Policy': { description: 'The bucket as `<limit>;w=<window seconds>`.', schema: { type: 'string', example: '300;w=60' } },
    'Retry-After': int('Seconds to wait before retrying.'),
    ETag: { description: 'The match\'s seq, quoted (e.g. "42"): send it back in If-Match.', schema: { type: 'string', example: '"42"' } },
  };
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Payload too large',
  422: 'Illegal play',
  429: 'Too many requests',
  503: 'Unavailable',
};

/** The problem schema of one status: the detailed codes' own schemas, the others as Problem with `code` narrowed to them. */
function problemSchemaOf(codes: ErrorCode[]): Json {
  const plain = codes.filter((c) => !DETAILED[c]);
  const parts: Json[] = codes.filter((c) => DETAILED[c]).map((c) => ref(DETAILED[c]!));
  if (plain.length > 0) parts.push({ allOf: [ref('Problem'), { type: 'object', properties: { code: { type: 'string', enum: plain } } }] });
  return parts.length === 1 ? parts[0] : { oneOf: parts };
}

function withHeaders(response: Json, names: string[]): void {
  if (names.length === 0) return;
  const headers = (response.headers ?? {}) as Json;
  for (const n of names) headers[n] ??= headerRef(n);
  response.headers = headers;
}

/** Adds to one operation what its route metadata says: errors, headers, security. */
export function completeOperation(route: RouteContract, op: Operation): void {
  const rateHeaders = route.rateLimited ? RATE_LIMIT_HEADERS : [];
  for (const [status, response] of Object.entries(op.responses)) {
    if (/^2/.test(status)) {
      if (route.sendsETag && response.content) withHeaders(response, ['ETag']);
      withHeaders(response, rateHeaders);
      if (response.description === '') response.description = 'Success.';
    }
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route, op)) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response: Json = {
      // 422 is a play's (Illegal play) but for an analysis too large (its own title).
      description: `${(status === 422 && codes.every((c) => c === 'ANALYSIS_TOO_LARGE') ? undefined : STATUS_TEXT[status]) ?? titleOf(codes[0])}: ${codes.join(', ')}.`,
      content: { [PROBLEM]: { schema: problemSchemaOf(codes) } },
    };
    // Errors after the rate limiter carry the RateLimit-* headers too; declared on 429 only, where they matter.
    if (status === 429) withHeaders(response, [...rateHeaders, 'Retry-After']);
    if (codes.includes('SERVICE_UNAVAILABLE')) withHeaders(response, ['Retry-After']);
    op.responses[String(status)] = response;
  }
  if (route.acceptsIfMatch && !(op.parameters ?? []).some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'if-match')) {
    (op.parameters ??= []).push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'The ETag (seq) the client last saw, e.g. "42" (W/"42" and * accepted): the command runs only on that seq, else 412 VERSION_CONFLICT. Same as expectedSeq in the body; both given must agree.',
      schema: { type: 'string' },
    });
  }
  if (route.isPublic) op.security = [];
  else if (route.sessionOnly) op.security = [{ session: [] }];
  else op.security = [{ session: [] }, { apiToken: [] }];
  if (!route.isPublic) {
    const who = route.sessionOnly
      ? 'A password session only (an API token is refused: 403).'
      : `An API token needs the \`${route.scope}\` scope (a session holds every scope).`;
    op.description = op.description ? `${op.description}\n\n${who}` : who;
    op['x-required-scope'] = route.sessionOnly ? 'session' : route.scope;
  }
}

const DESCRIPTION = [
  'REST API (/v1) for third-party clients; the same capabilities are offered over GraphQL at /graphql (GraphiQL at /graphiql).',
  '',
  '**Authentication.** `Authorization: Bearer <token>`: a session JWT (POST /v1/auth/login or /v1/auth/register; every scope), or a personal API token (`scopa_pat_...`, the scopes it was created with). Public operations need none (a bad token there is ignored).',
  '',
  "**Errors** are `application/problem+json` documents (RFC 9457) with a stable `code` (the same as GraphQL's `extensions.code`) and per-code details (`reason` for ILLEGAL_PLAY and DECLARATION_NOT_ALLOWED, `option` for INVALID_RULESET, `limit`/`remaining`/`reset`/`retryAfter` for RATE_LIMITED). Bad input changes nothing.",
  '',
  '**Database failover.** While the database is lost, failing over or read-only, any operation may answer 503 SERVICE_UNAVAILABLE with `Retry-After` (and `retryAfter`): send the same request again after that many seconds; a command with the same `idempotencyKey` is applied at most once, and a retry of one that was applied answers its result.',
  '',
  "**Rate limits.** Each operation costs units from the caller's bucket (an account, or an address when anonymous); responses carry `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`, and a 429 carries `Retry-After`.",
  '',
  "**Concurrency.** Match responses carry the match's seq as `ETag`; commands accept it back in `If-Match` (or `expectedSeq`) and an `idempotencyKey` for safe retries.",
].join('\n');

/** The GraphQL twins' descriptions (`XModel` or input `X` <-> GraphQL `X`) where the decorators gave none; a $ref property takes none (OpenAPI 3.0 ignores siblings of $ref). */
function describeSchemas(schemas: Record<string, Json>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const twin = name.replace(/Model$/, '');
    if (!schema.description && DESCRIPTIONS[twin]) schema.description = DESCRIPTIONS[twin];
    for (const [prop, p] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      if (!p.description && !p.$ref && DESCRIPTIONS[`${twin}.${prop}`]) p.description = DESCRIPTIONS[`${twin}.${prop}`];
    }
  }
}

/**
 * Nullability as OpenAPI 3.0.3 reads it: `nullable: true` adds null to the
 * schema's own `type` only, so the other keywords beside it must let null
 * through too. @nestjs/swagger writes a nullable object property as
 * `nullable: true` beside `allOf: [$ref]` (the $ref'd object refuses null) and
 * a nullable enum without null among its values: strict validators refused
 * every `result: null`, `reveal: null` and `bot: null` the service answers.
 * The first becomes `oneOf: [$ref, null]`, the second gets null in its enum.
 */
export function declareNullables(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) declareNullables(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true && Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties) {
    const [target] = schema.allOf as Json[];
    delete schema.allOf;
    delete schema.type;
    delete schema.nullable;
    schema.oneOf = [target, { type: 'object', nullable: true, enum: [null], description: 'null' }];
  }
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  for (const value of Object.values(schema)) declareNullables(value);
}

/** The version of the public API: package.json's (CHANGELOG.md, contracts/releases/). */
function apiVersion(): string {
  return (JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The OpenAPI 3 document of the REST API, built from the controllers' decorators and completed from their metadata. */
export function openApiDocument(app: INestApplication): Record<string, unknown> {
  const config = new DocumentBuilder()
    .setTitle('Scopa as a service')
    .setDescription(DESCRIPTION)
    .setVersion(apiVersion())
    .addServer('/', 'The instance serving this document')
    .build();
  const doc = SwaggerModule.createDocument(app, config, { operationIdFactory: (_c, method) => method }) as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: Json;
    security?: Json[];
  };
  const routes = routeContracts(app);
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const route = routes.get(String(op.operationId));
      if (!route) throw new Error(`no route for the OpenAPI operation ${String(op.operationId)}`);
      completeOperation(route, op);
    }
  }
  doc.components.securitySchemes = {
    session: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'A session JWT from POST /v1/auth/login or /v1/auth/register: every scope; ends with logout or expiry.',
    },
    apiToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'scopa_pat',
      description:
        'A personal API token (scopa_pat_...) created with POST /v1/tokens: only the scopes it was created with (read, play); never account management.',
    },
  };
  describeSchemas(doc.components.schemas as Record<string, Json>);
  doc.components.schemas = { ...(doc.components.schemas as Json), ...problemSchemas() };
  declareNullables(doc.components.schemas);
  declareNullables(doc.paths);
  doc.components.headers = commonHeaders();
  doc.security = [{ session: [] }, { apiToken: [] }];
  return doc as unknown as Record<string, unknown>;
}

export function openApiYaml(app: INestApplication): string {
  return stringify(openApiDocument(app), { lineWidth: 0, aliasDuplicateObjects: false });
}
