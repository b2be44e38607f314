/**
 * A tournament's own log, a stream of the generic stream store
 * (src/stream-store/stream-store.ts, TOURNAMENT_STREAM), hash-chained like a match's:
 *
 *   hash_n = hex(sha256(hash_{n-1} || canonical_json({tournamentId, seq, type, payload, actor, time})))
 *
 * (64 zeros before the first event; canonical JSON is RFC 8785; `time` is
 * the append time, ISO 8601 UTC with milliseconds). Its events are public:
 * a round's seed is only committed to (RoundPaired) until the round ends
 * (RoundEnded). The state is a fold of the events (evolve), and the next
 * round's pairing is a pure function of that state (nextPairing), so the
 * audit (tournament-audit.ts) recomputes every pairing and every standing.
 */
import { chainStream, joinStreamEvent, streamHash, streamLine } from '../stream-store/stream-store';
import type { KeyedStreamLine, StreamKind } from '../stream-store/stream-store';
import { maxSwissRounds, pairSwiss, PAIRING_VERSION, roundRobinRounds, roundRobinSchedule } from './round-pairing';
import { pairSwissV1 } from './round-pairing-v1';
import type { PairingPlayer, RoundPairing } from './round-pairing';
import { computeStandings } from './standings';
import type { ByeRecord, GameOutcome, GameRecord, StandingRow } from './standings';

