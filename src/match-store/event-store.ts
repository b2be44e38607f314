/**
 * The event store: append-only match logs in PostgreSQL (through Prisma, raw
 * SQL), each append ONE statement: it guards the expected seq on the matches
 * row, inserts the events and updates the projection (seq, status, turn,
 * winner, revealed seed) together. A lost race either finds the row at another
 * seq (the guard) or collides on the primary key (match_id, seq): both become
 * DomainError('VERSION_CONFLICT'), and the log keeps no gap and no duplicate.
 */
import type { MatchEvent } from '../engine';
import { DomainError } from '../common/domain-error';
import { prismaRowReader } from '../database/database';
import type { Prisma, RowReader, StatementRunner } from '../database/database';
import { prepared } from '../database/prepared-statements';
import { AppendBatcher } from './append-batcher';
import { BATCH_START_TYPES, GENESIS_HASH, MATCH_STREAM, chainEvents, type ChainedEvent, type StoredEvent } from '../match-formats/chain';
import { guardFailure, seqTaken, uniqueViolationText } from '../stream-store/stream-store';
import { lockRulesetVersionCtes } from '../ruleset-versions/ruleset-version';
import type { RulesetVersionRef } from '../ruleset-versions/ruleset-version';

/** What runs a statement: the client, or a transaction of the caller's (see MatchStore.createInTransaction). */
export type SqlRunner = Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** The columns of matches that follow the log (written by each append). */
export interface MatchProjection {
  status: 'open' | 'playing' | 'over';
  turnSeat: number | null;
  turnPlayer: string | null;
  /** Whether the seat to move has its turn clock paused (ClockPaused, `scopa-rules/5`): the clock trigger keeps its time left. */
  turnPaused: boolean;
  winner: number | null;
  /** Set once, by the append that ends the match. */
  revealedSeed: string | null;
  /** The seats after this append, when they changed (a seat was taken); null keeps them. */
  seats?: unknown;
  /** Seated players to record in match_players (seat -> player); existing rows are kept. */
  players: { seat: number; playerId: string }[];
}

export interface NewMatch {
  id: string;
  preset: string;
  options: unknown;
  rulesVersion: string;
  seats: unknown;
  seedCommitment: string;
  /** SECRET: hex of the seed. */
  seed: string;
  createdBy: string;
  /** The saved ruleset version the match is created from, as the caller resolved it (see CREATE_FROM_RULESET_SQL). */
  ruleset: RulesetVersionRef | null;
  /** public (listed in the lobby while a seat is open; default) or private (joinable by id only). */
  visibility?: 'public' | 'private';
}

export type { RulesetVersionRef };

export interface AppendOptions {
  actor: string | null;
  commandKey?: string | null;
  commandHash?: string | null;
  /** Hash of the event at expectedSeq, when the caller knows it (saves a read). */
  prevHash?: string;
  projection: MatchProjection;
}

/** Everything needed to fold a match: SECRET (holds the seed). Never hand it to a transport. */
export interface MatchLog {
  matchId: string;
  seed: string;
  revealedSeed: string | null;
  rulesetId: string | null;
  visibility: 'public' | 'private';
  currentSeq: number;
  events: StoredEvent[];
}

/** What an export's header takes from a finished match's row. */
export interface FinishedMatchRow {
  id: string;
  preset: string;
  options: unknown;
  rulesVersion: string;
  seats: unknown;
  createdBy: string;
  seedCommitment: string;
  revealedSeed: string;
  createdAt: Date;
  endedAt: Date | null;
  /** The match it was imported from (its chain's root), or null. */
  sourceId: string | null;
}

/** The matches row of an imported match (see MatchArchive.importJsonl). */
export interface ImportedMatch extends Pick<NewMatch, 'preset' | 'options' | 'rulesVersion' | 'seats' | 'seedCommitment' | 'createdBy'> {
  /** The revealed seed (an import is a finished match). */
  seed: string;
  winner: number | null;
  createdAt: Date;
  endedAt: Date;
  sourceId: string;
  sourceHash: string;
  turnTimeLimit: string | null;
  onExpiry: string | null;
  /** The trusted issuer that signed it (seats attributed as `username@host`); null for an unverified import. */
  importIssuer: string | null;
  /** match_players rows: the attributed seats of a trusted import; the importer alone (seat -1) for an unverified one. */
  players: { seat: number; playerId: string }[];
}

