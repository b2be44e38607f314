/**
 * Tournaments (docs/tournaments.md): Swiss and round robin, event-sourced.
 *
 * Every transition (create, join, withdraw, start, cancel, a recorded
 * result, a round's end and the next pairing, the end) is one transaction
 * that locks the tournament's row and appends to its log
 * (./tournament-store.ts), so each happens exactly once whichever instance
 * runs it. A round's matches are made in that same transaction by the one
 * match maker (src/matches/match-maker.ts, `makeInTransaction`), started at
 * once or once the players' client seeds are in (CLIENT_SEED_WINDOW), as
 * every match; after the commit they are published (announcements,
 * reactions) with `tournamentRoundPaired` to each player.
 *
 * Off the players' requests (./tournament-reactions.ts): a table's end is a
 * 'tournament-result' job committed with the append that ends it; its
 * handler records the result here (`matchEnded`). The transaction that
 * records a round's last result (or a withdrawal's forfeit that completes
 * it) does not pair: it queues a 'tournament-round' job keyed
 * `<tournament>:<round>` in that transaction, whose handler
 * (`advanceRound`) ends the round and pairs the next (or ends the
 * tournament). So the play that ends a round's last game answers without
 * the next round's pairing and matches. The start pairs round 1 in its own
 * transaction (the creator's answer shows round 1).
 *
 * Reads (get, standings, round, tables, export) first wait, READ_SETTLE_MS
 * at most, until the tournament has no result or round job waiting or
 * running (`settle`), so that a player who reads right after their play's
 * answer sees its result and the next round, as before.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { normalizeClientSeed, resolveRuleset, turnTimeLimitProblem } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { PrismaService } from '../database/prisma.service';
import { ReadReplica } from '../database/read-replica';
import type { Prisma } from '../database/database';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult, StoreTransaction } from '../match-store/match-store';
import { MatchMaker } from '../matches/match-maker';
import type { MadeInTransaction } from '../matches/match-maker';
import { CustomRulesetsService } from '../rulesets/custom-rulesets.service';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { playerChannel, tournamentChannel } from '../realtime/channels';
import type { TournamentRoundPairedEvent } from '../inbox/player-events';
import { enqueueWebhooks } from '../webhooks/outbox';
import { enqueuePushes } from '../push/push-outbox';
import { TournamentsConfig } from '../config/slices';
import { ExportKeys } from '../match-formats/export-keys';
import { roundSeed, seedCommitment, tableSeed } from './duplicate-seed';
import { PAIRING_VERSION, ROUND_ROBIN_MAX } from './round-pairing';
import {
  currentRound,
  nextPairing,
  resultOfMatchEnd,
  roundComplete,
  roundsToPlay,
  seatedInOrder,
  standingsOf,
  TOURNAMENT_FORMATS,
  TOURNAMENT_STATUSES,
} from './tournament-log';
import type { ChainedTournamentEvent, TournamentEvent, TournamentFormat, TournamentSettings, TournamentState, TournamentStatus } from './tournament-log';
import type { StandingRow } from './standings';
import { TournamentLogStore } from './tournament-store';
import { writeTournamentExport } from './tournament-export';
import type { Folded } from './tournament-store';
import { TournamentRecords } from './tournament-records-store';
import { TournamentTablesStore } from '../match-store/tournament-tables-store';
import { mayBeTable } from '../match-store/tournament-tables';
import { RatingsService } from '../ratings/ratings.service';
import { TeamsService } from '../teams/teams.service';
import { lockForTransaction } from '../database/advisory-lock';
import { JobQueue } from '../jobs/job-queue';
import { enqueueInTransaction } from '../jobs/enqueue';
import { jobId } from '../jobs/job-ids';

export const TOURNAMENT_MAX_PLAYERS = 256;
export const TOURNAMENT_MAX_ROUNDS = 20;
export const TOURNAMENT_NAME_MAX = 80;
export const TOURNAMENT_INVITED_MAX = 256;
/**
 * Joins one player may make to one tournament before its start, at most: so
 * join and withdraw cannot flap without end (each is an event of the log).
 * One more join is 409 LIMIT_REACHED (docs/tournaments.md, "Lifecycle").
 */
export const TOURNAMENT_JOINS_PER_PLAYER = 3;

/** The channel of a tournament's updates (GraphQL tournamentUpdated). */

export interface TournamentUpdate {
  tournamentId: string;
  /** joined | withdrew | started | paired | result | roundEnded | ended | cancelled */
  kind: string;
  seq: number;
  round: number | null;
  status: TournamentStatus;
}

export interface CreateTournamentRequest {
  name: string;
  format: string;
  preset?: string | null;
  rulesetId?: string | null;
  overrides?: Record<string, unknown> | null;
  rounds?: number | null;
  maxPlayers?: number | null;
  startsAt?: string | Date | null;
  turnTimeLimit?: string | null;
  onExpiry?: string | null;
  rated?: boolean | null;
  duplicate?: boolean | null;
  /** The players' chat room of every table: players (default) or off. */
  chat?: string | null;
  visibility?: string | null;
  invited?: string[] | null;
  /** A team-only tournament: only its members join; only its leaders create one. */
  teamId?: string | null;
}

