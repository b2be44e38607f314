/**
 * The questions other features ask of the store's tables (matches,
 * match_players, match_events), each one statement, served by MatchStore's
 * read methods: the lobby's listing, the inbox, who is to move and until
 * when, presence, bot sweeps and limits, acquaintance for challenges. The
 * statements are the ones those features ran themselves before; they live
 * here so that the tables' shape is known in one folder (src/match-store).
 * Archives, exports and the ratings' reads are in ./match-archive.ts.
 */
import type { SqlRunner } from './event-store';
import type { StatementRunner } from '../database/database';
import { prepared } from '../database/prepared-statements';

/** untimed: no turn clock; live: a turn time limit under a day; correspondence: a day or more. */
export type ClockKind = 'untimed' | 'live' | 'correspondence';

/** What the lobby filters on (src/lobby). */
export interface LobbyFilter {
  preset?: string | null;
  rated?: boolean | null;
  /** untimed: no turn clock; live: a turn time limit under a day; correspondence: a day or more. */
  clock?: ClockKind | null;
}

/** A match as the lobby lists it: its row and whether its first event says rated. */
export interface LobbyRow {
  id: string;
  preset: string;
  ruleset_id: string | null;
  options: Record<string, unknown>;
  seats: { player: string | null; reservedFor: string | null; bot: string | null }[];
  turn_time_limit: string | null;
  on_expiry: string | null;
  rated: boolean | null;
  created_by: string;
  created_at: Date;
  status: string;
  visibility: string;
}

/** Who is to move in a playing match, and the deadline of that turn (null: untimed). */
export interface TurnRow {
  current_seq: number;
  turn_seat: number | null;
  turn_player: string | null;
  /** Null also while the turn clock is paused (`paused`). */
  deadline: Date | null;
  /** The turn clock is paused (its player is on vacation: docs/async-play.md "Vacations"). */
  paused: boolean;
}

/** A seat of a correspondence match not over (a vacation pauses its clock): whether that seat's turn clock already ran out. */
export interface CorrespondenceSeat {
  matchId: string;
  seat: number;
  /** The seat is to move and its deadline has passed: a vacation cannot stop that clock. */
  expired: boolean;
}

/** A match where it is the player's turn (the inbox). */
export interface MyTurnRow {
  match_id: string;
  preset: string;
  current_seq: number;
  turn_seat: number;
  deadline: Date | null;
  /** The turn clock is paused (the player is on vacation). */
  paused: boolean;
  updated_at: Date;
  clock_low: boolean | null;
}

const ENTRY_COLUMNS = `m.id::text AS id, m.preset, m.ruleset_id::text AS ruleset_id, m.options, m.seats, m.turn_time_limit, m.on_expiry,
  (e.payload->'settings'->>'rated')::boolean AS rated, m.created_by, m.created_at, m.status, m.visibility`;

// A turn time limit is an ISO 8601 duration (src/engine/turn-time.ts), which PostgreSQL casts to an interval.
const CLOCK_SQL: Record<ClockKind, string> = {
  untimed: 'm.turn_time_limit IS NULL',
  live: `m.turn_time_limit IS NOT NULL AND m.turn_time_limit::interval < interval '1 day'`,
  correspondence: `m.turn_time_limit IS NOT NULL AND m.turn_time_limit::interval >= interval '1 day'`,
};

/** The page: $1 caller, $2 preset, $3 rated, $4/$5 the cursor (created_at, id), $6 limit + 1. */
const lobbyPageSql = (clock: ClockKind | null | undefined) => `
SELECT ${ENTRY_COLUMNS}
FROM matches m JOIN match_events e ON e.match_id = m.id AND e.seq = 1
WHERE m.status = 'open' AND m.visibility = 'public' AND m.imported = false
  AND ($2::text IS NULL OR m.preset = $2::text)
  AND ($3::boolean IS NULL OR COALESCE((e.payload->'settings'->>'rated')::boolean, false) = $3::boolean)
  AND ${clock ? CLOCK_SQL[clock] : 'true'}
  AND ($4::timestamptz IS NULL OR (m.created_at, m.id) < ($4::timestamptz, $5::uuid))
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(m.seats) s
              WHERE s->>'player' IS NULL AND s->>'bot' IS NULL AND (s->>'reservedFor' IS NULL OR s->>'reservedFor' = $1::text))
  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(m.seats) s WHERE s->>'player' = $1::text)
ORDER BY m.created_at DESC, m.id DESC
LIMIT $6::int`;

// Per match (its lobby changes while open): prepared, as the texts below that every match or connection reads.
const LOBBY_ROW_SQL = prepared(`SELECT ${ENTRY_COLUMNS} FROM matches m JOIN match_events e ON e.match_id = m.id AND e.seq = 1 WHERE m.id = $1::uuid`);

// Live matches created by the account whose every seat is a bot's.
const LIVE_BOT_MATCHES_SQL = `
SELECT count(*)::int AS n FROM matches
WHERE created_by = $1 AND status IN ('open', 'playing')
  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(seats) AS s WHERE NOT (s ? 'bot'))`;

const IDLE_BOT_TURNS_SQL = `SELECT id::text AS id FROM matches WHERE status = 'playing' AND turn_player LIKE 'bot:%' AND updated_at < now() - make_interval(secs => $2::double precision / 1000) ORDER BY updated_at LIMIT $1::int`;

const PLAYING_SEATS_SQL = prepared(`SELECT mp.match_id::text AS match_id, mp.seat FROM match_players mp JOIN matches m ON m.id = mp.match_id
       WHERE mp.player_id = $1 AND m.status = 'playing'`);