export interface CommandRecord {
  commandHash: string | null;
  events: StoredEvent[];
}

interface EventRow {
  match_id: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  created_at: Date;
  prev_hash: string;
  hash: string;
}

const EVENT_COLUMNS = 'match_id::text AS match_id, seq, type, payload, actor, created_at, prev_hash, hash';

function toStored(r: EventRow): StoredEvent {
  return { matchId: r.match_id, seq: r.seq, type: r.type, payload: r.payload, actor: r.actor, time: r.created_at, prevHash: r.prev_hash, hash: r.hash };
}

const ROWS = `jsonb_to_recordset($ROWS::jsonb) AS r(seq int, type text, payload jsonb, actor text, prev_hash text, hash text, command_key text, command_hash text)`;
const PLAYERS = `jsonb_to_recordset($PLAYERS::jsonb) AS pl(player_id text, seat int)`;

/** What follows the `m` row of a create or an append: its events (from the rows parameter), then the seats they take. */
function appendedTail(rowsParam: string, playersParam: string): string {
  return `, e AS (
  INSERT INTO match_events (match_id, seq, type, payload, actor, prev_hash, hash, command_key, command_hash)
  SELECT m.id, r.seq, r.type, r.payload, r.actor, r.prev_hash, r.hash, r.command_key, r.command_hash
  FROM m CROSS JOIN ${ROWS.replace('$ROWS', rowsParam)}
  RETURNING seq, created_at
), p AS (
  INSERT INTO match_players (match_id, player_id, seat)
  SELECT m.id, pl.player_id, pl.seat FROM m CROSS JOIN ${PLAYERS.replace('$PLAYERS', playersParam)}
  ON CONFLICT DO NOTHING
)
SELECT seq, created_at FROM e ORDER BY seq`;
}

const APPEND_SQL_WITH_PLAYERS = `
WITH m AS (
  UPDATE matches SET current_seq = $3::int, status = $4::text, turn_seat = $5::int, turn_player = $6::text, turn_paused = $12::boolean, winner = $7::int,
    revealed_seed = COALESCE(revealed_seed, $8::text), seats = COALESCE($11::jsonb, seats),
    ended_at = CASE WHEN $4::text = 'over' AND ended_at IS NULL THEN now() ELSE ended_at END,
    updated_at = now()
  WHERE id = $1::uuid AND current_seq = $2::int
  RETURNING id
)${appendedTail('$9', '$10')}`;

// The common case (a play): no seat changes, so no match_players insert.
export const APPEND_SQL = prepared(
  APPEND_SQL_WITH_PLAYERS.replace(/\), p AS \([\s\S]*?ON CONFLICT DO NOTHING\n/, '')
    .replace(', seats = COALESCE($11::jsonb, seats)', '')
    .replace('$12::boolean', '$10::boolean'),
);

// Plays of several matches in one statement: each match's guard is checked on its own row, and
// only the matches whose guard held get their events. Matches appear once each (see AppendBatcher).
const APPEND_MANY_SQL = prepared(`
WITH i AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(match_id uuid, expected_seq int, next_seq int, status text, turn_seat int, turn_player text, turn_paused boolean, winner int, revealed_seed text)
), m AS (
  UPDATE matches SET current_seq = i.next_seq, status = i.status, turn_seat = i.turn_seat, turn_player = i.turn_player, turn_paused = i.turn_paused, winner = i.winner,
    revealed_seed = COALESCE(matches.revealed_seed, i.revealed_seed),
    ended_at = CASE WHEN i.status = 'over' AND matches.ended_at IS NULL THEN now() ELSE matches.ended_at END,
    updated_at = now()
  FROM i
  WHERE matches.id = i.match_id AND matches.current_seq = i.expected_seq
  RETURNING matches.id
), e AS (
  INSERT INTO match_events (match_id, seq, type, payload, actor, prev_hash, hash, command_key, command_hash)
  SELECT m.id, r.seq, r.type, r.payload, r.actor, r.prev_hash, r.hash, r.command_key, r.command_hash
  FROM jsonb_to_recordset($2::jsonb) AS r(match_id uuid, seq int, type text, payload jsonb, actor text, prev_hash text, hash text, command_key text, command_hash text)
  JOIN m ON m.id = r.match_id
  RETURNING match_id, seq, created_at
)
SELECT match_id::text AS match_id, seq, created_at FROM e ORDER BY match_id, seq`);