export interface TournamentPlayerView {
  player: string;
  withdrawn: boolean;
}

export interface TournamentView extends Omit<TournamentSettings, 'startsAt' | 'teamId' | 'chat'> {
  /** The players' chat room of every table: players, or off (imposed). */
  chat: 'players' | 'off';
  id: string;
  /** The team whose members alone join; null for none. */
  teamId: string | null;
  createdBy: string;
  status: TournamentStatus;
  startsAt: Date | null;
  /** Rounds to play (fixed at the start; before it, as asked). */
  roundsToPlay: number;
  /** The round paired last (0 before the first). */
  currentRound: number;
  players: TournamentPlayerView[];
  seq: number;
  /** Duplicate events: the commitment to the master seed. */
  seedCommitment: string | null;
  endReason: string | null;
}

export interface RoundTableView {
  table: number;
  players: string[];
  matchId: string | null;
  /** first | second | draw, once recorded. */
  outcome: string | null;
  points: number[] | null;
  forfeit: boolean;
  reason: string | null;
}

export interface RoundView {
  round: number;
  tables: RoundTableView[];
  bye: string | null;
  ended: boolean;
  seedCommitment: string | null;
  /** Revealed when the round ends (duplicate events). */
  seed: string | null;
}

export interface TournamentPage {
  items: TournamentView[];
  /** Pass as `after` for the next page; null at the end. */
  nextCursor: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TX = { maxWait: 15_000, timeout: 30_000 };
/** How long a read waits for the tournament's queued result and round jobs before it answers with what is there. */
export const READ_SETTLE_MS = 10_000;
const SETTLE_POLL_MS = 10;
/** Every round a tournament may have (a Swiss's cap, a round robin of 16): the keys of its round jobs. */
const ROUND_NUMBERS = Array.from({ length: Math.max(TOURNAMENT_MAX_ROUNDS, ROUND_ROBIN_MAX) }, (_, i) => i + 1);

/** How a transition moves the tournament on: `now` in its transaction (the start), `queue` by a 'tournament-round' job. */
type Advance = 'now' | 'queue';

/** The key of the job that ends `round` and pairs the next: one job per round. */
export function roundJobKey(tournamentId: string, round: number): string {
  return `${tournamentId}:${round}`;
}

interface Outcome {
  folded: Folded;
  made: MadeInTransaction[];
  announced: { player: string; event: TournamentRoundPairedEvent }[];
  kinds: string[];
  round: number | null;
  /** Matches to resign (a withdrawal mid-round): [matchId, player]. */
  resign: [string, string][];
  /** Whether the transaction queued the round's 'tournament-round' job. */
  roundQueued: boolean;
}

@Injectable()
export class TournamentsService {
  private readonly logger = new Logger('Tournaments');
  readonly log = new TournamentLogStore();
  private readonly records = new TournamentRecords();

