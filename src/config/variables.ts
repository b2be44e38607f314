/**
 * Every environment variable the service reads, declared once: its type,
 * default and accepted range, as a zod schema over the raw string (unset and
 * blank both mean "use the default"). src/config/config.ts reads them; no
 * other file under src/ touches process.env (test/config.e2e-spec.ts
 * enforces it), and the Environment table (docs/operations.md "Environment") is checked against this
 * list and TOOLING_VARIABLES (src/config/tooling.ts).
 */
import { createECDH, createPrivateKey, createPublicKey } from 'node:crypto';
import { isIP } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import proxyaddr from 'proxy-addr';
import { durationSeconds, ISMCTS_DEFAULT_ITERATIONS } from '../engine';

/** One variable: how its text becomes a value, the default as the Environment table writes it, what it accepts. */
export interface Variable<T> {
  readonly schema: z.ZodType<T, string | undefined>;
  /** The default as text (null: unset by default). */
  readonly default: string | null;
  /** What a valid value is, in words: part of the error that stops the start. */
  readonly accepts: string;
}

/** Unset, empty and blank are all "not set"; otherwise the trimmed text. */
const raw = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

function variable<T>(schema: z.ZodType<T, string | undefined>, def: string | null, accepts: string): Variable<T> {
  return { schema, default: def, accepts };
}

interface Range {
  /** Inclusive bounds. */
  min?: number;
  max?: number;
  /** Exclusive bounds. */
  above?: number;
  below?: number;
}

function rangeText(kind: string, r: Range): string {
  const parts = [
    r.min !== undefined ? `>= ${r.min}` : null,
    r.above !== undefined ? `> ${r.above}` : null,
    r.max !== undefined ? `<= ${r.max}` : null,
    r.below !== undefined ? `< ${r.below}` : null,
  ].filter(Boolean);
  return `${kind}${parts.length ? ' ' + parts.join(' and ') : ''}`;
}

function numberSchema(r: Range, int: boolean) {
  let n = z.coerce.number<string>();
  if (int) n = n.int();
  if (r.min !== undefined) n = n.min(r.min);
  if (r.max !== undefined) n = n.max(r.max);
  if (r.above !== undefined) n = n.gt(r.above);
  if (r.below !== undefined) n = n.lt(r.below);
  return n;
}

/** An integer in range; `def` when unset. */
function integer(def: number, r: Range): Variable<number> {
  return variable(
    raw.pipe(numberSchema(r, true).optional()).transform((v) => v ?? def),
    String(def),
    rangeText('an integer', r),
  );
}

/** An optional integer in range (undefined when unset). */
function optionalInteger(r: Range): Variable<number | undefined> {
  return variable(raw.pipe(numberSchema(r, true).optional()), null, rangeText('an integer', r));
}

/** A decimal number in range; `def` when unset. */
function decimal(def: number, r: Range): Variable<number> {
  return variable(
    raw.pipe(numberSchema(r, false).optional()).transform((v) => v ?? def),
    String(def),
    rangeText('a number', r),
  );
}

/** Free text; `def` when unset. */
function text(def: string): Variable<string> {
  return variable(
    raw.transform((v) => v ?? def),
    def,
    'text',
  );
}

/** Optional free text (undefined when unset). */
function optionalText(accepts = 'text'): Variable<string | undefined> {
  return variable(raw, null, accepts);
}

/** A postgres:// or postgresql:// URL with a host (unset: none). */
function postgresUrl(): Variable<string | undefined> {
  const schema = raw.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        const url = new URL(v);
        return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'not a postgres:// or postgresql:// URL' },
  );
  return variable(schema, null, 'a PostgreSQL URL (postgres:// or postgresql://, with a host)');
}

const BYTES = /^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i;