const MATCH_COLUMNS =
  'id, preset, options, rules_version, seats, status, current_seq, seed_commitment, seed, created_by, ruleset_id, turn_seat, turn_player, turn_time_limit, on_expiry, visibility';
const MATCH_VALUES =
  '$1::uuid, $2::text, $3::jsonb, $4::text, $5::jsonb, $6::text, $7::int, $8::text, $9::text, $10::text, $11::uuid, $12::int, $13::text, $16::text, $17::text, $18::text';
const CREATE_TAIL = appendedTail('$14', '$15');

// A match of a preset: no ruleset to look at.
const CREATE_SQL = `
WITH m AS (
  INSERT INTO matches (${MATCH_COLUMNS}) VALUES (${MATCH_VALUES})
  RETURNING id
)${CREATE_TAIL}`;

// A match from a saved ruleset version ($11), resolved by the caller as preset $19 and overrides $20.
// The match is inserted only if the version still holds exactly that, and this same statement locks
// the version (makes it immutable): `k`, the rulesets' fragment (src/ruleset-versions/ruleset-version.ts).
// Otherwise (a save edited it after it was read) nothing is written and the caller reads it again.
const CREATE_FROM_RULESET_SQL = `
WITH ${lockRulesetVersionCtes('$11', '$19', '$20')}, m AS (
  INSERT INTO matches (${MATCH_COLUMNS}) SELECT ${MATCH_VALUES} FROM k
  RETURNING id
)${CREATE_TAIL}`;

// The reads of the hot path (statements are prepared on PostgreSQL, see prepared-statements.ts).
const CURRENT_SEQ_SQL = prepared('SELECT current_seq FROM matches WHERE id = $1::uuid');
const HASH_AT_SQL = prepared('SELECT hash FROM match_events WHERE match_id = $1::uuid AND seq = $2::int');
const EVENTS_SQL = prepared(
  `SELECT ${EVENT_COLUMNS} FROM match_events WHERE match_id = $1::uuid AND seq >= $2::int AND ($4::int IS NULL OR seq <= $4::int) ORDER BY seq LIMIT $3::int`,
);
const LOAD_LOG_SQL =
  prepared(`SELECT m.seed AS m_seed, m.revealed_seed AS m_revealed, m.ruleset_id::text AS m_ruleset, m.visibility AS m_visibility, m.current_seq AS m_seq,
  e.match_id::text AS match_id, e.seq, e.type, e.payload, e.actor, e.created_at, e.prev_hash, e.hash
  FROM matches m LEFT JOIN match_events e ON e.match_id = m.id AND e.seq > $2::int AND ($3::int IS NULL OR e.seq <= $3::int)
  WHERE m.id = $1::uuid ORDER BY e.seq`);
const EVENTS_OF_MATCHES_SQL = `SELECT ${EVENT_COLUMNS} FROM match_events
  WHERE match_id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) ORDER BY match_id, seq`;
const FINISHED_MATCHES_SQL = `SELECT id::text AS id, preset, options, rules_version AS "rulesVersion", seats, created_by AS "createdBy",
    seed_commitment AS "seedCommitment", revealed_seed AS "revealedSeed", created_at AS "createdAt", ended_at AS "endedAt", source_id AS "sourceId"
  FROM matches WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) AND status = 'over' AND revealed_seed IS NOT NULL`;