// The turn clock row is the one the append wrote for this seq (the async-play trigger).
const TURN_SQL = prepared(`SELECT m.current_seq, m.turn_seat, m.turn_player, c.deadline, COALESCE(c.remaining_ms IS NOT NULL, false) AS paused
       FROM matches m LEFT JOIN match_clocks c ON c.match_id = m.id AND c.seq = m.current_seq
       WHERE m.id = $1::uuid AND m.status = 'playing'`);

const MY_TURN_SQL = `SELECT m.id::text AS match_id, m.preset, m.current_seq, m.turn_seat, c.deadline,
         COALESCE(c.remaining_ms IS NOT NULL, false) AS paused, m.updated_at,
         c.deadline - now() <= m.turn_time_limit::interval * $3::double precision AS clock_low
       FROM match_players mp
       JOIN matches m ON m.id = mp.match_id
       LEFT JOIN match_clocks c ON c.match_id = m.id AND c.seq = m.current_seq
       WHERE mp.player_id = $1 AND m.status = 'playing' AND m.turn_player = $1
       ORDER BY c.deadline ASC NULLS LAST, m.updated_at ASC, m.id ASC
       LIMIT $2::int`;

// The seats of a player in correspondence matches not over ($1 player), with whether that seat's running turn clock ran out.
const CORRESPONDENCE_SEATS_SQL = `SELECT mp.match_id::text AS match_id, mp.seat,
         COALESCE(m.status = 'playing' AND m.turn_seat = mp.seat AND c.remaining_ms IS NULL AND c.deadline <= now(), false) AS expired
       FROM match_players mp
       JOIN matches m ON m.id = mp.match_id
       LEFT JOIN match_clocks c ON c.match_id = m.id AND c.kind = 'turn' AND c.seq = m.current_seq
       WHERE mp.player_id = $1 AND m.status IN ('open', 'playing') AND NOT m.imported AND ${CLOCK_SQL.correspondence}
       ORDER BY mp.match_id, mp.seat`;

// Played to a result: started, and ended other than by an abort (a stranger who joins a lobby match and aborts it is no acquaintance).
const PLAYED_TOGETHER_SQL = `SELECT 1 FROM match_players x JOIN match_players y ON y.match_id = x.match_id JOIN matches m ON m.id = x.match_id
       JOIN match_events e ON e.match_id = m.id AND e.seq = m.current_seq
       WHERE x.player_id = $1 AND y.player_id = $2 AND m.status = 'over' AND NOT m.imported
         AND e.type = 'MatchEnded' AND e.payload->>'reason' IS DISTINCT FROM 'aborted'
         AND EXISTS (SELECT 1 FROM match_events s WHERE s.match_id = m.id AND s.type = 'MatchStarted')
       LIMIT 1`;

/** The statements behind MatchStore's read methods (see there). */
export class MatchReads {
  /** `statement`: the store's seam for the reads of every play (who moves next in a timed match), see MatchStoreOptions.statements. */
  constructor(
    private readonly db: SqlRunner,
    private readonly statement: StatementRunner,
  ) {}

  lobbyPage(caller: string, filter: LobbyFilter, cursor: { createdAt: Date | string; id: string } | null, limit: number): Promise<LobbyRow[]> {
    return this.db.$queryRawUnsafe<LobbyRow[]>(
      lobbyPageSql(filter.clock),
      caller,
      filter.preset ?? null,
      filter.rated ?? null,
      cursor?.createdAt ?? null,
      cursor?.id ?? null,
      limit,
    );
  }

  async lobbyRow(matchId: string): Promise<LobbyRow | null> {
    const rows = await this.db.$queryRawUnsafe<LobbyRow[]>(LOBBY_ROW_SQL, matchId);
    return rows[0] ?? null;
  }

  async liveBotOnlyMatches(account: string, db: SqlRunner = this.db): Promise<number> {
    const [{ n }] = await db.$queryRawUnsafe<{ n: number }[]>(LIVE_BOT_MATCHES_SQL, account);
    return n;
  }

  async idleBotTurns(limit: number, idleMs: number): Promise<string[]> {
    const rows = await this.db.$queryRawUnsafe<{ id: string }[]>(IDLE_BOT_TURNS_SQL, limit, idleMs);
    return rows.map((r) => r.id);
  }

  async playingSeatsOf(player: string): Promise<{ matchId: string; seat: number }[]> {
    const rows = await this.db.$queryRawUnsafe<{ match_id: string; seat: number }[]>(PLAYING_SEATS_SQL, player);
    return rows.map((r) => ({ matchId: r.match_id, seat: r.seat }));
  }

  async correspondenceSeatsOf(player: string): Promise<CorrespondenceSeat[]> {
    const rows = await this.db.$queryRawUnsafe<{ match_id: string; seat: number; expired: boolean }[]>(CORRESPONDENCE_SEATS_SQL, player);
    return rows.map((r) => ({ matchId: r.match_id, seat: r.seat, expired: r.expired }));
  }

  async turn(matchId: string): Promise<TurnRow | null> {
    const rows = await this.statement<TurnRow>(TURN_SQL, [matchId]);
    return rows[0] ?? null;
  }

  myTurn(player: string, limit: number, lowFraction: number): Promise<MyTurnRow[]> {
    return this.db.$queryRawUnsafe<MyTurnRow[]>(MY_TURN_SQL, player, limit, lowFraction);
  }

  async playedTogether(a: string, b: string): Promise<boolean> {
    const rows = await this.db.$queryRawUnsafe<unknown[]>(PLAYED_TOGETHER_SQL, a, b);
    return rows.length > 0;
  }

  async imported(matchId: string): Promise<boolean> {
    const rows = await this.db.$queryRawUnsafe<{ imported: boolean }[]>(`SELECT imported FROM matches WHERE id = $1::uuid`, matchId);
    return rows[0]?.imported === true;
  }
}