/** A body size as body-parser takes it (64kb, 1mb, 1048576). */
function bytes(def: string): Variable<string> {
  return variable(
    raw.pipe(z.string().regex(BYTES).optional()).transform((v) => v ?? def),
    def,
    'a size such as 64kb, 1mb or 1048576',
  );
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The address to listen on: an IP address or a host name (unset: every interface). */
function listenAddress(): Variable<string | undefined> {
  const schema = raw.refine((v) => v === undefined || isIP(v) !== 0 || HOST_NAME.test(v), { message: 'not an IP address or host name' });
  return variable(schema, null, 'an IP address (127.0.0.1, ::1, 0.0.0.0, ::) or a host name');
}

const MAX_DURATION_S = 30 * 86_400;

/** An ISO 8601 duration above zero and at most P30D, in ms. */
function duration(def: string): Variable<number> {
  const accepts = `an ISO 8601 duration above zero and at most P30D, such as ${def}`;
  const schema = raw.transform((v, ctx) => {
    const seconds = durationSeconds(v ?? def);
    if (seconds === null || seconds <= 0 || seconds > MAX_DURATION_S) {
      ctx.addIssue({ code: 'custom', message: 'not such a duration' });
      return z.NEVER;
    }
    return Math.round(seconds * 1000);
  });
  return variable(schema, def, accepts);
}

/** `true` or `false`. */
function flag(): Variable<boolean> {
  return variable(
    raw.pipe(z.enum(['true', 'false']).optional()).transform((v) => v === 'true'),
    null,
    'true or false',
  );
}

// RATING_PERIOD: weeks, days, hours, minutes and seconds (no months or years: their length varies).
const RATING_PERIOD = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

function ratingPeriod(def: string): Variable<number> {
  const schema = raw.transform((v, ctx) => {
    const m = RATING_PERIOD.exec(v ?? def);
    const [w, d, h, min, s] = (m?.slice(1) ?? []).map((x) => Number(x ?? 0));
    const ms = ((((w * 7 + d) * 24 + h) * 60 + min) * 60 + s) * 1000;
    if (!m || !(ms > 0)) {
      ctx.addIssue({ code: 'custom', message: 'not such a duration' });
      return z.NEVER;
    }
    return ms;
  });
  return variable(schema, def, 'an ISO 8601 duration such as P7D or PT12H');
}

/** CLIENT_SEED_WINDOW: seconds, up to three decimals, 0 to 86400; in ms. */
function seedWindow(def: number): Variable<number> {
  const schema = raw.transform((v, ctx) => {
    if (v === undefined) return def * 1000;
    const seconds = /^\d{1,5}(\.\d{1,3})?$/.test(v) ? Number(v) : NaN;
    if (!(seconds >= 0 && seconds <= 86_400)) {
      ctx.addIssue({ code: 'custom', message: 'not a number of seconds in range' });
      return z.NEVER;
    }
    return Math.round(seconds * 1000);
  });
  return variable(schema, String(def), 'a number of seconds from 0 to 86400 (such as 30 or 0.5; 0: no wait)');
}

/** STREAM_KEEPALIVE: seconds (0.05 to 3600), in ms. */
function keepAlive(def: number): Variable<number> {
  return variable(
    raw.pipe(numberSchema({ min: 0.05, max: 3600 }, false).optional()).transform((v) => Math.round((v ?? def) * 1000)),
    String(def),
    'seconds between keep-alive lines, a number from 0.05 to 3600',
  );
}

/** TRUST_PROXY: Express's `trust proxy` syntax; kept as text (Express and oidc-provider take it), checked here. */
function trustProxySetting(): Variable<string | undefined> {
  const schema = raw.superRefine((v, ctx) => {
    if (v === undefined || v === 'true' || v === 'false' || /^\d+$/.test(v)) return;
    try {
      proxyaddr.compile(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });
  return variable(schema, null, 'false, true, a hop count, or addresses/CIDRs/loopback/linklocal/uniquelocal separated by commas');
}

/** The kinds of chat room (src/chat/chat-room.ts CHAT_ROOM_KINDS), for the per-kind settings. */
export const CHAT_ROOM_KIND_NAMES = ['match', 'spectators', 'lobby', 'tournament', 'team', 'direct'] as const;

/** A comma-separated list of chat room kinds, `none` for none; `def` when unset. */
function chatRoomKinds(def: string): Variable<string[]> {
  const kinds = CHAT_ROOM_KIND_NAMES as readonly string[];
  return variable(
    raw
      .transform((v) => v ?? def)
      .pipe(
        z
          .string()
          .transform((v) => (v === 'none' ? [] : v.split(',').map((s) => s.trim())))
          .refine((items) => items.every((i) => kinds.includes(i)), { message: 'unknown room kind' }),
      ),
    def,
    `none, or a comma-separated list of ${kinds.join(', ')}`,
  );
}

/** Comma-separated list (undefined when unset or empty). */
function list(): Variable<string[] | undefined> {
  return variable(
    raw.transform((v) => {
      const items = v
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return items?.length ? items : undefined;
    }),
    null,
    'a comma-separated list',
  );
}

/** EXPORT_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM (its line breaks may be written `\n`). */
function ed25519PrivateKey(): Variable<KeyObject | undefined> {
  const schema = raw.transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      const key = createPrivateKey(v.replace(/\\n/g, '\n'));
      if (key.asymmetricKeyType === 'ed25519') return key;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'not an Ed25519 private key in PEM' });
    return z.NEVER;
  });
  return variable(schema, null, 'an Ed25519 private key, PKCS#8 PEM (openssl genpkey -algorithm ed25519), line breaks as newlines or \\n');
}