const FIND_COMMAND_SQL = prepared('SELECT seq, command_hash FROM match_events WHERE match_id = $1::uuid AND command_key = $2::text');

/** A unique violation from either driver adapter, with the constraint it names when known. */
export function uniqueViolation(err: unknown): { constraint: string } | null {
  const all = uniqueViolationText(err);
  if (all === null) return null;
  const constraint = /command_key/.test(all)
    ? 'match_events_match_id_command_key_key'
    : /match_events_pkey|\(match_id, seq\)|"seq"/.test(all)
      ? 'match_events_pkey'
      : /matches_pkey/.test(all)
        ? 'matches_pkey'
        : 'unknown';
  return { constraint };
}

/** An append decided and chained, waiting for its statement. */
interface PendingAppend {
  matchId: string;
  expectedSeq: number;
  chained: ChainedEvent[];
  projection: MatchProjection;
  commandKey: string | null;
  commandHash: string | null;
}

/** A failed append statement as a domain error where it is one (the guard's conflicts, a reused command key). */
function appendError(err: unknown, a: PendingAppend): unknown {
  const unique = uniqueViolation(err);
  if (unique?.constraint === 'match_events_match_id_command_key_key') {
    return new DomainError('IDEMPOTENCY_KEY_REUSED', 'this command key was already used in this match', { duplicate: true });
  }
  if (unique) return seqTaken(MATCH_STREAM, a.matchId, a.expectedSeq);
  return err;
}

export interface EventStoreOptions {
  /**
   * Append statements under way at once (default 1; StoreModule passes APPEND_IN_FLIGHT); more appends wait and go out together.
   * One keeps the most plays per statement and the fewest server backends busy at once: on two cores it gave
   * the same saturation throughput as 4 and about half the play p99 at 500 plays/s (bench:api).
   */
  appendsInFlight?: number;
  /** Most appends in one statement (default 64). */
  maxAppendBatch?: number;
  /** Bulk reads (the rows and events of many matches) straight through the driver; through Prisma when not given. */
  rows?: RowReader;
  /** The appends and the reads of one match straight through the driver (Database.statements); through Prisma when not given. */
  statements?: StatementRunner;
}

export class EventStore {
  private readonly batcher: AppendBatcher<PendingAppend, StoredEvent[]>;
  private readonly rows: RowReader;
  private readonly statement: StatementRunner;

  constructor(
    private readonly prisma: Prisma,
    options: EventStoreOptions = {},
  ) {
    this.rows = options.rows ?? prismaRowReader(prisma);
    this.statement = options.statements ?? prismaRowReader(prisma);
    this.batcher = new AppendBatcher<PendingAppend, StoredEvent[]>({
      runOne: (a) => this.appendOne(a),
      runBatch: (appends) => this.appendMany(appends),
      maxInFlight: options.appendsInFlight ?? 1,
      maxBatch: options.maxAppendBatch ?? 64,
    });
  }

  private rowsOf(chained: ChainedEvent[], commandKey: string | null, commandHash: string | null) {
    return chained.map((c, i) => ({
      seq: c.seq,
      type: c.type,
      payload: c.payload,
      actor: c.actor,
      prev_hash: c.prevHash,
      hash: c.hash,
      // the key marks the command's first event (the start of its batch)
      command_key: i === 0 ? commandKey : null,
      command_hash: i === 0 ? commandHash : null,
    }));
  }

  private toRows(chained: ChainedEvent[], commandKey: string | null, commandHash: string | null): string {
    return JSON.stringify(this.rowsOf(chained, commandKey, commandHash));
  }

  private stored(matchId: string, chained: ChainedEvent[], rows: { seq: number; created_at: Date }[]): StoredEvent[] {
    return chained.map((c, i) => ({ ...c, matchId, time: rows[i]?.created_at ?? new Date() }));
  }

