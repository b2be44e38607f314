/**
 * The tournament log in the database: tournament_events (the chain), the
 * tournaments row (its projection: status, round, last seq and hash), and
 * the tables of each round (tournament_tables, which link matches to rounds).
 *
 * Every transition runs in ONE transaction that first locks the tournament's
 * row (`SELECT ... FOR UPDATE`): transitions of one tournament happen one
 * after the other on every instance, each deciding on the log as the one
 * before it left it, so a result is recorded once and a round advances once
 * however many instances receive its last results at once. The primary key
 * (tournament_id, seq) refuses a second writer at a seq besides.
 *
 * States are folded from the log and cached per tournament (the fold of the
 * events up to a seq never changes): a transition reads only the events
 * after the cached seq.
 */
import type { StoreTransaction } from '../events/match-store';
import { chainTournamentEvents, evolveTournament, initialTournamentState, joinTournamentEvent } from './tournament-log';
import type { ChainedTournamentEvent, TournamentEvent, TournamentState } from './tournament-log';
import { GENESIS_HASH } from '../events/chain';

export interface Folded {
  seq: number;
  hash: string;
  state: TournamentState;
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

export type Sql = Pick<StoreTransaction, '$queryRawUnsafe' | '$executeRawUnsafe'>;

const CACHE_MAX = 1000;

export class TournamentLogStore {
  private readonly cache = new Map<string, Folded>();

  /** Locks the tournament's row for this transaction; null when there is none. */
  async lock(tx: Sql, id: string): Promise<{ masterSeed: string | null } | null> {
    const rows = await tx.$queryRawUnsafe<{ master_seed: string | null }[]>(`SELECT master_seed FROM tournaments WHERE id = $1::uuid FOR UPDATE`, id);
    return rows[0] ? { masterSeed: rows[0].master_seed } : null;
  }

  /** The state folded from the whole log (cached; only newer events are read). */
  async load(db: Sql, id: string): Promise<Folded> {
    const cached = this.cache.get(id);
    const from = cached?.seq ?? 0;
    const rows = await db.$queryRawUnsafe<EventRow[]>(
      `SELECT seq, type, payload, actor, time, prev_hash, hash FROM tournament_events WHERE tournament_id = $1::uuid AND seq > $2::int ORDER BY seq`,
      id,
      from,
    );
    let folded: Folded = cached ?? { seq: 0, hash: GENESIS_HASH, state: initialTournamentState(id) };
    for (const r of rows) folded = { seq: r.seq, hash: r.hash, state: evolveTournament(folded.state, joinTournamentEvent(r)) };
    this.remember(id, folded);
    return folded;
  }

  /** Every event of the log, chained as stored (the export). */
  async events(db: Sql, id: string): Promise<ChainedTournamentEvent[]> {
    const rows = await db.$queryRawUnsafe<EventRow[]>(
      `SELECT seq, type, payload, actor, time, prev_hash, hash FROM tournament_events WHERE tournament_id = $1::uuid ORDER BY seq`,
      id,
    );
    return rows.map((r) => ({ tournamentId: id, seq: r.seq, type: r.type, payload: r.payload, actor: r.actor, time: new Date(r.time).toISOString(), prevHash: r.prev_hash, hash: r.hash }));
  }

  /** Appends events after `folded` (inside the caller's transaction, the row locked) and returns the new fold. */
  async append(tx: Sql, folded: Folded, events: readonly TournamentEvent[], actor: string | null): Promise<Folded> {
    if (events.length === 0) return folded;
    const id = folded.state.id;
    const chained = chainTournamentEvents(id, { seq: folded.seq, hash: folded.hash }, events, actor, new Date());
    await tx.$executeRawUnsafe(
      `INSERT INTO tournament_events (tournament_id, seq, type, payload, actor, time, prev_hash, hash)
       SELECT $1::uuid, e.seq, e.type, e.payload, e.actor, e.time::timestamptz, e.prev_hash, e.hash
       FROM jsonb_to_recordset($2::jsonb) AS e(seq int, type text, payload jsonb, actor text, time text, prev_hash text, hash text)`,
      id,
      JSON.stringify(chained.map((c) => ({ seq: c.seq, type: c.type, payload: c.payload, actor: c.actor, time: c.time, prev_hash: c.prevHash, hash: c.hash }))),
    );
    let state = folded.state;
    for (const e of events) state = evolveTournament(state, e);
    const last = chained[chained.length - 1];
    await tx.$executeRawUnsafe(
      `UPDATE tournaments SET current_seq = $2::int, last_hash = $3, status = $4, round = $5::int, player_count = $6::int, updated_at = now() WHERE id = $1::uuid`,
      id,
      last.seq,
      last.hash,
      state.status,
      state.paired.length,
      state.players.filter((p) => !p.withdrawn).length,
    );
    return { seq: last.seq, hash: last.hash, state };
  }

  /** After a commit: the fold it made is the log's. */
  remember(id: string, folded: Folded): void {
    const cached = this.cache.get(id);
    if (cached && cached.seq >= folded.seq) return;
    this.cache.delete(id);
    this.cache.set(id, folded);
    if (this.cache.size > CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
  }
}