  constructor(
    private readonly prisma: PrismaService,
    private readonly maker: MatchMaker,
    private readonly store: MatchStore,
    private readonly rulesets: CustomRulesetsService,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly tableRows: TournamentTablesStore,
    private readonly ratings: RatingsService,
    private readonly settings: TournamentsConfig,
    private readonly jobs: JobQueue,
    /** Who is in which team: a team-only tournament's creation and joins. */
    private readonly teams: TeamsService,
    /** What signs the exports (the match exports' key, published at /.well-known/scopa-keys.json); without it, unsigned. */
    @Optional() private readonly keys?: ExportKeys,
    /** Where the listing reads (the read replica when there is one); without it, the primary. */
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /** Open (created or started) tournaments one account may have created (TOURNAMENT_LIMIT). */
  get openPerAccount(): number {
    return this.settings.TOURNAMENT_LIMIT;
  }

  // ------------------------------------------------------------ commands

  async create(caller: Principal, req: CreateTournamentRequest): Promise<TournamentView> {
    const settings = await this.settingsOf(req);
    if (settings.teamId) {
      if (!(await this.teams.exists(settings.teamId))) throw new DomainError('NOT_FOUND', 'teamId: no such team');
      if (!(await this.teams.isLeader(settings.teamId, caller.accountId)))
        throw new DomainError('FORBIDDEN', 'only a leader of the team creates a tournament for its members');
    }
    if (settings.rated) await this.maker.assertMayPlayRated([caller.username]);
    const id = randomUUID();
    const master = settings.duplicate ? randomBytes(32).toString('hex') : null;
    const created: TournamentEvent = {
      type: 'TournamentCreated',
      createdBy: caller.username,
      seedCommitment: master ? seedCommitment(master) : null,
      ...settings,
    };
    const limit = this.openPerAccount;
    const folded = await this.prisma.$transaction(async (tx) => {
      // One creation per account at a time, on every instance (the lock is the transaction's): the count and the insert are exact.
      await lockForTransaction(tx, `tournament-creator:${caller.username}`);
      const live = await this.records.openCreatedBy(tx, caller.username);
      if (live >= limit) {
        throw new DomainError(
          'LIMIT_REACHED',
          `at most ${limit} open tournaments (created or started) per account (TOURNAMENT_LIMIT): cancel or finish one first`,
          { limit, live },
        );
      }
      await this.records.insert(tx, { id, settings, createdBy: caller.username, masterSeed: master });
      const empty = await this.log.load(tx, id);
      return this.log.append(tx, empty, [created], caller.username);
    }, TX);
    this.log.remember(id, folded);
    return this.view(folded);
  }

  async join(caller: Principal, id: string, clientSeed?: string | null): Promise<TournamentView> {
    const seed = clientSeed === undefined || clientSeed === null ? null : normalizeClientSeed(clientSeed);
    if (clientSeed !== undefined && clientSeed !== null && seed === null) throw new DomainError('INVALID_CLIENT_SEED', 'clientSeed: 1 to 64 bytes as hex');
    const out = await this.transition(id, caller.username, async (tx, f) => {
      const s = f.state;
      this.mustBeOpen(s);
      if (s.players.some((p) => p.id === caller.username)) throw new DomainError('ALREADY_IN_TOURNAMENT', 'you have joined this tournament already');
      if (s.settings.teamId && !(await this.teams.isMember(s.settings.teamId, caller.accountId, tx))) {
        throw new DomainError('FORBIDDEN', 'this tournament is for the members of its team: join the team first', { teamId: s.settings.teamId });
      }
      if (s.settings.visibility === 'private' && caller.username !== s.createdBy && !s.settings.invited.includes(caller.username)) {
        throw new DomainError('NOT_INVITED', 'this private tournament is for the players it invites');
      }
      if (s.players.length >= s.settings.maxPlayers)
        throw new DomainError('TOURNAMENT_FULL', `the tournament has its ${s.settings.maxPlayers} players`, { maxPlayers: s.settings.maxPlayers });
      // Under the tournament's row lock: the count and this join are one step.
      const joins = await this.records.joinsOf(tx, id, caller.username);
      if (joins >= TOURNAMENT_JOINS_PER_PLAYER) {
        throw new DomainError(
          'LIMIT_REACHED',
          `at most ${TOURNAMENT_JOINS_PER_PLAYER} joins per player and tournament: you have withdrawn from this one too often`,
          { limit: TOURNAMENT_JOINS_PER_PLAYER, live: joins },
        );
      }
      if (s.settings.rated) await this.maker.assertMayPlayRated([caller.username]);
      const rating = s.settings.rated ? await this.ratingOf(tx, caller.username, s.settings) : null;
      await this.records.addPlayer(tx, id, caller.username);
      return { events: [{ type: 'PlayerJoined', player: caller.username, rating, clientSeed: seed }], kinds: ['joined'] };
    });
    return this.view(out.folded);
  }

  async withdraw(caller: Principal, id: string): Promise<TournamentView> {
    const out = await this.transition(id, caller.username, async (tx, f) => {
      const s = f.state;
      if (s.status === 'finished' || s.status === 'cancelled') throw new DomainError('TOURNAMENT_OVER', `the tournament is ${s.status}`);
      const me = s.players.find((p) => p.id === caller.username);
      if (!me || me.withdrawn) throw new DomainError('NOT_IN_TOURNAMENT', 'you are not a player of this tournament');
      if (s.status === 'created') {
        await this.records.removePlayer(tx, id, caller.username);
        return { events: [{ type: 'PlayerWithdrew', player: caller.username, round: null }], kinds: ['withdrew'] };
      }
      await this.records.markWithdrawn(tx, id, caller.username);
      // Mid-event: the game of this round not yet recorded is forfeited now; later rounds do not pair the player.
      const round = currentRound(s);
      const events: TournamentEvent[] = [{ type: 'PlayerWithdrew', player: caller.username, round: round?.round ?? null }];
      const resign: [string, string][] = [];
      if (round && !round.ended) {
        for (const t of round.tables) {
          const seat = t.players.indexOf(caller.username);
          if (seat < 0 || round.results.has(t.table)) continue;
          events.push({
            type: 'MatchResultRecorded',
            round: round.round,
            table: t.table,
            matchId: t.matchId,
            outcome: seat === 0 ? 'second' : 'first',
            points: [0, 0],
            forfeit: true,
            reason: 'withdrawn',
          });
          await this.tableRows.markRecorded(tx, id, round.round, t.table);
          if (t.matchId) resign.push([t.matchId, caller.username]);
        }
      }
      return { events, kinds: ['withdrew'], resign, advance: 'queue' };
    });
    return this.view(out.folded);
  }

  async start(caller: Principal, id: string): Promise<TournamentView> {
    const out = await this.transition(id, caller.username, async (_tx, f) => {
      if (f.state.createdBy !== caller.username) throw new DomainError('FORBIDDEN', 'only the creator of a tournament starts it (or its startsAt)');
      return this.startEvents(f.state);
    });
    return this.view(out.folded);
  }

  async cancel(caller: Principal, id: string): Promise<TournamentView> {
    const out = await this.transition(id, caller.username, async (tx, f) => {
      if (f.state.createdBy !== caller.username) throw new DomainError('FORBIDDEN', 'only the creator of a tournament cancels it');
      this.mustBeOpen(f.state);
      await this.records.clearStartsAt(tx, id);
      return { events: [{ type: 'TournamentCancelled' }], kinds: ['cancelled'] };
    });
    return this.view(out.folded);
  }

  /** The scheduler's start at startsAt (exactly once: the start is a transition; a tournament already started is left alone). */
  async startDue(id: string): Promise<void> {
    await this.transition(id, null, async (tx, f) => {
      if (f.state.status !== 'created') return { events: [], kinds: [] };
      await this.records.clearStartsAt(tx, id);
      // Fewer than two players at startsAt: nothing to play.
      if (f.state.players.length < 2) return { events: [{ type: 'TournamentCancelled' }], kinds: ['cancelled'] };
      return this.startEvents(f.state);
    });
  }

  private startEvents(s: TournamentState): { events: TournamentEvent[]; kinds: string[]; advance: Advance } {
    this.mustBeOpen(s);
    if (s.players.length < 2) throw new DomainError('NOT_ENOUGH_PLAYERS', 'a tournament starts with two players or more');
    if (s.settings.format === 'roundRobin' && s.players.length > ROUND_ROBIN_MAX)
      throw new DomainError('VALIDATION_FAILED', `a round robin has at most ${ROUND_ROBIN_MAX} players`);
    const players = s.players.map((p) => p.id);
    return {
      events: [{ type: 'TournamentStarted', players, rounds: roundsToPlay(s.settings, players.length), pairingVersion: PAIRING_VERSION }],
      kinds: ['started'],
      // round 1 in the start's own transaction: the creator's answer shows it
      advance: 'now',
    };
  }

  /**
   * A match ended (the 'tournament-result' job, ./tournament-reactions.ts):
   * records its result if it is a tournament table not recorded yet; when
   * that completes the round, queues the round's 'tournament-round' job in
   * the same transaction (no pairing here). Costs one indexed lookup.
   */
  async matchEnded(matchId: string, end: { winner: number | null; totals: number[]; reason: string }): Promise<void> {
    // Every table is made private and full (`pair`, below): any other match's end, as the snapshot tells it, is no table's result and costs no read.
    if (!mayBeTable(this.store.peek(matchId))) return;
    const row = await this.tableRows.tableOf(matchId);
    if (!row || row.recorded) return;
    await this.transition(row.tournament_id, null, async (tx, f) => {
      const claimed = await this.tableRows.claimResult(tx, row.tournament_id, row.round, row.table_no);
      if (!claimed) return { events: [], kinds: [] }; // recorded meanwhile (another instance, a withdrawal)
      const round = f.state.paired.find((r) => r.round === row.round);
      if (!round || round.results.has(row.table_no)) return { events: [], kinds: [] };
      const r = resultOfMatchEnd(end);
      return {
        events: [
          {
            type: 'MatchResultRecorded',
            round: row.round,
            table: row.table_no,
            matchId,
            outcome: r.outcome,
            points: r.points,
            forfeit: false,
            reason: r.reason,
          },
        ],
        kinds: ['result'],
        advance: 'queue',
      };
    });
  }

  /**
   * The 'tournament-round' job of `round`: ends it and pairs the next (or
   * ends the tournament), once. Under the row lock the fold tells whether
   * that was done already (a retry, a second worker, a job run twice): then
   * the current round is another one, or this one has ended, and nothing is
   * appended. Returns whether this run advanced the tournament.
   */
  async advanceRound(id: string, round: number): Promise<boolean> {
    const out = await this.transition(id, null, async (_tx, f) => {
      const current = currentRound(f.state);
      const due = f.state.status === 'started' && current !== null && current.round === round && !current.ended;
      return { events: [], kinds: [], ...(due ? { advance: 'now' as const } : {}) };
    });
    return out.kinds.length > 0;
  }

  /**
   * The transition machinery: lock, fold, decide, append; then end the
   * round when complete and pair the next one (or end the tournament) in
   * the same transaction (advance `now`), or queue that as the round's job
   * (advance `queue`); after the commit, publish.
   */
  private async transition(
    id: string,
    actor: string | null,
    decide: (tx: StoreTransaction, folded: Folded) => Promise<{ events: TournamentEvent[]; kinds: string[]; advance?: Advance; resign?: [string, string][] }>,
  ): Promise<Outcome> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such tournament');
    const out = await this.prisma.$transaction(async (tx) => {
      const locked = await this.log.lock(tx, id);
      if (!locked) throw new DomainError('NOT_FOUND', 'no such tournament');
      let folded = await this.log.load(tx, id);
      const decided = await decide(tx, folded);
      folded = await this.log.append(tx, folded, decided.events, actor);
      const outcome: Outcome = { folded, made: [], announced: [], kinds: decided.kinds, round: null, resign: decided.resign ?? [], roundQueued: false };
      if (decided.advance === 'now') await this.advance(tx, outcome, locked.masterSeed);
      else if (decided.advance === 'queue') await this.queueRound(tx, outcome);
      return outcome;
    }, TX);
    this.log.remember(id, out.folded);
    // The job is committed: wake this process's round worker (another process's finds it at its next poll).
    if (out.roundQueued) this.jobs.notify('tournament-round');
    await this.published(out);
    return out;
  }