  /**
   * Creates the matches row and appends the first events (seq 1..), in one
   * statement. From a ruleset, the same statement locks that version, and
   * writes nothing if the version no longer holds what the caller resolved:
   * CONFLICT with details.rulesetChanged = true (resolve it again and retry).
   */
  async create(match: NewMatch, events: MatchEvent[], options: AppendOptions, db: SqlRunner = this.prisma): Promise<StoredEvent[]> {
    const chained = chainEvents(match.id, 0, GENESIS_HASH, events, options.actor);
    const p = options.projection;
    const settings = events[0]?.type === 'MatchCreated' ? events[0].settings : null;
    const ruleset = match.ruleset;
    let rows: { seq: number; created_at: Date }[];
    try {
      rows = await db.$queryRawUnsafe<{ seq: number; created_at: Date }[]>(
        ruleset ? CREATE_FROM_RULESET_SQL : CREATE_SQL,
        match.id,
        match.preset,
        JSON.stringify(match.options),
        match.rulesVersion,
        JSON.stringify(match.seats),
        p.status,
        chained.length,
        match.seedCommitment,
        match.seed,
        match.createdBy,
        ruleset?.id ?? null,
        p.turnSeat,
        p.turnPlayer,
        this.toRows(chained, options.commandKey ?? null, options.commandHash ?? null),
        JSON.stringify(p.players.map((x) => ({ player_id: x.playerId, seat: x.seat }))),
        // the clock trigger reads these from the row instead of the first event, on every append
        settings?.turnTimeLimit ?? null,
        settings?.onExpiry ?? null,
        match.visibility ?? 'public',
        ...(ruleset ? [ruleset.preset, JSON.stringify(ruleset.overrides)] : []),
      );
    } catch (err) {
      if (uniqueViolation(err)) throw new DomainError('CONFLICT', `match ${match.id} already exists`);
      throw err;
    }
    if (rows.length === 0 && ruleset) {
      throw new DomainError('CONFLICT', `ruleset ${ruleset.id} changed while the match was created from it`, { rulesetId: ruleset.id, rulesetChanged: true });
    }
    return this.stored(match.id, chained, rows);
  }