/** EXPORT_PREVIOUS_KEYS: retired Ed25519 public keys, each its JWK `x` (base64url of 32 bytes), separated by commas. */
function ed25519PublicKeys(): Variable<string[]> {
  const schema = raw.transform((v, ctx) => {
    const items =
      v
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? [];
    for (const x of items) {
      try {
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
        if (/^[A-Za-z0-9_-]{43}$/.test(x)) continue;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: `${x} is not an Ed25519 public key` });
      return z.NEVER;
    }
    return items;
  });
  return variable(schema, null, "a comma-separated list of Ed25519 public keys, each the JWK's x (base64url, 43 characters)");
}

/** One issuer whose signed exports are attributed on import, and where its public keys are. */
export interface TrustedIssuer {
  /** Its public URL, as its exports' `issuer` says it (no trailing slash). */
  issuer: string;
  /** An http(s) URL or a file path of its key set; default `<issuer>/.well-known/scopa-keys.json`. */
  keys: string;
}

/** IMPORT_TRUSTED_ISSUERS: `issuer` or `issuer=keys` entries separated by commas. */
function trustedIssuers(): Variable<TrustedIssuer[]> {
  const schema = raw.transform((v, ctx) => {
    const out: TrustedIssuer[] = [];
    for (const entry of v
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? []) {
      const eq = entry.indexOf('=');
      const issuer = (eq < 0 ? entry : entry.slice(0, eq)).trim().replace(/\/+$/, '');
      const keys = eq < 0 ? `${issuer}/.well-known/scopa-keys.json` : entry.slice(eq + 1).trim();
      let url: URL | null = null;
      try {
        url = new URL(issuer);
      } catch {
        // reported below
      }
      if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || keys === '') {
        ctx.addIssue({ code: 'custom', message: `${entry}: the issuer must be an http(s) URL, optionally followed by =keys` });
        return z.NEVER;
      }
      out.push({ issuer, keys });
    }
    return out;
  });
  return variable(schema, null, 'a comma-separated list of issuer URLs, each optionally =URL-or-file of its key set');
}

// ---- Redis Sentinel (docs/operations.md "Redis failover (Sentinel)")

/** A Sentinel's address: host:port (IPv6 in brackets); the port defaults to Sentinel's 26379. */
export interface SentinelAddress {
  host: string;
  port: number;
}

const SENTINEL_ADDRESS = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s[\]]+))(?::(\d{1,5}))?$/;

/** REDIS_SENTINELS: a comma-separated list of host:port. */
function sentinelAddresses(): Variable<SentinelAddress[] | undefined> {
  const schema = raw.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const out: SentinelAddress[] = [];
    for (const entry of v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = SENTINEL_ADDRESS.exec(entry);
      const host = m?.[1] ?? m?.[2];
      const port = m?.[3] === undefined ? 26379 : Number(m[3]);
      if (
        !host ||
        (m?.[1] !== undefined && isIP(host) !== 6) ||
        (m?.[2] !== undefined && isIP(host) === 0 && !HOST_NAME.test(host)) ||
        port < 1 ||
        port > 65535
      ) {
        ctx.addIssue({ code: 'custom', message: `${entry}: not a host:port` });
        return z.NEVER;
      }
      out.push({ host, port });
    }
    return out.length ? out : undefined;
  });
  return variable(schema, null, 'a comma-separated list of Sentinel addresses host:port (IPv6 as [addr]:port; the port defaults to 26379)');
}

/** REDIS_SENTINEL_NAME: the master group's name, as `sentinel monitor <name> ...` gives it. */
function sentinelGroupName(): Variable<string | undefined> {
  const schema = raw.refine((v) => v === undefined || /^[A-Za-z0-9._-]{1,128}$/.test(v), { message: 'not a master group name' });
  return variable(schema, null, 'the name of the master group the Sentinels monitor (letters, digits, . _ -)');
}

