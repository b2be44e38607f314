/**
 * The tournament log in the database: a stream of the generic stream store
 * (src/stream-store/stream-store.ts) over tournament_events (the chain) and the
 * tournaments row (its head: last seq and hash, and the projection: status,
 * round, player count). The tables of each round (tournament_tables, which
 * link matches to rounds) are the service's.
 *
 * Every transition runs in ONE transaction that first locks the tournament's
 * row (`SELECT ... FOR UPDATE`): transitions of one tournament happen one
 * after the other on every instance, each deciding on the log as the one
 * before it left it, so a result is recorded once and a round advances once
 * however many instances receive its last results at once. The stream's
 * append guard (the row at the seq decided on) and the primary key
 * (tournament_id, seq) refuse a second writer besides.
 *
 * States are folded from the log and cached per tournament (the stream's
 * fold cache): a transition reads only the events after the cached seq.
 */
import type { StoreTransaction } from '../match-store/match-store';
import { StreamStore } from '../stream-store/stream-store';
import type { Folded as StreamFolded, StreamSpec } from '../stream-store/stream-store';
import { evolveTournament, initialTournamentState, TOURNAMENT_STREAM } from './tournament-log';
import type { ChainedTournamentEvent, TournamentEvent, TournamentState } from './tournament-log';

export type Folded = StreamFolded<TournamentState>;

export type Sql = Pick<StoreTransaction, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** The tournament stream: its chain, its tables and its fold. */
export const TOURNAMENT_STREAM_SPEC: StreamSpec<TournamentEvent, TournamentState> = {
  kind: TOURNAMENT_STREAM,
  table: {
    events: 'tournament_events',
    idColumn: 'tournament_id',
    head: 'tournaments',
    projection: [
      { column: 'status', type: 'text', of: (s) => s.status },
      { column: 'round', type: 'int', of: (s) => s.paired.length },
      { column: 'player_count', type: 'int', of: (s) => s.players.filter((p) => !p.withdrawn).length },
    ],
  },
  initial: initialTournamentState,
  evolve: evolveTournament,
  cacheSize: 1000,
};

export class TournamentLogStore {
  private readonly stream = new StreamStore(TOURNAMENT_STREAM_SPEC);

  /** Locks the tournament's row for this transaction; null when there is none. */
  async lock(tx: Sql, id: string): Promise<{ masterSeed: string | null } | null> {
    const rows = await tx.$queryRawUnsafe<{ master_seed: string | null }[]>(`SELECT master_seed FROM tournaments WHERE id = $1::uuid FOR UPDATE`, id);
    return rows[0] ? { masterSeed: rows[0].master_seed } : null;
  }

  /** The state folded from the whole log (cached; only newer events are read). */
  load(db: Sql, id: string): Promise<Folded> {
    return this.stream.load(db, id);
  }

  /** Every event of the log, chained as stored (the export). */
  async events(db: Sql, id: string): Promise<ChainedTournamentEvent[]> {
    return (await this.stream.lines(db, id)) as ChainedTournamentEvent[];
  }

  /** Appends events after `folded` (inside the caller's transaction, the row locked) and returns the new fold. */
  append(tx: Sql, folded: Folded, events: readonly TournamentEvent[], actor: string | null): Promise<Folded> {
    return this.stream.append(tx, folded.state.id, folded, events, actor);
  }

  /** After a commit: the fold it made is the log's. */
  remember(id: string, folded: Folded): void {
    this.stream.remember(id, folded);
  }
}
