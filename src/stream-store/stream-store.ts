/**
 * One store for every hash-chained log (a stream): a match's, a tournament's,
 * any later one. A stream is keyed by its kind and its id; what differs per
 * kind is told by a StreamKind (the id's name in the hash, whether the
 * stored chain covers the time, whether export lines carry the id) and, for
 * the SQL, a StreamTable (its events table and its head row).
 *
 * The chain of every stream, for event n (seq n, from 1):
 *
 *   hash_n = hex(sha256(hash_{n-1} || canonical_json({<idKey>: id, seq, type, payload, actor[, time]})))
 *
 * (64 zeros before the first event; canonical JSON is RFC 8785, npm
 * `canonicalize`, as UTF-8; `time`, ISO 8601 UTC with milliseconds, only in
 * a timed chain). A match's stored chain is untimed (`scopa-match/1`) and its
 * `scopa-match/2` export timed (../match-formats/chain.ts, ../match-formats/export.ts); a tournament's is
 * timed both stored and exported (src/tournaments/tournament-log.ts).
 *
 * Every append is guarded the same way: it writes only if the head row is
 * still at the seq the events were decided at (and the primary key
 * (id, seq) refuses a second writer at a seq besides); an append that wrote
 * nothing is NOT_FOUND (no such stream) or VERSION_CONFLICT. The match store
 * keeps its own prepared, batched statements for that guard (../match-store/event-store.ts,
 * the hot path); StreamStore below is the generic one, over a StreamTable.
 *
 * Folds are cached per stream (FoldCache): the fold of the events up to a seq
 * never changes, so a cached fold costs only the events after it, and the
 * guard checks it against the log.
 *
 * Self-contained on purpose (relative imports only): every stream's store
 * builds on this file. See docs/match-store.md "Streams".
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../common/domain-error';

export const GENESIS_HASH = '0'.repeat(64);

/** What tells one kind of stream from another in its chain and its exports. */
export interface StreamKind {
  /** Its name in errors: `match`, `tournament`. */
  name: string;
  /** The id's key inside each event's hash (and on its export lines when linesCarryId). */
  idKey: string;
  /** Whether the stored chain hashes each event's time. */
  timed: boolean;
  /** Whether each export line starts with the stream's id. */
  linesCarryId: boolean;
}

/** What the chain covers of one event. */
export interface StreamEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
}

/** An event with its links (and its time, in a timed chain). */
export interface ChainedStreamEvent extends StreamEvent {
  time?: string;
  prevHash: string;
  hash: string;
}

/** One event line of a JSON Lines export, every stream alike (a tournament's also starts with its id: KeyedStreamLine). */
export interface StreamLine {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  /** ISO 8601 UTC with milliseconds. */
  time: string;
  prevHash: string;
  hash: string;
}

/** An export line of a stream whose lines carry its id (`tournamentId`). */
export type KeyedStreamLine<K extends string> = { [key in K]: string } & StreamLine;

/** Where a stream's log is at: its last seq and the hash of that event. */
export interface StreamHead {
  seq: number;
  hash: string;
}

