/**
 * The challenges' tables: `challenges` and `player_settings` (the
 * account settings: acceptChallenges, language), read and written here only. Raw SQL: every
 * answer is one guarded UPDATE (a claim), and the statements of a creation
 * or an answer run in the caller's transaction (`tx`), beside the match
 * maker's create and the webhook outbox rows (./challenges.service.ts).
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { StoreTransaction } from '../match-store/match-store';

export interface ChallengeRow {
  id: string;
  challenger: string;
  dest_user: string;
  preset: string | null;
  ruleset_id: string | null;
  overrides: Record<string, unknown> | null;
  turn_time_limit: string | null;
  on_expiry: string;
  rated: boolean;
  seat: number | null;
  status: string;
  decline_reason: string | null;
  match_id: string | null;
  created_at: Date;
  expires_at: Date;
}

/** What a challenge says, from its record to every answer about it. */
export interface ChallengeTerms {
  id: string;
  challenger: string;
  destUser: string;
  preset: string | null;
  rulesetId: string | null;
  overrides: Record<string, unknown>;
  turnTimeLimit: string | null;
  onExpiry: string;
  rated: boolean;
  seat: number | null;
}

/** A challenge to record. */
export interface NewChallenge extends ChallengeTerms {
  ttlMs: number;
}

const COLUMNS = `id::text AS id, challenger, dest_user, preset, ruleset_id::text AS ruleset_id, overrides, turn_time_limit, on_expiry, rated, seat,
  status, decline_reason, match_id::text AS match_id, created_at, expires_at`;

/** Answers a pending challenge ($1 id, $2 new status, $3 decline reason): one row, unless it is answered, expired, or being answered (locked). */
const CLAIM_SQL = `UPDATE challenges SET status = $2, decline_reason = $3, answered_at = now()
  WHERE id = (SELECT id FROM challenges WHERE id = $1::uuid AND status = 'pending' AND expires_at > now() FOR UPDATE SKIP LOCKED)`;

@Injectable()
export class ChallengesStore {
  constructor(private readonly prisma: PrismaService) {}

  // ------------------------------------------------------------ settings

  async acceptChallenges(player: string): Promise<string | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<{ accept_challenges: string }[]>(`SELECT accept_challenges FROM player_settings WHERE player = $1`, player);
    return rows[0]?.accept_challenges;
  }

  /** The language the player chose (null: none, or no settings row). */
  async language(player: string): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ language: string | null }[]>(`SELECT language FROM player_settings WHERE player = $1`, player);
    return rows[0]?.language ?? null;
  }

  async setLanguage(player: string, value: string | null): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO player_settings (player, language) VALUES ($1, $2) ON CONFLICT (player) DO UPDATE SET language = EXCLUDED.language`,
      player,
      value,
    );
  }

  async setAcceptChallenges(player: string, value: string): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO player_settings (player, accept_challenges) VALUES ($1, $2) ON CONFLICT (player) DO UPDATE SET accept_challenges = EXCLUDED.accept_challenges`,
      player,
      value,
    );
  }

  // ------------------------------------------------------------ in the caller's transaction

  /** Serializes one challenger's creations until `tx` ends, so that the count in `insert` holds the limit. */
  async lockChallenger(tx: StoreTransaction, challenger: string): Promise<void> {
    await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('challenges:' || $1::text))::text`, challenger);
  }

  /** Records the challenge unless the challenger has `maxPending` pending already (undefined then). */
  async insert(tx: StoreTransaction, c: NewChallenge, maxPending: number): Promise<ChallengeRow | undefined> {
    const made = await tx.$queryRawUnsafe<ChallengeRow[]>(
      `INSERT INTO challenges (id, challenger, dest_user, preset, ruleset_id, overrides, turn_time_limit, on_expiry, rated, seat, expires_at)
           SELECT $1::uuid, $2, $3, $4, $5::uuid, $6::jsonb, $7, $8, $9, $10::int, now() + make_interval(secs => $11::double precision / 1000)
           WHERE (SELECT count(*) FROM challenges WHERE challenger = $2 AND status = 'pending' AND expires_at > now()) < $12::int
           RETURNING ${COLUMNS}`,
      c.id,
      c.challenger,
      c.destUser,
      c.preset,
      c.rulesetId,
      JSON.stringify(c.overrides),
      c.turnTimeLimit,
      c.onExpiry,
      c.rated,
      c.seat,
      c.ttlMs,
      maxPending,
    );
    return made[0];
  }

  /** Claims a pending, unexpired challenge not being answered (SKIP LOCKED): whether this answer won. */
  async claim(tx: StoreTransaction, id: string, status: 'accepted' | 'declined' | 'canceled', reason: string | null): Promise<boolean> {
    const n = await tx.$executeRawUnsafe(CLAIM_SQL, id, status, reason);
    return n === 1;
  }

  async setMatch(tx: StoreTransaction, id: string, matchId: string): Promise<void> {
    await tx.$executeRawUnsafe(`UPDATE challenges SET match_id = $2::uuid WHERE id = $1::uuid`, id, matchId);
  }

  // ------------------------------------------------------------ reading

  /** One challenge by id (a valid uuid), on `db`: the caller's transaction to read on its connection. */
  async find(id: string, db: Pick<StoreTransaction, '$queryRawUnsafe'> = this.prisma): Promise<ChallengeRow | undefined> {
    const rows = await db.$queryRawUnsafe<ChallengeRow[]>(`SELECT ${COLUMNS} FROM challenges WHERE id = $1::uuid`, id);
    return rows[0];
  }

  /** A player's pending challenges, received and sent, newest first. */
  pendingOf(player: string): Promise<ChallengeRow[]> {
    return this.prisma.$queryRawUnsafe<ChallengeRow[]>(
      `SELECT ${COLUMNS} FROM challenges WHERE (dest_user = $1 OR challenger = $1) AND status = 'pending' AND expires_at > now()
       ORDER BY created_at DESC, id LIMIT 200`,
      player,
    );
  }
}