export const TOURNAMENT_FORMATS = ['swiss', 'roundRobin'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];
export const TOURNAMENT_STATUSES = ['created', 'started', 'finished', 'cancelled'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

export interface TournamentSettings {
  name: string;
  format: TournamentFormat;
  /** Preset id, with overrides, or a saved ruleset (id and version as read at creation). */
  preset: string;
  overrides: Record<string, unknown>;
  rulesetId: string | null;
  rulesetVersion: number | null;
  /** Swiss: rounds asked for (capped at the start by maxSwissRounds); round robin: ignored (n-1 or n). */
  rounds: number;
  maxPlayers: number;
  startsAt: string | null;
  /** ISO 8601 duration per turn, or null (no clock). */
  turnTimeLimit: string | null;
  onExpiry: string | null;
  rated: boolean;
  duplicate: boolean;
  /** `off`: every table's players' chat room is closed (src/chat); absent: `players` (the logs of earlier tournaments stay as they were). */
  chat?: 'players' | 'off';
  visibility: 'public' | 'private';
  /** Private: who may join (besides the creator). */
  invited: string[];
  /** A team-only tournament: only the members of this team join (src/teams); absent (logs before it, and open tournaments) for none. */
  teamId?: string;
}

export interface TableRecord {
  table: number;
  /** [first seat, second seat] */
  players: [string, string];
  /** Null when the table was decided without a match (a withdrawn player). */
  matchId: string | null;
}

export type TournamentEvent =
  | ({ type: 'TournamentCreated'; createdBy: string; seedCommitment: string | null } & TournamentSettings)
  | { type: 'PlayerJoined'; player: string; rating: number | null; clientSeed: string | null }
  | { type: 'PlayerWithdrew'; player: string; round: number | null }
  /** pairingVersion: the Swiss pairing rules of the event (round-pairing.ts PAIRING_VERSION); absent in logs written before version 2, which pair with version 1. */
  | { type: 'TournamentStarted'; players: string[]; rounds: number; pairingVersion?: number }
  | { type: 'TournamentCancelled' }
  | { type: 'RoundPaired'; round: number; tables: TableRecord[]; bye: string | null; seedCommitment: string | null }
  | {
      type: 'MatchResultRecorded';
      round: number;
      table: number;
      matchId: string | null;
      outcome: GameOutcome;
      points: [number, number];
      forfeit: boolean;
      reason: string;
    }
  | { type: 'RoundEnded'; round: number; seed: string | null }
  | { type: 'TournamentEnded'; reason: 'completed' | 'noPairing' | 'tooFewPlayers'; masterSeed: string | null };

export type TournamentEventType = TournamentEvent['type'];

/** A tournament's log as a stream: `tournamentId` in the hash, timed as stored, export lines that start with the id. */
export const TOURNAMENT_STREAM: StreamKind = { name: 'tournament', idKey: 'tournamentId', timed: true, linesCarryId: true };

/** One event of the log as chained, stored and exported (the stream export line, with the tournament's id). */
export type ChainedTournamentEvent = KeyedStreamLine<'tournamentId'>;

export function tournamentEventHash(prevHash: string, e: Omit<ChainedTournamentEvent, 'prevHash' | 'hash'>): string {
  return streamHash(TOURNAMENT_STREAM, e.tournamentId, prevHash, e, e.time);
}

export function chainTournamentEvents(
  tournamentId: string,
  after: { seq: number; hash: string } | null,
  events: readonly TournamentEvent[],
  actor: string | null,
  time: Date,
): ChainedTournamentEvent[] {
  return chainStream(TOURNAMENT_STREAM, tournamentId, after, events, actor, time.toISOString()).map(
    (e) => streamLine(TOURNAMENT_STREAM, tournamentId, { ...e, time: e.time! }) as ChainedTournamentEvent,
  );
}

export function joinTournamentEvent(e: { type: string; payload: Record<string, unknown> }): TournamentEvent {
  return joinStreamEvent<TournamentEvent>(e);
}

// ---------------------------------------------------------------- state

export interface TournamentPlayer {
  id: string;
  rating: number | null;
  clientSeed: string | null;
  withdrawn: boolean;
  /** Join order. */
  order: number;
}

export interface ResultRecord {
  outcome: GameOutcome;
  points: [number, number];
  forfeit: boolean;
  reason: string;
}

export interface PairedRound {
  round: number;
  tables: TableRecord[];
  bye: string | null;
  seedCommitment: string | null;
  results: Map<number, ResultRecord>;
  ended: boolean;
  seed: string | null;
}

export interface TournamentState {
  id: string;
  createdBy: string;
  settings: TournamentSettings;
  seedCommitment: string | null;
  status: TournamentStatus;
  players: TournamentPlayer[];
  /** Rounds to play, fixed at the start. */
  rounds: number;
  /** Players in the event at its start, in join order (the round robin's schedule). */
  field: string[];
  /** The Swiss pairing rules of the event, from TournamentStarted (1 when it names none). */
  pairingVersion: number;
  paired: PairedRound[];
  endReason: string | null;
  masterSeed: string | null;
}

export function initialTournamentState(id: string): TournamentState {
  return {
    id,
    createdBy: '',
    settings: null as unknown as TournamentSettings,
    seedCommitment: null,
    status: 'created',
    players: [],
    rounds: 0,
    field: [],
    pairingVersion: 1,
    paired: [],
    endReason: null,
    masterSeed: null,
  };
}

export function evolveTournament(state: TournamentState, event: TournamentEvent): TournamentState {
  switch (event.type) {
    case 'TournamentCreated': {
      const { type: _t, createdBy, seedCommitment, ...settings } = event;
      return { ...state, createdBy, seedCommitment, settings, status: 'created' };
    }
    case 'PlayerJoined':
      return {
        ...state,
        players: [...state.players, { id: event.player, rating: event.rating, clientSeed: event.clientSeed, withdrawn: false, order: state.players.length }],
      };
    case 'PlayerWithdrew':
      if (state.status === 'created') return { ...state, players: state.players.filter((p) => p.id !== event.player).map((p, order) => ({ ...p, order })) };
      return { ...state, players: state.players.map((p) => (p.id === event.player ? { ...p, withdrawn: true } : p)) };
    case 'TournamentStarted':
      return { ...state, status: 'started', rounds: event.rounds, field: event.players, pairingVersion: event.pairingVersion ?? 1 };
    case 'TournamentCancelled':
      return { ...state, status: 'cancelled' };
    case 'RoundPaired':
      return {
        ...state,
        paired: [
          ...state.paired,
          { round: event.round, tables: event.tables, bye: event.bye, seedCommitment: event.seedCommitment, results: new Map(), ended: false, seed: null },
        ],
      };
    case 'MatchResultRecorded':
      return {
        ...state,
        paired: state.paired.map((r) => {
          if (r.round !== event.round) return r;
          const results = new Map(r.results);
          results.set(event.table, { outcome: event.outcome, points: event.points, forfeit: event.forfeit, reason: event.reason });
          return { ...r, results };
        }),
      };
    case 'RoundEnded':
      return { ...state, paired: state.paired.map((r) => (r.round === event.round ? { ...r, ended: true, seed: event.seed } : r)) };
    case 'TournamentEnded':
      return { ...state, status: 'finished', endReason: event.reason, masterSeed: event.masterSeed };
    default: {
      const unknown: never = event;
      throw new Error(`unknown tournament event ${(unknown as { type: string }).type}`);
    }
  }
}

export function foldTournament(id: string, events: readonly TournamentEvent[]): TournamentState {
  return events.reduce(evolveTournament, initialTournamentState(id));
}

export function currentRound(state: TournamentState): PairedRound | null {
  return state.paired[state.paired.length - 1] ?? null;
}

export function roundComplete(round: PairedRound): boolean {
  return round.tables.every((t) => round.results.has(t.table));
}

/** Games and byes of the log, for the standings. */
export function recordsOf(state: TournamentState): { games: GameRecord[]; byes: ByeRecord[] } {
  const games: GameRecord[] = [];
  const byes: ByeRecord[] = [];
  for (const r of state.paired) {
    if (r.bye) byes.push({ round: r.round, player: r.bye });
    for (const t of r.tables) {
      const res = r.results.get(t.table);
      if (res) games.push({ round: r.round, players: t.players, outcome: res.outcome, points: res.points, forfeit: res.forfeit });
    }
  }
  return { games, byes };
}

export function standingsOf(state: TournamentState): StandingRow[] {
  const { games, byes } = recordsOf(state);
  return computeStandings({
    players: state.players.map((p) => ({ id: p.id, rating: p.rating, withdrawn: p.withdrawn })),
    games,
    byes,
    duplicate: state.settings.duplicate,
    rated: state.settings.rated,
  });
}

/** Rounds a tournament of `players` plays: round robin n-1 (n when odd); Swiss as asked, capped so that no round needs a rematch. */
export function roundsToPlay(settings: Pick<TournamentSettings, 'format' | 'rounds'>, players: number): number {
  return settings.format === 'roundRobin' ? roundRobinRounds(players) : Math.min(settings.rounds, maxSwissRounds(players));
}

/** The pairing input of each active player, from the log. */
export function pairingPlayersOf(state: TournamentState): PairingPlayer[] {
  const info = new Map(
    state.players
      .filter((p) => !p.withdrawn)
      .map((p) => [p.id, { ...p, score: 0, opponents: [] as string[], byes: 0, balance: 0, lastSeat: null as 0 | 1 | null, seatRun: 0 }]),
  );
  const { games, byes } = recordsOf(state);
  // Opponents are met once paired, whether or not the game has a result yet.
  for (const r of state.paired) {
    for (const t of r.tables) {
      const [a, b] = t.players;
      info.get(a)?.opponents.push(b);
      info.get(b)?.opponents.push(a);
      for (const [id, seat] of [
        [a, 0],
        [b, 1],
      ] as const) {
        const p = info.get(id);
        if (!p) continue;
        p.balance += seat === 0 ? 1 : -1;
        p.seatRun = p.lastSeat === seat ? p.seatRun + 1 : 1;
        p.lastSeat = seat;
      }
    }
  }
  for (const b of byes) {
    const p = info.get(b.player);
    if (p) {
      p.byes++;
      p.score += 1;
    }
  }
  for (const g of games) {
    const [a, b] = g.players;
    const [sa, sb] = g.outcome === 'first' ? [1, 0] : g.outcome === 'second' ? [0, 1] : [0.5, 0.5];
    if (info.has(a)) info.get(a)!.score += sa;
    if (info.has(b)) info.get(b)!.score += sb;
  }
  return [...info.values()].map((p) => ({
    id: p.id,
    score: p.score,
    order: p.order,
    rating: state.settings.rated ? p.rating : null,
    opponents: p.opponents,
    byes: p.byes,
    balance: p.balance,
    lastSeat: p.lastSeat,
    seatRun: p.seatRun,
  }));
}

export interface NextPairing {
  round: number;
  pairing: RoundPairing;
  /** Tables (by number) decided at once: one of their players has withdrawn (round robin). */
  forfeits: { table: number; winner: 0 | 1 | null }[];
}

/**
 * The next round to pair, or null when the tournament is over (all rounds
 * played, too few players left, or no Swiss pairing without a rematch:
 * `reason` says which).
 */
export function nextPairing(state: TournamentState): NextPairing | { done: 'completed' | 'noPairing' | 'tooFewPlayers' } {
  const round = state.paired.length + 1;
  if (round > state.rounds) return { done: 'completed' };
  const active = new Set(state.players.filter((p) => !p.withdrawn).map((p) => p.id));
  if (active.size < 2) return { done: 'tooFewPlayers' };
  if (state.settings.format === 'roundRobin') {
    const scheduled = roundRobinSchedule(state.field)[round - 1];
    const forfeits: NextPairing['forfeits'] = [];
    scheduled.tables.forEach((t, i) => {
      const [a, b] = [active.has(t[0]), active.has(t[1])];
      if (!a || !b) forfeits.push({ table: i + 1, winner: a ? 0 : b ? 1 : null });
    });
    const bye = scheduled.bye && active.has(scheduled.bye) ? scheduled.bye : null;
    return { round, pairing: { tables: scheduled.tables, bye }, forfeits };
  }
  const pairing = swissPairingOf(state.pairingVersion)(pairingPlayersOf(state), round);
  if (!pairing) return { done: 'noPairing' };
  return { round, pairing, forfeits: [] };
}

/** The Swiss pairing versions this code implements. */
export const SUPPORTED_PAIRING_VERSIONS: readonly number[] = [1, PAIRING_VERSION];

/** The Swiss pairing of a log's version: 1 (no version in TournamentStarted) or the current one. */
export function swissPairingOf(version: number): typeof pairSwiss {
  if (version === 1) return pairSwissV1;
  if (version === PAIRING_VERSION) return pairSwiss;
  throw new RangeError(`Swiss pairing version ${version} is not implemented`);
}

/** The players seated at the round's tables, in table order (first, second), for the duplicate table seed. */
export function seatedInOrder(tables: readonly { players: [string, string] }[]): string[] {
  return tables.flatMap((t) => t.players);
}

/** A match's end as a tournament result: the outcome of seat 0 against seat 1, and the game points. */
export function resultOfMatchEnd(end: { winner: number | null; totals: number[]; reason: string }): Omit<ResultRecord, 'forfeit'> & { forfeit: false } {
  const outcome: GameOutcome = end.winner === 0 ? 'first' : end.winner === 1 ? 'second' : 'draw';
  return { outcome, points: [end.totals[0] ?? 0, end.totals[1] ?? 0], forfeit: false, reason: end.reason };
}
