/**
 * The match store: a plain class over the event store (StoreModule provides
 * it to Nest). Every command is decided by the engine against the state
 * folded from the log and appended with the seq it was decided at; whoever
 * issues it (the matches service, a bot seat, the clock), the reactions
 * registered with `onAppended` follow each append.
 *
 * The store is the one reader and writer of its tables (matches,
 * match_players, match_events): besides the command path it answers the
 * other features' questions about matches (the read methods below, their
 * statements in ./match-reads.ts). Audit, exports, imports, archive pages and
 * the ratings' reads of finished logs are the match archive's
 * (./match-archive.ts); the deadlines (match_clocks) are read, queued as jobs and dropped
 * through ./match-clocks.ts. src/table-ownership.spec.ts keeps it so.
 *
 * Secrecy: the seed lives in matches.seed and in cached states only. Nothing
 * returned by a public method carries it before the match is over, except
 * `state()`, `current()`, `atLeast()` and `peek()`, which are for the
 * server's own use (views, bots) and must never be handed to a transport as
 * they are: src/matches/match-views.ts chooses what a caller sees.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { decide, evolve, initialState, replay, seedCommitment, seedFromHex, toHex } from '../engine';
import type { Command, MatchEvent, MatchSettings, MatchState, SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { assertWritable, prismaRowReader } from '../database/database';
import type { Prisma, StatementRunner } from '../database/database';
import { canonicalJson, chainEvents, joinEvent, sha256Hex, GENESIS_HASH } from '../match-formats/chain';
import type { StoredEvent } from '../match-formats/chain';
import { EventStore } from './event-store';
import type { MatchProjection, RulesetVersionRef, SqlRunner } from './event-store';
import { MatchReads } from './match-reads';
import type { CorrespondenceSeat, LobbyFilter, LobbyRow, MyTurnRow, TurnRow } from './match-reads';
import { encodeCommandKey } from './command-key';
import type { CommandKey } from './command-key';
import { SnapshotCache } from './snapshot-cache';
import type { Snapshot } from './snapshot-cache';

export type { CommandKey } from './command-key';
export type { ClockKind, CorrespondenceSeat, LobbyFilter, LobbyRow, MyTurnRow, TurnRow } from './match-reads';

export type MatchStatus = 'open' | 'playing' | 'over';

/** A matches row as the API may see it (no seed; revealedSeed only once over). */
export interface MatchSummary {
  id: string;
  preset: string;
  options: unknown;
  rulesVersion: string;
  seats: unknown;
  status: string;
  currentSeq: number;
  seedCommitment: string;
  revealedSeed: string | null;
  createdBy: string;
  rulesetId: string | null;
  turnSeat: number | null;
  turnPlayer: string | null;
  winner: number | null;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
  imported: boolean;
  sourceId: string | null;
}

export interface CreateMatchInput {
  /** Preset id; taken from the ruleset when one is given and preset is not. */
  preset?: string;
  /** Default: the ruleset's overrides when one is given. */
  overrides?: Record<string, unknown>;
  seats?: SeatSpec[];
  createdBy: string;
  settings?: Partial<MatchSettings>;
  /**
   * The saved ruleset version, as the caller read it (not read again here).
   * The create statement locks that version, or refuses with CONFLICT
   * (details.rulesetChanged) when it changed since it was read.
   */
  ruleset?: RulesetVersionRef | null;
  /** public (default: listed in the lobby while a seat is open) or private (joinable by id only). Not part of the log. */
  visibility?: 'public' | 'private';
  /**
   * Seats chosen from the new match's seed (instead of `seats`): called with
   * `seatEntropy(seed)`, 32 bytes that follow from the secret seed and reveal
   * nothing of it, so that an order drawn from them is as random as the deal
   * and checkable once the seed is revealed (seek pairing, src/lobby).
   */
  arrangeSeats?: (entropy: Uint8Array) => SeatSpec[];
  /**
   * Start the match in the same statement that creates it, in this player's
   * name (every seat must be taken at creation): the log is the one a create
   * then a start would have made (MatchStarted and the first deal follow the
   * seats), so it audits the same way.
   */
  startBy?: string;
  /**
   * The server seed (32 bytes), chosen by the caller instead of drawn here:
   * the tables of a duplicate tournament round share one
   * (src/tournaments/duplicate-seed.ts). Committed and revealed as any seed.
   */
  seed?: Uint8Array;
}

