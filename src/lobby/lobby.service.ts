/**
 * The lobby: public matches with a seat the caller may take, newest first,
 * cursor-paginated (docs/lobby.md "The lobby"), and its changes published on
 * `lobbyChannel` after every append that can change a listing (a match
 * created, a seat taken, a start, an end), whoever issued it: a step of
 * the after-append pipeline (src/reactions/after-append.ts). Private matches
 * are never listed and never published.
 */
import { Inject, Injectable } from '@nestjs/common';
import { durationSeconds } from '../engine';
import { DomainError } from '../common/domain-error';
import { subscriptionIterator } from '../common/subscription-iterator';
import { MatchStore } from '../match-store/match-store';
import type { ClockKind, CommandResult, LobbyFilter, LobbyRow } from '../match-store/match-store';
import type { Snapshot } from '../match-store/snapshot-cache';
import { lobbyChannel } from '../realtime/channels';
import type { LobbyChange } from '../realtime/channels';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';

export type { ClockKind, LobbyFilter } from '../match-store/match-store';

export interface LobbySeat {
  seat: number;
  /** taken (a person sits here), open, reserved (kept for `reservedFor`), bot. */
  state: 'taken' | 'open' | 'reserved' | 'bot';
  player: string | null;
  reservedFor: string | null;
  bot: string | null;
}

export interface LobbyEntry {
  id: string;
  preset: string;
  rulesetId: string | null;
  /** The resolved options (what the match plays). */
  options: Record<string, unknown>;
  players: number;
  teams: boolean;
  target: number | null;
  seats: LobbySeat[];
  turnTimeLimit: string | null;
  onExpiry: string;
  rated: boolean;
  createdBy: string;
  createdAt: Date;
}

export interface LobbyPage {
  matches: LobbyEntry[];
  next: string | null;
}

/** Events after which a match may enter, change in or leave the lobby. */
const LOBBY_EVENTS = new Set(['MatchCreated', 'SeatTaken', 'MatchStarted', 'MatchEnded', 'MatchAborted']);
/** The events after which a match is no longer open: whatever it was, it is not listed any more. */
const LEAVES_THE_LOBBY = new Set(['MatchStarted', 'MatchEnded', 'MatchAborted']);

export const LOBBY_MAX_LIMIT = 100;

@Injectable()
export class LobbyService {
  constructor(
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
  ) {}

  async page(caller: string, filter: LobbyFilter, limit = 20, after?: string | null): Promise<LobbyPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > LOBBY_MAX_LIMIT)
      throw new DomainError('VALIDATION_FAILED', `limit: an integer in 1..${LOBBY_MAX_LIMIT}`);
    const cursor = after ? decodeCursor(after) : null;
    const rows = await this.store.lobbyPage(caller, filter, cursor, limit + 1);
    const matches = rows.slice(0, limit).map(toEntry);
    const last = matches[matches.length - 1];
    return { matches, next: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
  }

  /**
   * Whether the append may list, change or unlist a match: the match is
   * still open (never started), or this append started it out of the open
   * phase. A match created full or started, or one already in play, never is.
   * Without the snapshot in this process's cache: read and see.
   */
  private mayBeListed(result: CommandResult, snap: Snapshot | undefined): boolean {
    if (!snap || snap.seq < result.seq) return true;
    const created = result.events[0]?.type === 'MatchCreated';
    // created with no seat to take (every one a player's or a bot's): never listed
    if (created && snap.state.seats.every((seat) => seat.player !== null || seat.bot !== null)) return false;
    if (snap.state.deckSeed === null) return true; // never started: open, or ended before a start
    return !created && result.events.some((e) => e.type === 'MatchStarted');
  }

  /**
   * The lobby's changes from now on, as `caller` may see them (filtered; an
   * entry it can no longer take is a removal). Ending the iterator ends the
   * pub/sub subscription at once, even while it waits for a message.
   */
  changes(caller: string, filter: LobbyFilter): AsyncIterableIterator<LobbyChange> {
    return subscriptionIterator(this.pubsub.asyncIterableIterator<LobbyChange>(lobbyChannel()), this.seenBy(caller, filter));
  }

  /**
   * A change of `lobbyChannel` as `caller` may see it under `filter`, or null
   * (not for them): an entry it may take and that fits the filter as it is;
   * an update it can no longer take (or that no longer fits) as a removal.
   * The one filter of the `lobby` subscription and the NDJSON lobby stream.
   */
  seenBy(caller: string, filter: LobbyFilter): (change: LobbyChange) => LobbyChange | null {
    return (change) => {
      if (change.type === 'removed' || !change.match) return { type: 'removed', matchId: change.matchId };
      const entry = fromJson(change.match);
      if (takeableBy(entry, caller) && matchesFilter(entry, filter))
        return { type: change.type, matchId: change.matchId, match: entry as unknown as Record<string, unknown> };
      return change.type === 'updated' ? { type: 'removed', matchId: change.matchId } : null;
    };
  }

  /**
   * After-append step: publishes the match's lobby change, if it is public
   * and the append can change its listing. Returns at once (no read) for a
   * match that was never listed by then: created already started (pairing,
   * challenges, rematches), or already in play before this append.
   */
  async publishChange(result: CommandResult): Promise<void> {
    if (!result.events.some((e) => LOBBY_EVENTS.has(e.type))) return;
    const snap = this.store.peek(result.matchId);
    if (snap?.visibility === 'private') return; // never listed
    if (!this.mayBeListed(result, snap)) return;
    const created = result.events[0]?.type === 'MatchCreated';
    try {
      // A public match that this append starts or ends leaves the lobby: its removal needs no row.
      if (snap && !created && result.events.some((e) => LEAVES_THE_LOBBY.has(e.type))) {
        await this.pubsub.publish(lobbyChannel(), { type: 'removed', matchId: result.matchId } satisfies LobbyChange);
        return;
      }
      // The snapshot of this append (or a later one) tells all the row would: no read (a match appended elsewhere reads it).
      const row = (snap && snap.seq >= result.seq ? rowFromSnapshot(result.matchId, snap) : null) ?? (await this.store.lobbyRow(result.matchId));
      if (!row || row.visibility !== 'public') return;
      const entry = toEntry(row);
      const listed = row.status === 'open' && entry.seats.some((s) => s.state === 'open' || s.state === 'reserved');
      let change: LobbyChange | null = null;
      if (listed) change = { type: created ? 'added' : 'updated', matchId: entry.id, match: toJson(entry) };
      else if (!created) change = { type: 'removed', matchId: entry.id }; // a match created full was never listed
      if (change) await this.pubsub.publish(lobbyChannel(), change);
    } catch {
      // a notice is not a record: the lobby page reads the database
    }
  }
}