  /** Queues the current round's 'tournament-round' job when all its tables have results (once: the job's key is the round's). */
  private async queueRound(tx: StoreTransaction, out: Outcome): Promise<void> {
    const s = out.folded.state;
    const round = currentRound(s);
    if (s.status !== 'started' || !round || round.ended || !roundComplete(round)) return;
    await enqueueInTransaction(tx, 'tournament-round', roundJobKey(s.id, round.round), { tournamentId: s.id, round: round.round });
    out.roundQueued = true;
  }

  /** Ends the current round when all its tables have results, then pairs the next (or ends the tournament); repeats while a round completes at once. */
  private async advance(tx: StoreTransaction, out: Outcome, master: string | null): Promise<void> {
    for (;;) {
      const s = out.folded.state;
      if (s.status !== 'started') return;
      const round = currentRound(s);
      if (round && !round.ended) {
        if (!roundComplete(round)) return;
        out.folded = await this.log.append(
          tx,
          out.folded,
          [{ type: 'RoundEnded', round: round.round, seed: master ? roundSeed(master, round.round) : null }],
          null,
        );
        await this.tableRows.endRound(tx, s.id, round.round);
        out.kinds.push('roundEnded');
        out.round = round.round;
        continue;
      }
      const next = nextPairing(s);
      if ('done' in next) {
        out.folded = await this.log.append(tx, out.folded, [{ type: 'TournamentEnded', reason: next.done, masterSeed: master }], null);
        out.kinds.push('ended');
        return;
      }
      await this.pair(tx, out, next, master);
    }
  }