/** The entropy a seat arrangement draws from: SHA-256("scopa-seats/1" ‖ seed). */
export function seatEntropy(seed: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update('scopa-seats/1').update(seed).digest());
}

/** A match created inside a caller's transaction: `publish()` after the commit runs the reactions (onAppended) and returns the result. */
export interface TransactionalCreate {
  result: CommandResult;
  publish(): CommandResult;
}

/** A caller's transaction that a createInTransaction runs in: the caller's own writes share it with the match's creation. */
export type StoreTransaction = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

export interface ExecuteOptions {
  /** Who acts (a player id), or null for the system (clock expiries). */
  actor: string | null;
  /** The seq the client saw; a different current seq is a VERSION_CONFLICT. */
  expectedSeq?: number;
  /**
   * What makes the command idempotent (a client's idempotency key, or a system
   * command's own key): a retry returns the first result and appends nothing.
   * Client and system keys live in separate spaces (./command-key.ts).
   */
  commandKey?: CommandKey;
}

export interface CommandResult {
  matchId: string;
  /** Seq of the last event of this command's batch. */
  seq: number;
  events: StoredEvent[];
  /** True when this is the stored result of an earlier call with the same command key. */
  replayed: boolean;
}

export interface ListOptions {
  status?: MatchStatus;
  /** Only matches where it is this player's turn. */
  myTurn?: boolean;
  limit?: number;
  offset?: number;
}

export interface MatchStoreOptions {
  /** Snapshots kept in memory (default 10,000; the service: SNAPSHOT_CACHE_SIZE). */
  cacheSize?: number;
  /** Re-decisions after a lost race when the client gave no expectedSeq (default 8). */
  maxRetries?: number;
  /** Append statements under way at once; more appends wait and share the next statement (see EventStore). */
  appendsInFlight?: number;
  /** The appends, the log reads and who is to move straight through the driver (Database.statements); through Prisma when not given. */
  statements?: StatementRunner;
}

const SUMMARY_SELECT = {
  id: true,
  preset: true,
  options: true,
  rulesVersion: true,
  seats: true,
  status: true,
  currentSeq: true,
  seedCommitment: true,
  revealedSeed: true,
  createdBy: true,
  rulesetId: true,
  turnSeat: true,
  turnPlayer: true,
  winner: true,
  createdAt: true,
  updatedAt: true,
  endedAt: true,
  imported: true,
  sourceId: true,
} as const;

function projectionOf(state: MatchState, events: readonly MatchEvent[]): MatchProjection {
  const status: MatchStatus = state.phase === 'playing' ? 'playing' : state.phase === 'over' ? 'over' : 'open';
  const turnSeat = status === 'playing' && state.turn >= 0 ? state.turn : null;
  const players: { seat: number; playerId: string }[] = [];
  let seatsChanged = false;
  for (const e of events) {
    if (e.type === 'SeatTaken') {
      players.push({ seat: e.seat, playerId: e.player });
      seatsChanged = true;
    }
    if (e.type === 'MatchCreated') {
      e.seats.forEach((s, seat) => {
        const id = s.player ?? s.reservedFor;
        if (id) players.push({ seat, playerId: id });
      });
    }
  }
  return {
    status,
    turnSeat,
    turnPlayer: turnSeat !== null ? (state.seats[turnSeat]?.player ?? null) : null,
    turnPaused: turnSeat !== null && state.clockPaused[turnSeat] === true,
    winner: state.result?.winner ?? null,
    revealedSeed: status === 'over' && state.seed ? toHex(state.seed) : null,
    players,
    seats: seatsChanged ? state.seats : null,
  };
}