/** A rule between variables, checked once each one is valid alone: the problems it finds, each on one variable. */
export type CrossCheck = (values: ConfigValues) => { variable: VariableName; message: string }[];

/**
 * Where Redis is: REDIS_URL (one server) or REDIS_SENTINELS with
 * REDIS_SENTINEL_NAME (the group's current master, found through Sentinel),
 * never both: with Sentinel the master's address is Sentinel's to give, and a
 * URL beside it would be a second, conflicting answer.
 */
const redisTarget: CrossCheck = (v) => {
  const problems: ReturnType<CrossCheck> = [];
  if (v.REDIS_SENTINELS && !v.REDIS_SENTINEL_NAME) problems.push({ variable: 'REDIS_SENTINEL_NAME', message: 'required when REDIS_SENTINELS is set' });
  if (v.REDIS_SENTINEL_NAME && !v.REDIS_SENTINELS) problems.push({ variable: 'REDIS_SENTINELS', message: 'required when REDIS_SENTINEL_NAME is set' });
  if (v.REDIS_SENTINELS && v.REDIS_URL) {
    problems.push({ variable: 'REDIS_URL', message: "set either REDIS_URL or REDIS_SENTINELS, not both (Sentinel gives the master's address)" });
  }
  return problems;
};

// ---- end of Redis Sentinel

// ---- Web Push (src/push/vapid-keys.ts)

/** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: base64url of a P-256 key's uncompressed point (65 bytes) or scalar (32 bytes). */
function vapidKey(kind: 'public' | 'private'): Variable<string | undefined> {
  const bytes = kind === 'public' ? 65 : 32;
  const schema = raw.refine(
    (v) => v === undefined || (/^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === bytes && (kind === 'private' || v.startsWith('B'))),
    { message: `not a VAPID ${kind} key` },
  );
  return variable(schema, null, `a P-256 ${kind} key in base64url (${bytes} bytes), as npx web-push generate-vapid-keys prints it`);
}

/** VAPID_SUBJECT: the contact push services may reach, a mailto: or https: URL. */
function vapidSubject(def: string): Variable<string> {
  const schema = raw
    .refine((v) => v === undefined || /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/[^\s/]+/.test(v), { message: 'not a mailto: or https: URL' })
    .transform((v) => v ?? def);
  return variable(schema, def, 'a mailto: or https: URL');
}

/** Both VAPID keys or neither, and the public key the private one's. */
const vapidPair: CrossCheck = (v) => {
  const pub = v.VAPID_PUBLIC_KEY;
  const priv = v.VAPID_PRIVATE_KEY;
  if (!pub && !priv) return [];
  if (!pub) return [{ variable: 'VAPID_PUBLIC_KEY', message: 'required when VAPID_PRIVATE_KEY is set' }];
  if (!priv) return [{ variable: 'VAPID_PRIVATE_KEY', message: 'required when VAPID_PUBLIC_KEY is set' }];
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(priv, 'base64url'));
  } catch {
    return [{ variable: 'VAPID_PRIVATE_KEY', message: 'not a P-256 private key' }];
  }
  if (!ecdh.getPublicKey().equals(Buffer.from(pub, 'base64url'))) {
    return [{ variable: 'VAPID_PUBLIC_KEY', message: "not VAPID_PRIVATE_KEY's public key" }];
  }
  return [];
};

// ---- end of Web Push

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const MAX_INT = 2 ** 31 - 1;