/** A lone surrogate as JSON.stringify writes it (`\ud800`), not preceded by an escaped backslash. */
const ESCAPED_LONE_SURROGATE = /(?:^|[^\\])(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value cannot be canonicalized');
  // RFC 8785 takes I-JSON, which has no lone surrogates: refused, so that no chain hashes a text another JCS
  // implementation would refuse. canonicalize 2.x (the version whose engines accept Node 20) writes them escaped.
  if (text.includes('\\ud') && ESCAPED_LONE_SURROGATE.test(text)) throw new TypeError('lone surrogate in a canonicalized value');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash of one event after `prevHash`; `time` given: the timed chain. */
export function streamHash(kind: Pick<StreamKind, 'idKey'>, id: string, prevHash: string, e: StreamEvent, time?: string): string {
  const covered: Record<string, unknown> = { [kind.idKey]: id, seq: e.seq, type: e.type, payload: e.payload, actor: e.actor };
  if (time !== undefined) covered.time = time;
  return sha256Hex(prevHash + canonicalJson(covered));
}

/** A domain event as stored: its type apart from the rest (the payload). */
export function splitStreamEvent(event: { type: string }): { type: string; payload: Record<string, unknown> } {
  const { type, ...payload } = event as { type: string } & Record<string, unknown>;
  return { type, payload };
}

export function joinStreamEvent<E>(stored: { type: string; payload: Record<string, unknown> }): E {
  return { type: stored.type, ...stored.payload } as E;
}

/**
 * Chains domain events after `after` (null: from the start), all by one
 * actor; `time` (ISO text) is hashed in when the kind's stored chain is timed.
 */
export function chainStream(
  kind: StreamKind,
  id: string,
  after: StreamHead | null,
  events: readonly { type: string }[],
  actor: string | null,
  time?: string,
): ChainedStreamEvent[] {
  let seq = after?.seq ?? 0;
  let prev = after?.hash ?? GENESIS_HASH;
  const at = kind.timed ? time : undefined;
  if (kind.timed && at === undefined) throw new TypeError(`a ${kind.name} stream chains the time of its events`);
  return events.map((event) => {
    const { type, payload } = splitStreamEvent(event);
    const e: StreamEvent = { seq: ++seq, type, payload, actor };
    const hash = streamHash(kind, id, prev, e, at);
    const out: ChainedStreamEvent = at === undefined ? { ...e, prevHash: prev, hash } : { ...e, time: at, prevHash: prev, hash };
    prev = hash;
    return out;
  });
}

/** One export line of an event (its time as ISO text), the stream's id first when the kind's lines carry it. */
export function streamLine(kind: StreamKind, id: string, e: StreamEvent & { time: Date | string; prevHash: string; hash: string }): StreamLine {
  const line: StreamLine = {
    seq: e.seq,
    type: e.type,
    payload: e.payload,
    actor: e.actor,
    time: typeof e.time === 'string' ? e.time : e.time.toISOString(),
    prevHash: e.prevHash,
    hash: e.hash,
  };
  return kind.linesCarryId ? ({ [kind.idKey]: id, ...line } as StreamLine) : line;
}

export type ChainVerdict = { ok: true; events: number; lastHash: string } | { ok: false; seq: number; reason: string };

/**
 * Recomputes the chain of a log given in seq order (`timed`: each event's
 * `time` text inside its hash). `expectedLast` is the seq the stream's head
 * says it is at (to detect deleted events at the end).
 */
export function verifyStream(
  kind: StreamKind,
  id: string,
  events: readonly (ChainedStreamEvent | StreamLine)[],
  expectedLast?: number,
  timed = kind.timed,
): ChainVerdict {
  let prev = GENESIS_HASH;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const seq = i + 1;
    if (e.seq !== seq) {
      return {
        ok: false,
        seq,
        reason: e.seq > seq ? `event ${seq} is missing (the next one stored is ${e.seq})` : `event ${e.seq} is out of place at position ${seq}`,
      };
    }
    if (e.prevHash !== prev) return { ok: false, seq, reason: `prev_hash does not link to event ${seq - 1} (reordered, replaced or removed event)` };
    const hash = streamHash(kind, id, prev, e, timed ? (e as StreamLine).time : undefined);
    if (hash !== e.hash) return { ok: false, seq, reason: `hash does not match the event content${timed ? ' or time' : ''} (altered event)` };
    prev = hash;
  }
  if (expectedLast !== undefined && expectedLast !== events.length) {
    return expectedLast > events.length
      ? { ok: false, seq: events.length + 1, reason: `event ${events.length + 1} is missing (the ${kind.name} is at seq ${expectedLast})` }
      : { ok: false, seq: expectedLast + 1, reason: `event ${expectedLast + 1} is beyond the ${kind.name}'s recorded seq ${expectedLast}` };
  }
  return { ok: true, events: events.length, lastHash: prev };
}

// ---------------------------------------------------------------- the guard

/** Why a guarded append wrote nothing: no such stream, or its head is at another seq than expected. */
export function guardFailure(kind: StreamKind, id: string, expectedSeq: number, currentSeq: number | null): DomainError {
  if (currentSeq === null) return new DomainError('NOT_FOUND', `no ${kind.name} ${id}`);
  return new DomainError('VERSION_CONFLICT', `${kind.name} ${id} is at seq ${currentSeq}, not ${expectedSeq}`, { expectedSeq, currentSeq });
}