/** The facts of a match's first event (MatchCreated) that its snapshot keeps: when, and whether every seat was seated then. */
function creationOf(first: Pick<StoredEvent, 'type' | 'payload' | 'time'> | undefined): Pick<Snapshot, 'createdAt' | 'createdFull'> {
  if (first?.type !== 'MatchCreated') return {};
  const seats = (first.payload as { seats?: { player?: string | null }[] }).seats;
  return { createdAt: new Date(first.time), ...(Array.isArray(seats) ? { createdFull: seats.every((s) => !!s?.player) } : {}) };
}

export function commandHash(command: Command, actor: string | null): string {
  return sha256Hex(canonicalJson({ command, actor }));
}

/**
 * A reaction to each command appended (not to idempotent replays), called
 * right after the append; the promise it may return is what `settled()`
 * waits for. See MatchStore.onAppended.
 */
export type AppendListener = (result: CommandResult) => void | Promise<void>;

/** How a command went, for metrics: appended (with the time to decide and append it) or refused with a DomainError code. */
export type CommandOutcome = { command: Command['type']; appended: CommandResult; seconds: number } | { command: Command['type']; rejected: string };
export type CommandListener = (outcome: CommandOutcome) => void;

/** An append whose COMMIT may have happened though its answer was lost (the connection dropped): what it sent. */
interface InDoubt {
  afterSeq: number;
  /** The chain hashes of its events (content and position: the same command at the same seq has the same ones). */
  hashes: string[];
}

/** While appends are in doubt, the log is looked at this often (from the database's return on). */
const IN_DOUBT_CHECK_MS = 1000;