export const VARIABLES = {
  // HTTP
  PORT: integer(3000, { min: 0, max: 65535 }),
  HOST: listenAddress(),
  BODY_LIMIT: bytes('64kb'),
  IMPORT_BODY_LIMIT: bytes('1mb'),
  CORS_ORIGINS: list(),
  TRUST_PROXY: trustProxySetting(),
  WEB_DIR: text('web/dist'),
  GRAPHIQL_DIR: text('graphiql/dist'),
  DOCS_DIR: text('docs-site'),
  LOG_LEVEL: variable(raw.pipe(z.enum(LOG_LEVELS).optional()), null, LOG_LEVELS.join(', ')),
  INSTANCE_ID: text('local'),
  NODE_ENV: optionalText(),

  // database
  DATABASE_URL: optionalText('a PostgreSQL URL'),
  /** The lag-tolerant reads' server, a streaming standby (src/database/read-replica.ts); ignored, with a warning, without DATABASE_URL. */
  DATABASE_READ_URL: postgresUrl(),
  DATA_DIR: text('./data'),
  PGLITE_ANALYZE_MS: integer(3_600_000, { min: 0 }),
  PGLITE_SHARED_BUFFERS_MB: integer(16, { min: 1, max: 1024 }),
  PGLITE_HEAP_GROWING_PERCENT: integer(10, { min: 0, max: 1000 }),
  PG_POOL_SIZE: integer(10, { min: 1, max: 10_000 }),
  MIGRATIONS_DIR: optionalText('a folder'),
  APPEND_IN_FLIGHT: integer(1, { min: 1, max: 1000 }),
  SNAPSHOT_CACHE_SIZE: integer(10_000, { min: 0, max: 10_000_000 }),

  // Redis
  REDIS_URL: optionalText('a Redis URL'),
  REDIS_SENTINELS: sentinelAddresses(),
  REDIS_SENTINEL_NAME: sentinelGroupName(),
  RATE_LIMIT_REDIS_PREFIX: text('scopa:rl'),

  // credentials
  JWT_SECRET: optionalText(),
  SESSION_CACHE_TTL: decimal(60, { min: 0 }),
  JWT_TTL: decimal(3600, { above: 0 }),
  SESSION_REFRESH_TTL: decimal(30 * 24 * 3600, { above: 0 }),
  OAUTH_ISSUER: optionalText('an origin such as https://scopa.example'),
  OAUTH_ACCESS_TOKEN_TTL: integer(3600, { min: 1 }),
  OAUTH_REFRESH_TOKEN_TTL: integer(30 * 24 * 3600, { min: 1 }),
  OAUTH_CODE_TTL: integer(60, { min: 1 }),
  OAUTH_GRANT_TTL: integer(365 * 24 * 3600, { min: 1 }),
  // argon2's own floor is 8 KiB per lane (one lane here)
  ARGON2_MEMORY_KIB: integer(19_456, { min: 8, max: MAX_INT }),
  ARGON2_PASSES: integer(2, { min: 1, max: 1000 }),

  // signed exports, trusted imports
  EXPORT_SIGNING_KEY: ed25519PrivateKey(),
  EXPORT_PREVIOUS_KEYS: ed25519PublicKeys(),
  IMPORT_TRUSTED_ISSUERS: trustedIssuers(),

  // rate limits and caps
  RATE_LIMIT: integer(600, { min: 1 }),
  RATE_LIMIT_WINDOW_MS: integer(60_000, { min: 1 }),
  TOKEN_RATE_LIMIT: optionalInteger({ min: 1 }),
  AUTH_RATE_LIMIT: integer(10, { min: 1 }),
  AUTH_RATE_LIMIT_WINDOW_MS: integer(60_000, { min: 1 }),
  WS_MAX_CONNECTIONS_PER_ADDRESS: integer(100, { min: 1 }),
  WS_MAX_CONNECTIONS: optionalInteger({ min: 1 }),
  WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: integer(100, { min: 1 }),
  STREAM_KEEPALIVE: keepAlive(7),
  GRAPHQL_MAX_DEPTH: integer(10, { min: 1 }),
  GRAPHQL_MAX_COMPLEXITY: integer(1000, { min: 1 }),
  GRAPHQL_MAX_COST: integer(50, { min: 1 }),
  GRAPHQL_MAX_COST_ANONYMOUS: integer(20, { min: 1 }),
  RESPONSE_MAX_BYTES: integer(4 * 1024 * 1024, { min: 16 * 1024 }),
  GRAPHQL_SCHEMA_FILE: optionalText('a file path'),

  // clocks and starts
  CLOCK_POLL_MS: integer(1000, { min: 0 }),
  CLOCK_BATCH: integer(20, { min: 1 }),
  CLOCK_LEASE_MS: integer(30_000, { min: 1 }),
  CLOCK_LOW_FRACTION: decimal(0.1, { above: 0, below: 1 }),
  CLIENT_SEED_WINDOW: seedWindow(30),

  // bots
  BOT_SWEEP_MS: integer(5000, { min: 0 }),
  BOT_ISMCTS_ITERATIONS: integer(ISMCTS_DEFAULT_ITERATIONS, { min: 1 }),
  /** Above ISMCTS_MAX_MS (80) the bots still think 80 ms at most. */
  BOT_ISMCTS_MS: decimal(40, { min: 1 }),
  BOT_MATCHES_PER_ACCOUNT: integer(3, { min: 0 }),

  // lobby, challenges, rematches, presence
  SEEKS_PER_ACCOUNT: integer(10, { min: 1 }),
  /** Open (created or started) tournaments one account may have created (docs/tournaments.md). */
  TOURNAMENT_LIMIT: integer(10, { min: 1 }),
  SEEK_IDLE_EXPIRY: integer(60, { min: 1 }),
  SEEK_SWEEP_MS: integer(5000, { min: 0 }),
  CHALLENGE_TTL: duration('P1D'),
  REMATCH_TTL: duration('PT5M'),
  OPPONENT_GONE_AFTER: duration('PT30S'),
  PRESENCE_TTL: duration('PT30S'),

  // webhooks
  WEBHOOK_POLL_MS: integer(1000, { min: 0 }),
  WEBHOOK_BATCH: integer(4, { min: 1 }),
  WEBHOOK_TIMEOUT_MS: integer(10_000, { min: 1 }),
  WEBHOOK_MAX_ATTEMPTS: integer(6, { min: 1 }),
  WEBHOOK_BACKOFF_MS: integer(10_000, { min: 0 }),
  WEBHOOK_MAX_BACKOFF_MS: integer(3_600_000, { min: 0 }),
  WEBHOOK_ALLOW_PRIVATE: flag(),

  // Web Push (docs/notifications.md)
  VAPID_PUBLIC_KEY: vapidKey('public'),
  VAPID_PRIVATE_KEY: vapidKey('private'),
  VAPID_SUBJECT: vapidSubject('mailto:push@scopa.invalid'),
  PUSH_ALLOW_PRIVATE: flag(),
  PUSH_CONCURRENCY: integer(4, { min: 1, max: 100 }),
  PUSH_TIMEOUT_MS: integer(10_000, { min: 1 }),

  // ratings
  RATING_PERIOD: ratingPeriod('P7D'),

  // post-game analysis (docs/analysis.md)
  ANALYSIS_WORKERS: integer(1, { min: 0 }),
  ANALYSIS_ITERATIONS: integer(1000, { min: 1 }),
  ANALYSIS_QUEUE_PER_ACCOUNT: integer(3, { min: 1 }),
  ANALYSIS_QUEUE_MAX: integer(100, { min: 1 }),
  ANALYSIS_MAX_DECISIONS: integer(2000, { min: 1 }),
  ANALYSIS_LARGE_DECISIONS: integer(300, { min: 1 }),
  ANALYSIS_LARGE_WORKERS: integer(1, { min: 0 }),
  ANALYSIS_RETRY_LIMIT: integer(3, { min: 0 }),
  ANALYSIS_RETRY_DELAY_SECONDS: integer(5, { min: 1 }),
  ANALYSIS_JOB_TIMEOUT_SECONDS: integer(900, { min: 1 }),
  ANALYSIS_POLL_SECONDS: decimal(2, { min: 0.5 }),
  ANALYSIS_MAINTENANCE_SECONDS: integer(30, { min: 1 }),

  // chat (docs/social.md "Chat")
  CHAT_RETENTION_DAYS: integer(90, { min: 1 }),
  CHAT_SWEEP_MS: integer(600_000, { min: 0 }),
  CHAT_RATE_LIMIT: integer(20, { min: 1 }),
  CHAT_ROOM_RATE_LIMIT: integer(300, { min: 1 }),
  CHAT_RATE_LIMIT_WINDOW_MS: integer(60_000, { min: 1000 }),
  CHAT_FLOOD_WINDOW_MS: integer(30_000, { min: 0 }),
  CHAT_WORD_FILTER: chatRoomKinds('lobby,tournament'),

  // the job queue (docs/operations.md "Background work")
  JOB_WORKERS: integer(1, { min: 0 }),
  JOB_POLL_SECONDS: decimal(5, { min: 0.5 }),
  JOB_MAINTENANCE_SECONDS: integer(10, { min: 1 }),
  ADMIN_USERS: list(),

  // reports and moderation (docs/social.md "Reports and moderation")
  MODERATORS: list(),

  // vacations for correspondence play (docs/async-play.md "Vacations"): days of vacation an account may take in any 365 days (0: none)
  VACATION_DAYS_PER_YEAR: integer(30, { min: 0 }),
} as const satisfies Record<string, Variable<unknown>>;

export type VariableName = keyof typeof VARIABLES;

/** The typed values, one per variable. */
export type ConfigValues = { readonly [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never };

/** The rules between variables (./config.ts checks them after each variable alone). */
export const CROSS_CHECKS: readonly CrossCheck[] = [redisTarget, vapidPair];