  /**
   * Appends events after expectedSeq. Throws VERSION_CONFLICT when the log is
   * not at expectedSeq (or a concurrent writer took the seq), NOT_FOUND when
   * there is no such match, and rethrows a command-key collision as
   * IDEMPOTENCY_KEY_REUSED with details.duplicate = true (the caller resolves it).
   * Plays of different matches may share a statement (see AppendBatcher); each
   * is acknowledged only once its own statement has committed.
   */
  async append(matchId: string, expectedSeq: number, events: MatchEvent[], options: AppendOptions): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const prevHash = options.prevHash ?? (await this.hashAt(matchId, expectedSeq));
    const chained = chainEvents(matchId, expectedSeq, prevHash, events, options.actor);
    const p = options.projection;
    const pending: PendingAppend = {
      matchId,
      expectedSeq,
      chained,
      projection: p,
      commandKey: options.commandKey ?? null,
      commandHash: options.commandHash ?? null,
    };
    const seatsChanged = p.players.length > 0 || (p.seats !== undefined && p.seats !== null);
    // Seat changes are rare (joins): they keep their own statement.
    return seatsChanged ? this.appendOne(pending) : this.batcher.submit(matchId, pending);
  }

  private async appendOne(a: PendingAppend): Promise<StoredEvent[]> {
    const p = a.projection;
    let rows: { seq: number; created_at: Date }[];
    try {
      const params = [
        a.matchId,
        a.expectedSeq,
        a.expectedSeq + a.chained.length,
        p.status,
        p.turnSeat,
        p.turnPlayer,
        p.winner,
        p.revealedSeed,
        this.toRows(a.chained, a.commandKey, a.commandHash),
      ];
      const seatsChanged = p.players.length > 0 || (p.seats !== undefined && p.seats !== null);
      rows = seatsChanged
        ? await this.statement<{ seq: number; created_at: Date }>(APPEND_SQL_WITH_PLAYERS, [
            ...params,
            JSON.stringify(p.players.map((x) => ({ player_id: x.playerId, seat: x.seat }))),
            p.seats === undefined || p.seats === null ? null : JSON.stringify(p.seats),
            p.turnPaused,
          ])
        : await this.statement<{ seq: number; created_at: Date }>(APPEND_SQL, [...params, p.turnPaused]);
    } catch (err) {
      throw appendError(err, a);
    }
    if (rows.length !== a.chained.length) throw await this.guardFailed(a);
    return this.stored(a.matchId, a.chained, rows);
  }

  /** Several matches' appends in one statement: one outcome each (the events, or the error of that append alone). */
  private async appendMany(appends: PendingAppend[]): Promise<(StoredEvent[] | Error)[]> {
    const matches = JSON.stringify(
      appends.map((a) => ({
        match_id: a.matchId,
        expected_seq: a.expectedSeq,
        next_seq: a.expectedSeq + a.chained.length,
        status: a.projection.status,
        turn_seat: a.projection.turnSeat,
        turn_player: a.projection.turnPlayer,
        turn_paused: a.projection.turnPaused,
        winner: a.projection.winner,
        revealed_seed: a.projection.revealedSeed,
      })),
    );
    const rows = JSON.stringify(appends.flatMap((a) => this.rowsOf(a.chained, a.commandKey, a.commandHash).map((r) => ({ match_id: a.matchId, ...r }))));
    const written = await this.statement<{ match_id: string; seq: number; created_at: Date }>(APPEND_MANY_SQL, [matches, rows]);
    const byMatch = new Map<string, { seq: number; created_at: Date }[]>();
    for (const r of written) {
      const list = byMatch.get(r.match_id) ?? [];
      list.push(r);
      byMatch.set(r.match_id, list);
    }
    return Promise.all(
      appends.map(async (a) => {
        const mine = byMatch.get(a.matchId) ?? [];
        if (mine.length === a.chained.length) return this.stored(a.matchId, a.chained, mine);
        return this.guardFailed(a);
      }),
    );
  }

  /** Why an append's guard matched no row: no such match, or the log is at another seq. */
  private async guardFailed(a: PendingAppend): Promise<DomainError> {
    return guardFailure(MATCH_STREAM, a.matchId, a.expectedSeq, await this.currentSeq(a.matchId));
  }

  async currentSeq(matchId: string): Promise<number | null> {
    const rows = await this.statement<{ current_seq: number }>(CURRENT_SEQ_SQL, [matchId]);
    return rows[0]?.current_seq ?? null;
  }

  async hashAt(matchId: string, seq: number): Promise<string> {
    if (seq === 0) return GENESIS_HASH;
    const rows = await this.statement<{ hash: string }>(HASH_AT_SQL, [matchId, seq]);
    if (!rows[0]) throw new DomainError('NOT_FOUND', `no event ${seq} in match ${matchId}`);
    return rows[0].hash;
  }

  /** Events with seq in [fromSeq, fromSeq + limit), in order. */
  async events(matchId: string, fromSeq = 1, limit = 1_000_000, toSeq?: number): Promise<StoredEvent[]> {
    const rows = await this.statement<EventRow>(EVENTS_SQL, [matchId, fromSeq, limit, toSeq ?? null]);
    return rows.map(toStored);
  }

  /** The rows of those of several matches that are over with their seed revealed (what an export's header needs), one statement. */
  async finishedMatchesOf(matchIds: readonly string[]): Promise<FinishedMatchRow[]> {
    return this.rows<FinishedMatchRow>(FINISHED_MATCHES_SQL, [JSON.stringify(matchIds)]);
  }

  /** Every event of several matches, by match, in seq order (one statement). */
  async eventsOfMatches(matchIds: readonly string[]): Promise<Map<string, StoredEvent[]>> {
    const rows = await this.rows<EventRow>(EVENTS_OF_MATCHES_SQL, [JSON.stringify(matchIds)]);
    const out = new Map<string, StoredEvent[]>();
    for (const r of rows) {
      const list = out.get(r.match_id) ?? [];
      list.push(toStored(r));
      out.set(r.match_id, list);
    }
    return out;
  }

  /**
   * Writes an imported, finished match: its row, its events as they were
   * chained (hashes kept, times from the export) and its players, in one
   * transaction and in that order. The order matters: the async-play trigger
   * on matches fires on the row's insert, before any match_players row
   * exists, so an import sends no match_finished webhook and sets no clock.
   * A unique violation on (source_id, source_hash) means the same log was
   * imported concurrently (the caller looks it up).
   */
  async importLog(id: string, m: ImportedMatch, events: readonly ChainedEvent[], times: readonly Date[]): Promise<void> {
    const rows = JSON.stringify(
      events.map((e, i) => ({
        seq: e.seq,
        type: e.type,
        payload: e.payload,
        actor: e.actor,
        prev_hash: e.prevHash,
        hash: e.hash,
        created_at: times[i].toISOString(),
      })),
    );
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(
        `INSERT INTO matches (id, preset, options, rules_version, seats, status, current_seq, seed_commitment, seed, revealed_seed, created_by,
           winner, turn_time_limit, on_expiry, created_at, updated_at, ended_at, imported, source_id, source_hash, import_issuer)
         VALUES ($1::uuid, $2::text, $3::jsonb, $4::text, $5::jsonb, 'over', $6::int, $7::text, $8::text, $8::text, $9::text,
           $10::int, $11::text, $12::text, $13::timestamptz, $14::timestamptz, $14::timestamptz, true, $15::text, $16::text, $17::text)`,
        id,
        m.preset,
        JSON.stringify(m.options),
        m.rulesVersion,
        JSON.stringify(m.seats),
        events.length,
        m.seedCommitment,
        m.seed,
        m.createdBy,
        m.winner,
        m.turnTimeLimit,
        m.onExpiry,
        m.createdAt,
        m.endedAt,
        m.sourceId,
        m.sourceHash,
        m.importIssuer,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO match_events (match_id, seq, type, payload, actor, prev_hash, hash, created_at)
         SELECT $1::uuid, r.seq, r.type, r.payload, r.actor, r.prev_hash, r.hash, r.created_at
         FROM jsonb_to_recordset($2::jsonb) AS r(seq int, type text, payload jsonb, actor text, prev_hash text, hash text, created_at timestamptz)`,
        id,
        rows,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO match_players (match_id, player_id, seat) SELECT $1::uuid, pl.player_id, pl.seat FROM ${PLAYERS.replace('$PLAYERS', '$2')}`,
        id,
        JSON.stringify(m.players.map((x) => ({ player_id: x.playerId, seat: x.seat }))),
      );
    });
  }

  /**
   * SECRET: the seed and the events after `afterSeq`, read in one statement
   * (so the seq and the events agree). Null when there is no such match.
   */
  async loadLog(matchId: string, afterSeq = 0, toSeq?: number): Promise<MatchLog | null> {
    const rows = await this.statement<EventRow & { m_seed: string; m_revealed: string | null; m_ruleset: string | null; m_visibility: string; m_seq: number }>(
      LOAD_LOG_SQL,
      [matchId, afterSeq, toSeq ?? null],
    );
    if (rows.length === 0) return null;
    const first = rows[0];
    return {
      matchId,
      seed: first.m_seed,
      revealedSeed: first.m_revealed,
      rulesetId: first.m_ruleset,
      visibility: first.m_visibility === 'private' ? 'private' : 'public',
      currentSeq: first.m_seq,
      events: rows.filter((r) => r.seq !== null).map(toStored),
    };
  }

  /** The command that used this key, and the events of its batch. */
  async findCommand(matchId: string, commandKey: string): Promise<CommandRecord | null> {
    const head = await this.statement<{ seq: number; command_hash: string | null }>(FIND_COMMAND_SQL, [matchId, commandKey]);
    if (!head[0]) return null;
    const after = await this.events(matchId, head[0].seq, 64);
    const batch: StoredEvent[] = [];
    for (const e of after) {
      if (batch.length > 0 && BATCH_START_TYPES.has(e.type)) break;
      batch.push(e);
    }
    return { commandHash: head[0].command_hash, events: batch };
  }
}