  private async pair(
    tx: StoreTransaction,
    out: Outcome,
    next: Exclude<ReturnType<typeof nextPairing>, { done: unknown }>,
    master: string | null,
  ): Promise<void> {
    const s = out.folded.state;
    const settings = s.settings;
    const forfeited = new Map(next.forfeits.map((f) => [f.table, f.winner]));
    const rSeed = master ? roundSeed(master, next.round) : null;
    const seedsOf = new Map(s.players.map((p) => [p.id, p.clientSeed]));
    const played = next.pairing.tables.filter((_, i) => !forfeited.has(i + 1));
    const dSeed = rSeed
      ? Buffer.from(
          tableSeed(
            rSeed,
            seatedInOrder(played.map((players) => ({ players }))).map((p) => seedsOf.get(p) ?? null),
          ),
          'hex',
        )
      : null;
    const tables: { table: number; players: [string, string]; matchId: string | null }[] = [];
    for (let i = 0; i < next.pairing.tables.length; i++) {
      const players = next.pairing.tables[i];
      const table = i + 1;
      if (forfeited.has(table)) {
        tables.push({ table, players, matchId: null });
        continue;
      }
      const made = await this.maker.makeInTransaction(tx, {
        rules: {
          preset: settings.preset,
          overrides: settings.overrides,
          ruleset: settings.rulesetId ? { id: settings.rulesetId, preset: settings.preset, overrides: settings.overrides } : null,
        },
        seats: [{ player: players[0] }, { player: players[1] }],
        createdBy: s.createdBy,
        settings: {
          turnTimeLimit: settings.turnTimeLimit,
          onExpiry: (settings.onExpiry ?? 'autoPlay') as 'autoPlay' | 'forfeit',
          ...(settings.rated ? { rated: true } : {}),
          // a tournament that imposes off closes its tables' players' chat (src/chat)
          ...(settings.chat === 'off' ? { chat: 'off' as const } : {}),
        },
        // private: not in the lobby, and what lets matchEnded skip every public match without a read
        visibility: 'private',
        startBy: players[0],
        ...(dSeed ? { seed: dSeed } : {}),
      });
      out.made.push(made);
      tables.push({ table, players, matchId: made.result.matchId });
    }
    const events: TournamentEvent[] = [
      { type: 'RoundPaired', round: next.round, tables, bye: next.pairing.bye, seedCommitment: rSeed ? seedCommitment(rSeed) : null },
    ];
    for (const t of tables) {
      if (t.matchId !== null) continue;
      const winner = forfeited.get(t.table) ?? null;
      events.push({
        type: 'MatchResultRecorded',
        round: next.round,
        table: t.table,
        matchId: null,
        outcome: winner === 0 ? 'first' : winner === 1 ? 'second' : 'draw',
        points: [0, 0],
        forfeit: true,
        reason: 'withdrawn',
      });
    }
    await this.tableRows.pair(tx, s.id, next.round, tables, settings.duplicate);
    out.folded = await this.log.append(tx, out.folded, events, null);
    out.kinds.push('paired');
    out.round = next.round;
    const announced: { player: string; event: TournamentRoundPairedEvent }[] = [];
    for (const t of tables) {
      t.players.forEach((player, seat) =>
        announced.push({
          player,
          event: {
            type: 'tournamentRoundPaired',
            tournamentId: s.id,
            round: next.round,
            matchId: t.matchId,
            seat: t.matchId ? seat : null,
            players: t.players,
          },
        }),
      );
    }
    if (next.pairing.bye)
      announced.push({
        player: next.pairing.bye,
        event: { type: 'tournamentRoundPaired', tournamentId: s.id, round: next.round, matchId: null, seat: null, players: [next.pairing.bye] },
      });
    await enqueueWebhooks(tx, announced);
    await enqueuePushes(tx, announced);
    out.announced.push(...announced);
  }