/** A unique violation from either driver adapter, as the text that names its constraint when known; null for another error. */
export function uniqueViolationText(err: unknown): string | null {
  const seen = new Set<unknown>();
  const walk = (e: unknown, depth: number): string | null => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 6) return null;
    seen.add(e);
    const o = e as Record<string, unknown>;
    const text = `${String(o.message ?? '')} ${String(o.code ?? '')} ${String(o.kind ?? '')} ${String(o.originalCode ?? '')}`;
    if (
      o.code === '23505' ||
      o.originalCode === '23505' ||
      o.kind === 'UniqueConstraintViolation' ||
      /duplicate key value|23505|Unique constraint/i.test(text)
    ) {
      return JSON.stringify(e, Object.getOwnPropertyNames(e)) + text;
    }
    for (const k of ['cause', 'meta', 'driverAdapterError', 'error']) {
      const found = walk(o[k], depth + 1);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(err, 0);
}

/** A concurrent writer took a seq first (the primary key refused the insert). */
export function seqTaken(kind: StreamKind, id: string, expectedSeq: number): DomainError {
  return new DomainError('VERSION_CONFLICT', `${kind.name} ${id} moved on from seq ${expectedSeq}`, { expectedSeq });
}

// ---------------------------------------------------------------- the cache

/**
 * Folds of streams by id, least recently used evicted, the newer of two kept.
 * Each is checked against the log by the append's guard, so an evicted or
 * stale one costs a read, never a wrong decision.
 */
export class FoldCache<F extends { seq: number }> {
  private readonly lru: LRUCache<string, F> | null;

  /** `capacity` 0 keeps nothing. */
  constructor(
    readonly capacity: number,
    label = 'fold cache',
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`${label} capacity: a whole number >= 0, not ${capacity}`);
    this.lru = capacity > 0 ? new LRUCache<string, F>({ max: capacity }) : null;
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  get(id: string): F | undefined {
    return this.lru?.get(id);
  }

  /** Keeps the newer of the cached and the given fold. */
  put(id: string, fold: F): void {
    if (!this.lru) return;
    const old = this.lru.peek(id);
    if (old && old.seq > fold.seq) return;
    this.lru.set(id, fold);
  }

  delete(id: string): void {
    this.lru?.delete(id);
  }
}

// ---------------------------------------------------------------- the generic SQL store

/** What runs a statement inside the caller's transaction (or on the client). */
export interface StreamSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** A stream's tables: its events (id, seq, type, payload, actor, time, prev_hash, hash) and its head row (id, current_seq, last_hash, the projection). */
export interface StreamTable<S> {
  events: string;
  /** The events table's column holding the stream id (a uuid). */
  idColumn: string;
  head: string;
  /** Columns of the head row that follow the state (besides current_seq and last_hash), each with its SQL type and its value. */
  projection: readonly { column: string; type: 'text' | 'int'; of: (state: S) => string | number | null }[];
}

/** A kind of stream whose log the generic store keeps: its chain, its table, and its fold. */
export interface StreamSpec<E, S> {
  kind: StreamKind;
  table: StreamTable<S>;
  initial(id: string): S;
  evolve(state: S, event: E): S;
  /** Folds kept in memory. */
  cacheSize: number;
}

/** A stream's state folded up to a seq. */
export interface Folded<S> extends StreamHead {
  state: S;
}

interface EventRow {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  time: Date;
  prev_hash: string;
  hash: string;
}

/**
 * The store of one kind of timed stream: the fold (cached; only newer events
 * are read), the export's lines, and the guarded append, ONE statement that
 * moves the head row from the expected seq and inserts the events.
 */
export class StreamStore<E extends { type: string }, S> {
  private readonly cache: FoldCache<Folded<S>>;
  private readonly eventsAfterSql: string;
  private readonly appendSql: string;
  private readonly currentSeqSql: string;

