/**
 * The rematches' table: `rematch_offers` (one row per finished match),
 * read and written here only. Raw SQL: an ask is one upsert, and the claim
 * that completes an offer is a guarded UPDATE in the match maker's
 * transaction (`tx`), so two last asks racing make one match
 * (./rematches.service.ts).
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { StoreTransaction } from '../match-store/match-store';
import { prepared } from '../database/prepared-statements';

export interface OfferRow {
  asked: string[];
  status: string;
  declined_by: string | null;
  new_match_id: string | null;
  expires_at: Date;
}

const ASK_SQL = `INSERT INTO rematch_offers (match_id, asked, status, expires_at)
  VALUES ($1::uuid, ARRAY[$2::text], 'open', now() + make_interval(secs => $3::double precision / 1000))
  ON CONFLICT (match_id) DO UPDATE SET
    asked = CASE WHEN rematch_offers.status = 'open' AND rematch_offers.expires_at > now()
      THEN (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(rematch_offers.asked || ARRAY[$2::text]) AS x) ELSE ARRAY[$2::text] END,
    expires_at = CASE WHEN rematch_offers.status = 'open' AND rematch_offers.expires_at > now()
      THEN rematch_offers.expires_at ELSE EXCLUDED.expires_at END,
    status = 'open', declined_by = NULL
  WHERE rematch_offers.status <> 'accepted'
  RETURNING asked, status, declined_by, new_match_id::text AS new_match_id, expires_at`;

// Read with every match a client reads (its rematchOf).
const REMATCH_OF_SQL = prepared(`SELECT match_id::text AS match_id FROM rematch_offers WHERE new_match_id = $1::uuid`);
const READ_SQL = `SELECT asked, status, declined_by, new_match_id::text AS new_match_id, expires_at FROM rematch_offers WHERE match_id = $1::uuid`;

@Injectable()
export class RematchesStore {
  constructor(private readonly prisma: PrismaService) {}

  /** The match `newMatchId` is a rematch of, if any. */
  async rematchOf(newMatchId: string): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ match_id: string }[]>(REMATCH_OF_SQL, newMatchId);
    return rows[0]?.match_id ?? null;
  }

  async read(matchId: string): Promise<OfferRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(READ_SQL, matchId);
    return rows[0];
  }

  /** Adds `player` to the open offer (or starts a new one lasting `ttlMs`); undefined when the offer was accepted already. */
  async ask(matchId: string, player: string, ttlMs: number): Promise<OfferRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(ASK_SQL, matchId, player, ttlMs);
    return rows[0];
  }

  /** Declines the open offer; undefined when there is none. */
  async decline(matchId: string, player: string): Promise<OfferRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(
      `UPDATE rematch_offers SET status = 'declined', declined_by = $2 WHERE match_id = $1::uuid AND status = 'open' AND expires_at > now()
       RETURNING asked, status, declined_by, new_match_id::text AS new_match_id, expires_at`,
      matchId,
      player,
    );
    return rows[0];
  }

  /** Claims the open offer that every one of `players` asked for (SKIP LOCKED: a racing claim finds nothing): whether this one won. */
  async claim(tx: StoreTransaction, matchId: string, players: string[]): Promise<boolean> {
    const claimed = await tx.$executeRawUnsafe(
      `UPDATE rematch_offers SET status = 'accepted' WHERE match_id = (SELECT match_id FROM rematch_offers
               WHERE match_id = $1::uuid AND status = 'open' AND expires_at > now() AND asked @> ARRAY(SELECT jsonb_array_elements_text($2::jsonb)) FOR UPDATE SKIP LOCKED)`,
      matchId,
      JSON.stringify(players),
    );
    return claimed === 1;
  }

  async setRematch(tx: StoreTransaction, matchId: string, newMatchId: string): Promise<void> {
    await tx.$executeRawUnsafe(`UPDATE rematch_offers SET new_match_id = $2::uuid WHERE match_id = $1::uuid`, matchId, newMatchId);
  }
}