export class MatchStore {
  private readonly events: EventStore;
  private readonly cache: SnapshotCache;
  private readonly maxRetries: number;
  private readonly appendListeners = new Set<AppendListener>();
  private readonly reactions = new WeakMap<CommandResult, Promise<void>>();
  private readonly commandListeners = new Set<CommandListener>();
  private readonly reads: MatchReads;
  /** Per match, its last append in doubt (see resolveInDoubt). */
  private readonly inDoubt = new Map<string, InDoubt>();
  private inDoubtTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly prisma: Prisma,
    options: MatchStoreOptions = {},
  ) {
    const statements = options.statements ?? prismaRowReader(prisma);
    this.events = new EventStore(prisma, { appendsInFlight: options.appendsInFlight, statements });
    this.cache = new SnapshotCache(options.cacheSize ?? 10_000);
    this.maxRetries = options.maxRetries ?? 8;
    this.reads = new MatchReads(prisma, statements);
  }

  /**
   * The one registration point for what follows an append (create or
   * execute, not a replayed idempotent result), whoever issued the command:
   * `listener` is called synchronously right after it, and its errors
   * (thrown or rejected) are its own. For in-process reactions (notices,
   * bots, metrics: src/matches/after-append.ts); durable follow-ups (the
   * clock row, the webhook outbox) are written by the append itself (the
   * async-play trigger). Returns an unsubscribe.
   */
  onAppended(listener: AppendListener): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Resolves once the reactions to this append are done (at once for a replayed result); never rejects. */
  settled(result: CommandResult): Promise<void> {
    return this.reactions.get(result) ?? Promise.resolve();
  }

  private appended(result: CommandResult): CommandResult {
    const running: Promise<void>[] = [];
    for (const listener of this.appendListeners) {
      try {
        const reaction = listener(result);
        if (reaction) running.push(reaction.catch(() => undefined));
      } catch {
        // a listener's failure is its own
      }
    }
    if (running.length) this.reactions.set(result, running.length === 1 ? running[0] : Promise.all(running).then(() => undefined));
    return result;
  }

  /**
   * Calls `listener` after every create or execute, from any caller (API,
   * bots, clock): appended, or refused with a DomainError (an idempotent
   * replay is neither). Synchronous; listener errors are ignored.
   */
  onCommand(listener: CommandListener): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  private async observed(command: Command['type'], run: () => Promise<CommandResult>): Promise<CommandResult> {
    if (this.commandListeners.size === 0) return run();
    const started = performance.now();
    let outcome: CommandOutcome | null = null;
    try {
      const result = await run();
      if (!result.replayed) outcome = { command, appended: result, seconds: (performance.now() - started) / 1000 };
      return result;
    } catch (err) {
      if (err instanceof DomainError) outcome = { command, rejected: err.code };
      throw err;
    } finally {
      if (outcome) {
        for (const listener of this.commandListeners) {
          try {
            listener(outcome);
          } catch {
            // a listener's failure is its own
          }
        }
      }
    }
  }

  // ------------------------------------------------------------ writing

  create(input: CreateMatchInput): Promise<CommandResult> {
    return this.observed('create', async () => {
      const made = await this.createMatch(input, this.prisma);
      this.cache.put(made.result.matchId, made.snapshot);
      return this.appended(made.result);
    });
  }

  /**
   * Creates a match with the caller's transaction `tx` (one of several
   * statements that commit or roll back together: seek pairing). Nothing
   * follows until the caller, after its commit, calls `publish()`: the
   * snapshot enters the cache and the onAppended reactions run then, so no
   * reaction ever sees a match that was rolled back.
   */
  async createInTransaction(tx: SqlRunner, input: CreateMatchInput): Promise<TransactionalCreate> {
    const started = performance.now();
    const made = await this.createMatch(input, tx);
    let published = false;
    return {
      result: made.result,
      publish: () => {
        if (published) return made.result;
        published = true;
        this.cache.put(made.result.matchId, made.snapshot);
        return this.observedOutcome('create', made.result, (performance.now() - started) / 1000, () => this.appended(made.result));
      },
    };
  }

  /** Reports an appended command made outside `observed` (a transactional create, published after its commit). */
  private observedOutcome(command: Command['type'], result: CommandResult, seconds: number, then: () => CommandResult): CommandResult {
    for (const listener of this.commandListeners) {
      try {
        listener({ command, appended: result, seconds });
      } catch {
        // a listener's failure is its own
      }
    }
    return then();
  }

  execute(matchId: string, command: Command, options: ExecuteOptions): Promise<CommandResult> {
    return this.observed(command.type, () => this.decideAndAppend(matchId, command, options));
  }

  private async createMatch(input: CreateMatchInput, db: SqlRunner): Promise<{ result: CommandResult; snapshot: Snapshot }> {
    const ruleset = input.ruleset ?? null;
    const preset = input.preset ?? ruleset?.preset;
    const overrides = input.overrides ?? ruleset?.overrides ?? {};
    const seed = input.seed ?? randomBytes(32);
    if (seed.length !== 32) throw new RangeError('a server seed is 32 bytes');
    const command: Command = {
      type: 'create',
      preset: preset as string,
      overrides,
      seats: input.arrangeSeats ? input.arrangeSeats(seatEntropy(seed)) : (input.seats ?? []),
      createdBy: input.createdBy,
      seedCommitment: seedCommitment(seed),
      settings: input.settings,
    };
    const decision = decide(command, initialState(seed));
    if (!decision.ok) throw DomainError.fromRejection(decision.rejection);
    const created = decision.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>;
    let state = replay(decision.events, seed);
    const events = decision.events.slice();
    if (input.startBy !== undefined) {
      const started = decide({ type: 'start', player: input.startBy }, state);
      if (!started.ok) throw DomainError.fromRejection(started.rejection);
      state = replay(started.events, seed, state);
      events.push(...started.events);
    }
    const id = randomUUID();
    const stored = await this.events.create(
      {
        id,
        preset: created.preset,
        options: created.options,
        rulesVersion: created.rulesVersion,
        seats: created.seats,
        seedCommitment: created.seedCommitment,
        seed: toHex(seed),
        createdBy: created.createdBy,
        ruleset,
        visibility: input.visibility,
      },
      events,
      { actor: input.createdBy, projection: projectionOf(state, events) },
      db,
    );
    const last = stored[stored.length - 1];
    return {
      result: { matchId: id, seq: last.seq, events: stored, replayed: false },
      snapshot: {
        seq: last.seq,
        hash: last.hash,
        state,
        rulesetId: ruleset?.id ?? null,
        visibility: input.visibility ?? 'public',
        ...creationOf(stored[0]),
      },
    };
  }

  private async decideAndAppend(matchId: string, command: Command, options: ExecuteOptions): Promise<CommandResult> {
    const key = options.commandKey ? encodeCommandKey(options.commandKey) : null;
    const hash = key ? commandHash(command, options.actor) : null;
    let snap = await this.snapshot(matchId);
    let fresh = false; // snap was just read from the log
    for (let attempt = 0; ; attempt++) {
      if (options.expectedSeq !== undefined && options.expectedSeq !== snap.seq) {
        if (!fresh) {
          snap = await this.refresh(matchId, snap);
          fresh = true;
          continue;
        }
        const earlier = key ? await this.earlierResult(matchId, key, hash!) : null;
        if (earlier) return earlier;
        throw new DomainError('VERSION_CONFLICT', `match ${matchId} is at seq ${snap.seq}, not ${options.expectedSeq}`, {
          expectedSeq: options.expectedSeq,
          currentSeq: snap.seq,
        });
      }
      const decision = decide(command, snap.state);
      if (!decision.ok) {
        if (!fresh) {
          // A cached snapshot may be behind the log (another process wrote): decide again on the latest state.
          const latest = await this.refresh(matchId, snap);
          fresh = true;
          if (latest.seq !== snap.seq) {
            snap = latest;
            continue;
          }
        }
        const earlier = key ? await this.earlierResult(matchId, key, hash!) : null;
        if (earlier) return earlier;
        throw DomainError.fromRejection(decision.rejection);
      }
      let state = snap.state;
      for (const e of decision.events) state = evolve(state, e);
      try {
        const stored = await this.events.append(matchId, snap.seq, decision.events, {
          actor: options.actor,
          commandKey: key,
          commandHash: hash,
          prevHash: snap.hash,
          projection: projectionOf(state, decision.events),
        });
        const last = stored[stored.length - 1];
        this.cache.put(matchId, { ...snap, seq: last.seq, hash: last.hash, state });
        return this.appended({ matchId, seq: last.seq, events: stored, replayed: false });
      } catch (err) {
        if (!(err instanceof DomainError)) {
          if (isDatabaseUnavailable(err)) this.doubt(matchId, snap.seq, chainEvents(matchId, snap.seq, snap.hash, decision.events, options.actor));
          throw err;
        }
        if (err.code === 'IDEMPOTENCY_KEY_REUSED' && err.details.duplicate) {
          const earlier = await this.earlierResult(matchId, key!, hash!);
          if (earlier) return earlier;
          throw err;
        }
        if (err.code !== 'VERSION_CONFLICT') throw err;
        // Lost a race (or the cache was behind): the log has moved on.
        this.cache.delete(matchId);
        snap = await this.refresh(matchId, snap);
        fresh = true;
        if (key) {
          const earlier = await this.earlierResult(matchId, key, hash!);
          if (earlier) return earlier;
        }
        if (options.expectedSeq !== undefined || attempt >= this.maxRetries) {
          throw new DomainError('VERSION_CONFLICT', `match ${matchId} moved on to seq ${snap.seq} while this command was decided`, {
            expectedSeq: options.expectedSeq ?? null,
            currentSeq: snap.seq,
          });
        }
      }
    }
  }

  /** The stored result of a command key, or null; IDEMPOTENCY_KEY_REUSED when the key was used for another command. */
  private async earlierResult(matchId: string, key: string, hash: string): Promise<CommandResult | null> {
    const record = await this.events.findCommand(matchId, key);
    if (!record) return null;
    if (record.commandHash !== hash) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'this command key was already used for a different command in this match');
    }
    const result: CommandResult = { matchId, seq: record.events[record.events.length - 1].seq, events: record.events, replayed: true };
    // The retry of an append of this process whose answer was lost: its reactions (notices, bots) never ran; they run now.
    if (this.isInDoubt(matchId, result.events)) {
      this.inDoubt.delete(matchId);
      return this.appended({ ...result, replayed: false });
    }
    return result;
  }

  // ------------------------------------------------------------ appends in doubt

  /**
   * An append failed with the database lost (docs/operations.md "When the database fails over"): its COMMIT may have
   * happened all the same, and then the reactions of this process (the match's notice to the live feeds, "your turn",
   * the bots' replies) are owed. The retry with the same idempotencyKey answers the stored result and runs them
   * (earlierResult); without one (no key, or sent to another instance), resolveInDoubt finds the events in the log once
   * the database is back and runs them then.
   */
  private doubt(matchId: string, afterSeq: number, chained: readonly { hash: string }[]): void {
    this.cache.delete(matchId);
    this.inDoubt.set(matchId, { afterSeq, hashes: chained.map((e) => e.hash) });
    this.checkInDoubtLater();
  }

  private isInDoubt(matchId: string, events: readonly { hash: string }[]): boolean {
    const d = this.inDoubt.get(matchId);
    return !!d && this.isInDoubtOf(d, events);
  }

  private checkInDoubtLater(): void {
    if (this.inDoubtTimer || this.inDoubt.size === 0) return;
    this.inDoubtTimer = setTimeout(() => {
      void this.resolveInDoubt().finally(() => {
        this.inDoubtTimer = null;
        this.checkInDoubtLater();
      });
    }, IN_DOUBT_CHECK_MS);
    this.inDoubtTimer.unref();
  }

  /**
   * Looks up each append in doubt in the log: committed (its very events at its seqs), its reactions run now;
   * not there, it never happened. While the database is still lost or a standby, they stay in doubt. Returns how many
   * committed.
   */
  async resolveInDoubt(): Promise<number> {
    let committed = 0;
    // Only on a primary: a standby (the proxy not yet switched) may not have the commit yet, and "not there" would be wrong.
    try {
      await assertWritable(this.prisma, 'pg');
    } catch {
      return 0; // still lost, or a standby: next time
    }
    for (const [matchId, d] of [...this.inDoubt]) {
      let events: StoredEvent[];
      try {
        events = (await this.events.loadLog(matchId, d.afterSeq, d.afterSeq + d.hashes.length))?.events ?? [];
      } catch (err) {
        if (isDatabaseUnavailable(err)) return committed;
        events = [];
      }
      if (this.inDoubt.get(matchId) !== d) continue; // resolved meanwhile (the retry came)
      this.inDoubt.delete(matchId);
      if (!this.isInDoubtOf(d, events)) continue;
      committed++;
      this.appended({ matchId, seq: events[events.length - 1].seq, events, replayed: false });
    }
    return committed;
  }

  private isInDoubtOf(d: InDoubt, events: readonly { hash: string }[]): boolean {
    return d.hashes.length === events.length && d.hashes.every((h, i) => events[i].hash === h);
  }

  /** Appends of this process still in doubt (tests, metrics). */
  appendsInDoubt(): number {
    return this.inDoubt.size;
  }

  // ------------------------------------------------------------ folding

  /** Cached snapshot, or the log folded from scratch. */
  private async snapshot(matchId: string): Promise<Snapshot> {
    return this.cache.get(matchId) ?? this.refresh(matchId, null);
  }

  /** Brings a snapshot up to the log's current seq (folding only the new events). */
  private async refresh(matchId: string, from: Snapshot | null): Promise<Snapshot> {
    const log = await this.events.loadLog(matchId, from?.seq ?? 0).catch((err: unknown) => {
      if (isBadUuid(err)) return null;
      throw err;
    });
    if (!log) throw new DomainError('NOT_FOUND', `no match ${matchId}`);
    if (from && log.currentSeq < from.seq) from = null; // cannot happen on an append-only log; fold again to be safe
    let snap: Snapshot = from ?? {
      seq: 0,
      hash: GENESIS_HASH,
      state: initialState(seedFromHex(log.seed)),
      rulesetId: log.rulesetId,
      visibility: log.visibility,
      ...(log.events[0]?.seq === 1 ? creationOf(log.events[0]) : {}),
    };
    if (!from && log.events.length === 0) throw new DomainError('NOT_FOUND', `no match ${matchId}`);
    let state = snap.state;
    for (const e of log.events) state = evolve(state, joinEvent(e));
    if (log.events.length) {
      const last = log.events[log.events.length - 1];
      snap = { ...snap, seq: last.seq, hash: last.hash, state };
    }
    this.cache.put(matchId, snap);
    return snap;
  }

  /** SECRET: the current state with the seq it is at (brought up to the log's seq). Build views from it; never return it to a client. */
  async current(matchId: string): Promise<{ seq: number; state: MatchState }> {
    const snap = await this.refresh(matchId, this.cache.get(matchId) ?? null);
    return { seq: snap.seq, state: snap.state };
  }

  /**
   * Events appended elsewhere (another instance; they came with its notice):
   * when this process's snapshot is just before them and their chain links
   * onto it, the snapshot moves on, so the next command here needs no read
   * and does not lose its append to a stale seq. Anything else is ignored:
   * the append's seq guard still checks every snapshot against the log.
   */
  absorb(matchId: string, events: readonly StoredEvent[]): void {
    const snap = this.cache.get(matchId);
    if (!snap || events.length === 0 || events[events.length - 1].seq <= snap.seq) return;
    let { seq, hash, state } = snap;
    for (const e of events) {
      if (e.seq <= seq) continue;
      if (e.seq !== seq + 1 || e.prevHash !== hash) return;
      state = evolve(state, joinEvent(e));
      seq = e.seq;
      hash = e.hash;
    }
    this.cache.put(matchId, { ...snap, seq, hash, state });
  }

  /**
   * SECRET: a snapshot at `minSeq` or later, from this process's cache when it
   * has one (right after an append here, no read), else brought up to the log.
   */
  async atLeast(matchId: string, minSeq: number): Promise<Snapshot> {
    const cached = this.cache.get(matchId);
    if (cached && cached.seq >= minSeq) return cached;
    return this.refresh(matchId, cached ?? null);
  }

  /** SECRET: the full state (seed, deck, every hand) at seq atSeq or now. Build views from it; never return it to a client. */
  async state(matchId: string, atSeq?: number): Promise<MatchState> {
    if (atSeq === undefined) return (await this.refresh(matchId, this.cache.get(matchId) ?? null)).state;
    const log = await this.events.loadLog(matchId, 0, atSeq).catch((err: unknown) => {
      if (isBadUuid(err)) return null;
      throw err;
    });
    if (!log || log.events.length === 0) throw new DomainError('NOT_FOUND', `no match ${matchId}`);
    return replay(log.events.map(joinEvent), seedFromHex(log.seed));
  }

  /** SECRET: this process's cached snapshot, if any, with no read (e.g. who is to move right after an append here). */
  peek(matchId: string): Snapshot | undefined {
    return this.cache.get(matchId);
  }

  // ------------------------------------------------------------ reading

  get(matchId: string): Promise<MatchSummary> {
    return matchSummary(this.prisma, matchId);
  }

  /** Events with seq >= fromSeq (public by construction), at most `limit`. */
  async eventsFrom(matchId: string, fromSeq = 1, limit = 100): Promise<StoredEvent[]> {
    await this.get(matchId);
    return this.events.events(matchId, Math.max(1, fromSeq), Math.max(0, Math.min(limit, 10_000)));
  }

  /** Matches where `player` holds (or is invited to) a seat, most recently active first. */
  async listMatches(player: string, options: ListOptions = {}): Promise<MatchSummary[]> {
    const rows = await this.prisma.match.findMany({
      where: {
        players: { some: { playerId: player } },
        ...(options.status ? { status: options.status } : {}),
        ...(options.myTurn ? { turnPlayer: player } : {}),
      },
      select: SUMMARY_SELECT,
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
      take: Math.max(1, Math.min(options.limit ?? 50, 500)),
      skip: Math.max(0, options.offset ?? 0),
    });
    return rows as MatchSummary[];
  }

  // ------------------------------------------------------------ reading, for other features (./match-reads.ts)

  /** The lobby: public open matches with a seat `caller` may take and no seat of theirs, newest first, after `cursor`; at most `limit` rows. */
  lobbyPage(caller: string, filter: LobbyFilter, cursor: { createdAt: Date | string; id: string } | null, limit: number): Promise<LobbyRow[]> {
    return this.reads.lobbyPage(caller, filter, cursor, limit);
  }

  /** The lobby's row of one match, whatever its status and visibility; null for an unknown id. */
  lobbyRow(matchId: string): Promise<LobbyRow | null> {
    return this.reads.lobbyRow(matchId);
  }

  /** How many open or playing matches `account` created with every seat a bot's (through `tx` inside a transaction). */
  liveBotOnlyMatches(account: string, tx?: SqlRunner): Promise<number> {
    return this.reads.liveBotOnlyMatches(account, tx);
  }

  /** Playing matches whose turn is a bot's and whose last append is older than `idleMs`, the oldest first. */
  idleBotTurns(limit: number, idleMs: number): Promise<string[]> {
    return this.reads.idleBotTurns(limit, idleMs);
  }

  /** The seats `player` holds in playing matches. */
  playingSeatsOf(player: string): Promise<{ matchId: string; seat: number }[]> {
    return this.reads.playingSeatsOf(player);
  }

  /** The seats `player` holds in correspondence matches not over (open or playing), each with whether its turn clock already ran out. */
  correspondenceSeatsOf(player: string): Promise<CorrespondenceSeat[]> {
    return this.reads.correspondenceSeatsOf(player);
  }

  /** Who is to move in a playing match and the deadline of that turn (from the log's projection and its clock row); null when not playing. */
  turn(matchId: string): Promise<TurnRow | null> {
    return this.reads.turn(matchId);
  }

  /** Playing matches where it is `player`'s turn, soonest deadline first (untimed last, oldest turn first); clock_low below `lowFraction` of the turn time. */
  myTurn(player: string, limit: number, lowFraction: number): Promise<MyTurnRow[]> {
    return this.reads.myTurn(player, limit, lowFraction);
  }

  /** Whether two players played a match together to a result: started, ended other than by an abort (a reserved seat alone is no acquaintance; imports do not count). */
  playedTogether(a: string, b: string): Promise<boolean> {
    return this.reads.playedTogether(a, b);
  }

  /** Whether the match was imported (played elsewhere, read-only); false for an unknown id. */
  isImported(matchId: string): Promise<boolean> {
    return this.reads.imported(matchId);
  }
}

/** The matches row of `matchId` as the API may see it; NOT_FOUND for an unknown id (or one that is no uuid). */
export async function matchSummary(prisma: Prisma, matchId: string): Promise<MatchSummary> {
  const row = await prisma.match.findUnique({ where: { id: matchId }, select: SUMMARY_SELECT }).catch((err: unknown) => {
    if (isBadUuid(err)) return null;
    throw err;
  });
  if (!row) throw new DomainError('NOT_FOUND', `no match ${matchId}`);
  return row as MatchSummary;
}

function isBadUuid(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${JSON.stringify((err as { meta?: unknown })?.meta ?? {})}`;
  return /invalid input syntax for type uuid|22P02|Inconsistent column data|Error creating UUID/i.test(text);
}