  /** After the commit: the new matches (announcements, reactions), the players' notices, the tournament's update, and resignations of a withdrawal. */
  private async published(out: Outcome): Promise<void> {
    const s = out.folded.state;
    for (const kind of out.kinds) {
      const update: TournamentUpdate = { tournamentId: s.id, kind, seq: out.folded.seq, round: out.round, status: s.status };
      await this.pubsub.publish(tournamentChannel(s.id), update).catch(() => undefined);
    }
    await Promise.all(out.announced.map((a) => this.pubsub.publish(playerChannel(a.player), a.event).catch(() => undefined)));
    for (const made of out.made) {
      try {
        await made.publish();
      } catch (err) {
        this.logger.warn(`publishing tournament match ${made.result.matchId}: ${(err as Error).message}`);
      }
    }
    for (const [matchId, player] of out.resign) await this.leave(matchId, player);
  }

  /** A withdrawn player's match: resigned (or aborted before its start); its result is already in the tournament log. */
  private async leave(matchId: string, player: string): Promise<void> {
    for (const type of ['resign', 'abort'] as const) {
      try {
        const result: CommandResult = await this.store.execute(matchId, { type, player }, { actor: player });
        await this.store.settled(result);
        return;
      } catch (err) {
        if (!(err instanceof DomainError)) this.logger.warn(`withdrawal from ${matchId}: ${(err as Error).message}`);
      }
    }
  }

  // ------------------------------------------------------------ the scheduler

  /** Tournaments whose startsAt has come (at most DUE_STARTS_BATCH a tick). */
  async dueStarts(): Promise<string[]> {
    return this.records.dueStarts(this.prisma);
  }

  // ------------------------------------------------------------ reads

  async get(id: string): Promise<TournamentView> {
    return this.view(await this.settledFold(id));
  }

  /**
   * What the tournament's chat room needs (src/chat): whether it exists, and whether a round of a duplicate
   * tournament runs now (every table holds the same cards: the room is closed). Read from the log as it stands,
   * without waiting for queued jobs (a round just ended may still count as running for a moment).
   */
  async chatState(id: string): Promise<{ duplicateRoundRunning: boolean; private: boolean; members: string[] }> {
    const s = (await this.folded(id)).state;
    const last = s.paired[s.paired.length - 1];
    return {
      duplicateRoundRunning: s.settings.duplicate && s.status === 'started' && last !== undefined && !last.ended,
      private: s.settings.visibility === 'private',
      // who may read a private tournament's room: its creator, its players and its invited
      members: [s.createdBy, ...s.players.map((p) => p.id), ...s.settings.invited],
    };
  }