/**
 * The lobby row of a match from its snapshot, as matches' columns hold it (they are copied from MatchCreated, and the
 * seats from the fold); null when the snapshot does not know its creation time (then the row is read).
 */
export function rowFromSnapshot(id: string, snap: Snapshot): LobbyRow | null {
  const { state } = snap;
  if (!snap.createdAt || !state.preset || !state.options || state.createdBy === null) return null;
  return {
    id,
    preset: state.preset,
    ruleset_id: snap.rulesetId,
    options: state.options as unknown as Record<string, unknown>,
    seats: state.seats.map((s) => ({ player: s.player, reservedFor: s.reservedFor, bot: s.bot })),
    turn_time_limit: state.settings.turnTimeLimit ?? null,
    on_expiry: state.settings.onExpiry ?? null,
    rated: state.settings.rated ?? null,
    created_by: state.createdBy,
    created_at: snap.createdAt,
    status: state.phase === 'playing' ? 'playing' : state.phase === 'over' ? 'over' : 'open',
    visibility: snap.visibility,
  };
}

function seatOf(s: { player: string | null; reservedFor: string | null; bot: string | null }, seat: number): LobbySeat {
  const state = s.bot ? 'bot' : s.player ? 'taken' : s.reservedFor ? 'reserved' : 'open';
  return { seat, state, player: s.player ?? null, reservedFor: s.reservedFor ?? null, bot: s.bot ?? null };
}

function toEntry(r: LobbyRow): LobbyEntry {
  const options = r.options ?? {};
  return {
    id: r.id,
    preset: r.preset,
    rulesetId: r.ruleset_id,
    options,
    players: Number(options.players ?? r.seats.length),
    teams: options.teams === true,
    target: typeof options.target === 'number' ? options.target : null,
    seats: (r.seats ?? []).map(seatOf),
    turnTimeLimit: r.turn_time_limit,
    onExpiry: r.on_expiry ?? 'autoPlay',
    rated: r.rated === true,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at),
  };
}

function toJson(e: LobbyEntry): Record<string, unknown> {
  return { ...e, createdAt: e.createdAt.toISOString() };
}

function fromJson(j: Record<string, unknown>): LobbyEntry {
  return { ...(j as unknown as LobbyEntry), createdAt: new Date(String(j.createdAt)) };
}

function takeableBy(e: LobbyEntry, caller: string): boolean {
  if (e.seats.some((s) => s.player === caller)) return false;
  return e.seats.some((s) => s.state === 'open' || (s.state === 'reserved' && s.reservedFor === caller));
}

/** The clock kind of a turn time limit (an ISO 8601 duration the engine accepted). */
export function clockKind(turnTimeLimit: string | null): ClockKind {
  if (!turnTimeLimit) return 'untimed';
  return (durationSeconds(turnTimeLimit) ?? 0) >= 86_400 ? 'correspondence' : 'live';
}

function matchesFilter(e: LobbyEntry, f: LobbyFilter): boolean {
  if (f.preset && e.preset !== f.preset) return false;
  if (f.rated !== undefined && f.rated !== null && e.rated !== f.rated) return false;
  if (f.clock && clockKind(e.turnTimeLimit) !== f.clock) return false;
  return true;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

function decodeCursor(after: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'string' && UUID.test(id)) return { createdAt, id };
  } catch {
    // below
  }
  throw new DomainError('VALIDATION_FAILED', 'after: a cursor from a previous page (its next)');
}