  constructor(readonly spec: StreamSpec<E, S>) {
    const t = spec.table;
    this.cache = new FoldCache<Folded<S>>(spec.cacheSize, `${spec.kind.name} fold cache`);
    this.eventsAfterSql = `SELECT seq, type, payload, actor, time, prev_hash, hash FROM ${t.events} WHERE ${t.idColumn} = $1::uuid AND seq > $2::int ORDER BY seq`;
    this.currentSeqSql = `SELECT current_seq FROM ${t.head} WHERE id = $1::uuid`;
    const sets = t.projection.map((p, i) => `${p.column} = $${i + 6}::${p.type}`).join(', ');
    this.appendSql = `
WITH h AS (
  UPDATE ${t.head} SET current_seq = $3::int, last_hash = $4::text${sets ? `, ${sets}` : ''}, updated_at = now()
  WHERE id = $1::uuid AND current_seq = $2::int
  RETURNING id
), e AS (
  INSERT INTO ${t.events} (${t.idColumn}, seq, type, payload, actor, time, prev_hash, hash)
  SELECT h.id, r.seq, r.type, r.payload, r.actor, r.time::timestamptz, r.prev_hash, r.hash
  FROM h CROSS JOIN jsonb_to_recordset($5::jsonb) AS r(seq int, type text, payload jsonb, actor text, time text, prev_hash text, hash text)
  RETURNING seq
)
SELECT seq FROM e ORDER BY seq`;
  }

  /** The state folded from the whole log (cached; only newer events are read). */
  async load(db: StreamSql, id: string): Promise<Folded<S>> {
    const cached = this.cache.get(id);
    const rows = await db.$queryRawUnsafe<EventRow[]>(this.eventsAfterSql, id, cached?.seq ?? 0);
    let folded: Folded<S> = cached ?? { seq: 0, hash: GENESIS_HASH, state: this.spec.initial(id) };
    for (const r of rows) folded = { seq: r.seq, hash: r.hash, state: this.spec.evolve(folded.state, joinStreamEvent<E>(r)) };
    this.remember(id, folded);
    return folded;
  }

  /** Every event of the log as its export lines, chained as stored. */
  async lines(db: StreamSql, id: string): Promise<StreamLine[]> {
    const rows = await db.$queryRawUnsafe<EventRow[]>(this.eventsAfterSql, id, 0);
    return rows.map((r) => streamLine(this.spec.kind, id, { ...r, time: new Date(r.time), prevHash: r.prev_hash }));
  }

  /**
   * Appends events after `folded` (inside the caller's transaction) and
   * returns the new fold; refused (NOT_FOUND, VERSION_CONFLICT) when the head
   * row is not at folded.seq. Not remembered until the caller has committed
   * (remember).
   */
  async append(tx: StreamSql, id: string, folded: Folded<S>, events: readonly E[], actor: string | null): Promise<Folded<S>> {
    if (events.length === 0) return folded;
    const { kind, table } = this.spec;
    const chained = chainStream(kind, id, folded, events, actor, new Date().toISOString());
    let state = folded.state;
    for (const e of events) state = this.spec.evolve(state, e);
    const last = chained[chained.length - 1];
    let written: { seq: number }[];
    try {
      written = await tx.$queryRawUnsafe<{ seq: number }[]>(
        this.appendSql,
        id,
        folded.seq,
        last.seq,
        last.hash,
        JSON.stringify(
          chained.map((c) => ({ seq: c.seq, type: c.type, payload: c.payload, actor: c.actor, time: c.time, prev_hash: c.prevHash, hash: c.hash })),
        ),
        ...table.projection.map((p) => p.of(state)),
      );
    } catch (err) {
      if (uniqueViolationText(err) !== null) throw seqTaken(kind, id, folded.seq);
      throw err;
    }
    if (written.length !== chained.length) throw guardFailure(kind, id, folded.seq, await this.currentSeq(tx, id));
    return { seq: last.seq, hash: last.hash, state };
  }

  async currentSeq(db: StreamSql, id: string): Promise<number | null> {
    const rows = await db.$queryRawUnsafe<{ current_seq: number }[]>(this.currentSeqSql, id);
    return rows[0]?.current_seq ?? null;
  }

  /** After a commit: the fold it made is the log's. */
  remember(id: string, folded: Folded<S>): void {
    this.cache.put(id, folded);
  }
}