  async list(filter: { status?: string | null; format?: string | null }, first: number, after: string | null, caller: string | null): Promise<TournamentPage> {
    if (filter.status && !(TOURNAMENT_STATUSES as readonly string[]).includes(filter.status))
      throw new DomainError('VALIDATION_FAILED', `status: one of ${TOURNAMENT_STATUSES.join(', ')}`);
    if (filter.format && !(TOURNAMENT_FORMATS as readonly string[]).includes(filter.format))
      throw new DomainError('VALIDATION_FAILED', `format: one of ${TOURNAMENT_FORMATS.join(', ')}`);
    const limit = Math.max(1, Math.min(100, first));
    let cursor: { t: string; id: string } | null = null;
    if (after) {
      try {
        const [t, cid] = Buffer.from(after, 'base64url').toString('utf8').split('|');
        if (!t || !cid || !UUID.test(cid) || Number.isNaN(Date.parse(t))) throw new Error('bad');
        cursor = { t, id: cid };
      } catch {
        throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
      }
    }
    // A listing does not wait for each tournament's jobs (get does): it shows every item as its log stands, on the read
    // replica when there is one (a little lag: docs/operations.md "Read replicas"); a tournament's own reads stay on the primary.
    const { rows, items } = await this.listingReads(async (db) => {
      const rows = await this.records.page(db, { status: filter.status ?? null, format: filter.format ?? null, caller: caller ?? '', cursor, limit });
      const items = await Promise.all(rows.slice(0, limit).map(async (r) => this.view(await this.folded(r.id, db))));
      return { rows, items };
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items,
      nextCursor: rows.length > limit && last ? Buffer.from(`${new Date(last.created_at).toISOString()}|${last.id}`).toString('base64url') : null,
    };
  }

  async standings(id: string): Promise<StandingRow[]> {
    const f = await this.settledFold(id);
    if (!f.state.settings) throw new DomainError('NOT_FOUND', 'no such tournament');
    return standingsOf(f.state);
  }

  async round(id: string, n: number): Promise<RoundView> {
    return this.roundView(await this.settledFold(id), n);
  }

  private roundView(f: Folded, n: number): RoundView {
    const round = f.state.paired.find((r) => r.round === n);
    if (!round) throw new DomainError('NOT_FOUND', `round ${n} has not been paired`);
    return {
      round: round.round,
      tables: round.tables.map((t) => {
        const res = round.results.get(t.table);
        return {
          table: t.table,
          players: t.players,
          matchId: t.matchId,
          outcome: res?.outcome ?? null,
          points: res?.points ?? null,
          forfeit: res?.forfeit ?? false,
          reason: res?.reason ?? null,
        };
      }),
      bye: round.bye,
      ended: round.ended,
      seedCommitment: round.seedCommitment,
      seed: round.seed,
    };
  }

  /** Every round's tables, in order (GET .../matches). */
  async tables(id: string): Promise<(RoundTableView & { round: number })[]> {
    const f = await this.settledFold(id);
    const out: (RoundTableView & { round: number })[] = [];
    for (const r of f.state.paired) {
      for (const t of this.roundView(f, r.round).tables) out.push({ round: r.round, ...t });
    }
    return out;
  }

  /** The tournament's updates from now on (NOT_FOUND for no such tournament). */
  async follow(id: string): Promise<AsyncIterableIterator<TournamentUpdate>> {
    await this.folded(id);
    return this.pubsub.asyncIterableIterator<TournamentUpdate>(tournamentChannel(id));
  }

  /** The log's events, in order. */
  async export(id: string): Promise<ChainedTournamentEvent[]> {
    await this.settledFold(id);
    return this.log.events(this.prisma, id);
  }

  /** GET .../export (./tournament-export.ts): the signed header, then the log's events, one JSON line each. */
  async exportJsonl(id: string): Promise<string> {
    return writeTournamentExport(await this.export(id), this.keys?.signer ?? null);
  }

  /**
   * The read barrier: resolves once the tournament has no 'tournament-result'
   * job (of a table whose match is over and whose result is not recorded) nor
   * 'tournament-round' job waiting or running, or after `timeoutMs` (then the
   * read answers with what is there). Checked before the log is read: a
   * round's job is committed with its last result, so some job is always
   * seen unfinished until the next round is paired. Two indexed queries when
   * nothing is pending; on the embedded database the workers run in this
   * process, woken here.
   */
  async settle(id: string, timeoutMs = READ_SETTLE_MS): Promise<void> {
    if (!UUID.test(id)) return;
    const until = Date.now() + timeoutMs;
    for (let woken = false; ; woken = true) {
      const ended = await this.tableRows.endedUnrecorded(id);
      const pending = [
        ...ended.map((e) => ({ kind: 'tournament-result' as const, id: jobId('tournament-result', `${e.matchId}:${e.seq}`) })),
        ...ROUND_NUMBERS.map((n) => ({ kind: 'tournament-round' as const, id: jobId('tournament-round', roundJobKey(id, n)) })),
      ];
      if (!(await this.jobs.anyUnfinished(pending))) return;
      if (!woken) {
        this.jobs.notify('tournament-result');
        this.jobs.notify('tournament-round');
      }
      if (Date.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  private async settledFold(id: string): Promise<Folded> {
    await this.settle(id);
    return this.folded(id);
  }

  private listingReads<T>(fn: (db: Prisma) => Promise<T>): Promise<T> {
    return this.replica ? this.replica.read((db) => fn(db.prisma)) : fn(this.prisma);
  }

  /** `db`: the listing's read source; the primary otherwise. */
  private async folded(id: string, db: Prisma = this.prisma): Promise<Folded> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such tournament');
    const f = await this.log.load(db, id);
    if (f.seq === 0) throw new DomainError('NOT_FOUND', 'no such tournament');
    return f;
  }

  private view(f: Folded): TournamentView {
    const s = f.state;
    return {
      ...s.settings,
      chat: s.settings.chat ?? 'players',
      teamId: s.settings.teamId ?? null,
      id: s.id,
      createdBy: s.createdBy,
      status: s.status,
      // when it starts by itself: only while it waits to start
      startsAt: s.status === 'created' && s.settings.startsAt ? new Date(s.settings.startsAt) : null,
      roundsToPlay:
        s.status === 'created' ? (s.settings.format === 'roundRobin' ? roundsToPlay(s.settings, Math.max(2, s.players.length)) : s.settings.rounds) : s.rounds,
      currentRound: s.paired.length,
      players: s.players.map((p) => ({ player: p.id, withdrawn: p.withdrawn })),
      seq: f.seq,
      seedCommitment: s.seedCommitment,
      endReason: s.endReason,
    };
  }

  // ------------------------------------------------------------ helpers

  private mustBeOpen(s: TournamentState): void {
    if (s.status === 'started') throw new DomainError('TOURNAMENT_STARTED', 'the tournament has started');
    if (s.status !== 'created') throw new DomainError('TOURNAMENT_OVER', `the tournament is ${s.status}`);
  }

  /** The player's rating in the tournament's pool (the ruleset id, else the preset), 1500 without one. */
  private async ratingOf(tx: StoreTransaction, player: string, settings: TournamentSettings): Promise<number> {
    return Math.round((await this.ratings.ratingIn(settings.rulesetId ?? settings.preset, player, tx)) ?? 1500);
  }

  private async settingsOf(req: CreateTournamentRequest): Promise<TournamentSettings> {
    const name = String(req.name ?? '').trim();
    if (name.length < 1 || name.length > TOURNAMENT_NAME_MAX) throw new DomainError('VALIDATION_FAILED', `name: 1 to ${TOURNAMENT_NAME_MAX} characters`);
    if (!(TOURNAMENT_FORMATS as readonly string[]).includes(req.format))
      throw new DomainError('VALIDATION_FAILED', `format: one of ${TOURNAMENT_FORMATS.join(', ')}`);
    const format = req.format as TournamentFormat;
    const rated = req.rated === true;
    const duplicate = req.duplicate === true;
    if (!req.preset && !req.rulesetId) throw new DomainError('VALIDATION_FAILED', 'give a preset or a rulesetId');
    if (rated && req.overrides && Object.keys(req.overrides).length > 0)
      throw new DomainError('VALIDATION_FAILED', 'a rated tournament takes no overrides: save them as a ruleset and rate that');
    let preset = req.preset ?? null;
    let overrides: Record<string, unknown> = req.overrides ?? {};
    let rulesetId: string | null = null;
    if (req.rulesetId) {
      const saved = await this.rulesets.freeze(req.rulesetId);
      if (preset && preset !== saved.preset) throw new DomainError('VALIDATION_FAILED', `the ruleset is based on ${saved.preset}, not ${preset}`);
      if (Object.keys(overrides).length > 0)
        throw new DomainError('VALIDATION_FAILED', 'a saved ruleset is played as saved: give no overrides with a rulesetId');
      preset = saved.preset;
      overrides = saved.overrides;
      rulesetId = saved.id;
    }
    const resolved = resolveRuleset(preset as string, overrides);
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    if (resolved.ruleset.options.players !== 2)
      throw new DomainError('VALIDATION_FAILED', 'a tournament plays two-player matches: choose a two-player ruleset');
    const maxPlayers = req.maxPlayers ?? (format === 'roundRobin' ? ROUND_ROBIN_MAX : 64);
    const cap = format === 'roundRobin' ? ROUND_ROBIN_MAX : TOURNAMENT_MAX_PLAYERS;
    if (!Number.isInteger(maxPlayers) || maxPlayers < 2 || maxPlayers > cap)
      throw new DomainError('VALIDATION_FAILED', `maxPlayers: 2 to ${cap} for ${format}`);
    const rounds = req.rounds ?? 3;
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > TOURNAMENT_MAX_ROUNDS)
      throw new DomainError('VALIDATION_FAILED', `rounds: 1 to ${TOURNAMENT_MAX_ROUNDS}`);
    let startsAt: string | null = null;
    if (req.startsAt !== undefined && req.startsAt !== null) {
      const t = new Date(req.startsAt);
      if (Number.isNaN(t.getTime())) throw new DomainError('VALIDATION_FAILED', 'startsAt: an ISO 8601 time');
      if (t.getTime() < Date.now() - 60_000) throw new DomainError('VALIDATION_FAILED', 'startsAt: a time to come');
      startsAt = t.toISOString();
    }
    const turnTimeLimit = req.turnTimeLimit ?? null;
    const limitProblem = turnTimeLimitProblem(turnTimeLimit);
    if (limitProblem) throw new DomainError('VALIDATION_FAILED', limitProblem);
    const onExpiry = req.onExpiry ?? 'autoPlay';
    if (onExpiry !== 'autoPlay' && onExpiry !== 'forfeit') throw new DomainError('VALIDATION_FAILED', 'onExpiry: autoPlay or forfeit');
    const visibility = req.visibility ?? 'public';
    if (visibility !== 'public' && visibility !== 'private') throw new DomainError('VALIDATION_FAILED', 'visibility: public or private');
    const chat = req.chat ?? 'players';
    if (chat !== 'players' && chat !== 'off') throw new DomainError('VALIDATION_FAILED', 'chat: players or off');
    const invited = [...new Set((req.invited ?? []).map((u) => String(u).toLowerCase()))];
    if (invited.length > TOURNAMENT_INVITED_MAX) throw new DomainError('VALIDATION_FAILED', `invited: at most ${TOURNAMENT_INVITED_MAX} usernames`);
    const teamId = req.teamId === undefined || req.teamId === null ? null : String(req.teamId).toLowerCase();
    if (teamId !== null && !UUID.test(teamId)) throw new DomainError('VALIDATION_FAILED', 'teamId: the id of a team');
    return {
      name,
      format,
      preset: preset as string,
      overrides,
      rulesetId,
      rulesetVersion: null,
      rounds,
      maxPlayers,
      startsAt,
      turnTimeLimit,
      onExpiry,
      rated,
      duplicate,
      // only when off: the logs of tournaments with the players' chat stay as they were
      ...(chat === 'off' ? { chat: 'off' as const } : {}),
      visibility,
      invited,
      // Only when set: the log of a tournament for everyone reads as before.
      ...(teamId ? { teamId } : {}),
    };
  }
}
