/**
 * Rematch (lichess's rematch, boardgame.io's playAgain): after a match ends,
 * each of its human players may ask for a rematch; when every human has asked
 * (bots count as accepting), a new match with the same resolved ruleset (the
 * same saved ruleset version, when it came from one) and the same clock and
 * rated flag is created and started, seats rotated by one (seat i takes who
 * sat in seat i+1: in two-player matches the players swap seats, in team
 * matches the partnerships stay and change sides). An offer lapses after
 * REMATCH_TTL or when one of the players declines; asking again then starts
 * a new offer.
 *
 * The offer is a row (rematch_offers, one per finished match). Each ask is
 * one upsert; the ask that completes it creates the new match in a
 * transaction whose first statement claims the row (`status = 'accepted'`,
 * guarded), so two last asks racing on two instances make one match, and a
 * crash makes either both or neither (a complete offer left without a match
 * is completed by the next ask). The match is made by the one match maker
 * (./match-maker.ts), which waits for the client seeds as for any match.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../auth/principal';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../events/match-store';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { MatchMaker } from './match-maker';
import { LobbyConfig } from '../config/slices';
import { prepared } from '../database/prepared-statements';

export interface RematchOffer {
  /** The finished match. */
  matchId: string;
  /** open | declined | accepted | expired */
  status: string;
  /** The human players who asked so far. */
  asked: string[];
  /** The human players of the match (all must ask; bots count as accepting). */
  players: string[];
  declinedBy: string | null;
  /** The rematch, once made. */
  newMatchId: string | null;
  expiresAt: Date;
}

interface OfferRow {
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
export class RematchesService {
  /** REMATCH_TTL (ISO 8601, default PT5M): how long a rematch offer waits for the other players. */
  get ttlMs(): number {
    return this.lobby.REMATCH_TTL;
  }

  constructor(
    private readonly prisma: PrismaService,
    private readonly store: MatchStore,
    private readonly maker: MatchMaker,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly lobby: LobbyConfig,
  ) {}

  /** The match this one is a rematch of (null: none). */
  async rematchOf(matchId: string): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ match_id: string }[]>(REMATCH_OF_SQL, matchId);
    return rows[0]?.match_id ?? null;
  }

  /** The offer after a finished match, as it stands (NOT_FOUND when nobody asked). */
  async offer(matchId: string): Promise<RematchOffer> {
    const { players } = await this.finished(matchId);
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(READ_SQL, matchId);
    if (!rows[0]) throw new DomainError('NOT_FOUND', 'nobody has asked for a rematch of this match');
    return this.toOffer(matchId, players, rows[0]);
  }

  /** I ask for a rematch; the last human to ask makes and starts it (newMatchId). */
  async ask(caller: Principal, matchId: string): Promise<RematchOffer> {
    const { players, state, summary } = await this.finished(matchId);
    if (!players.includes(caller.username)) throw new DomainError('NOT_SEATED', 'only a human player of the match may ask for its rematch');
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(ASK_SQL, matchId, caller.username, this.ttlMs);
    // No row: the offer was accepted already (the rematch exists).
    const row = rows[0] ?? (await this.prisma.$queryRawUnsafe<OfferRow[]>(READ_SQL, matchId))[0];
    if (row.status === 'accepted') return this.toOffer(matchId, players, row);
    if (!players.every((p) => row.asked.includes(p))) {
      await this.notify(players.filter((p) => p !== caller.username), { type: 'rematchOffered', matchId, by: caller.username, expiresAt: new Date(row.expires_at).toISOString() });
      return this.toOffer(matchId, players, row);
    }

    // Everyone asked: the new match, seats rotated by one, created with the offer's claim in one transaction.
    const n = state.seats.length;
    const seats: SeatSpec[] = Array.from({ length: n }, (_, i) => {
      const s = state.seats[(i + 1) % n];
      return s.bot ? { bot: s.bot } : { player: s.player! };
    });
    const createdBy = seats.find((s) => s.player)?.player ?? caller.username;
    const settings = { turnTimeLimit: state.settings.turnTimeLimit, onExpiry: state.settings.onExpiry, ...(state.settings.rated ? { rated: true } : {}) };
    try {
      // Made and started by the one match maker, with the offer's claim in its transaction; the players hear rematchStarted.
      await this.maker.make({
        rules: { preset: state.preset!, overrides: { ...state.options! }, rulesetId: summary.rulesetId },
        seats,
        createdBy,
        settings,
        startBy: createdBy,
        before: async (tx) => {
          const claimed = await tx.$executeRawUnsafe(
            `UPDATE rematch_offers SET status = 'accepted' WHERE match_id = (SELECT match_id FROM rematch_offers
               WHERE match_id = $1::uuid AND status = 'open' AND expires_at > now() AND asked @> ARRAY(SELECT jsonb_array_elements_text($2::jsonb)) FOR UPDATE SKIP LOCKED)`,
            matchId,
            JSON.stringify(players),
          );
          if (claimed !== 1) throw new DomainError('CONFLICT', 'the rematch offer changed meanwhile', { rematchRace: true });
        },
        after: async (tx, made) => {
          await tx.$executeRawUnsafe(`UPDATE rematch_offers SET new_match_id = $2::uuid WHERE match_id = $1::uuid`, matchId, made);
        },
        announce: (newMatchId) => players.map((player) => ({ player, event: { type: 'rematchStarted', matchId, newMatchId } })),
      });
    } catch (err) {
      // Another ask completed it first (or it lapsed meanwhile): answer the offer as it is now.
      if (!(err instanceof DomainError && err.details.rematchRace === true)) throw err;
    }
    const now = (await this.prisma.$queryRawUnsafe<OfferRow[]>(READ_SQL, matchId))[0];
    return this.toOffer(matchId, players, now);
  }

  /** I decline the open offer: it lapses (asking again starts a new one). */
  async decline(caller: Principal, matchId: string): Promise<RematchOffer> {
    const { players } = await this.finished(matchId);
    if (!players.includes(caller.username)) throw new DomainError('NOT_SEATED', 'only a human player of the match may decline its rematch');
    const rows = await this.prisma.$queryRawUnsafe<OfferRow[]>(
      `UPDATE rematch_offers SET status = 'declined', declined_by = $2 WHERE match_id = $1::uuid AND status = 'open' AND expires_at > now()
       RETURNING asked, status, declined_by, new_match_id::text AS new_match_id, expires_at`,
      matchId,
      caller.username,
    );
    if (!rows[0]) throw new DomainError('CONFLICT', 'there is no open rematch offer for this match');
    await this.notify(players.filter((p) => p !== caller.username), { type: 'rematchDeclined', matchId, by: caller.username });
    return this.toOffer(matchId, players, rows[0]);
  }

  private async finished(matchId: string) {
    const summary = await this.store.get(matchId);
    const { state } = await this.store.current(matchId);
    if (state.phase !== 'over') throw new DomainError('CONFLICT', 'a rematch is asked for once the match is over', { status: summary.status });
    if (await this.store.isImported(matchId)) throw new DomainError('CONFLICT', 'an imported match has no rematch');
    const players = state.seats.flatMap((s) => (s.bot || !s.player ? [] : [s.player]));
    return { summary, state, players };
  }

  private toOffer(matchId: string, players: string[], r: OfferRow): RematchOffer {
    const lapsed = r.status === 'open' && new Date(r.expires_at).getTime() <= Date.now();
    return {
      matchId,
      status: lapsed ? 'expired' : r.status,
      asked: r.asked ?? [],
      players,
      declinedBy: r.declined_by,
      newMatchId: r.new_match_id,
      expiresAt: new Date(r.expires_at),
    };
  }

  private async notify(players: string[], event: PlayerEvent): Promise<void> {
    await Promise.all(players.map((p) => this.pubsub.publish(playerChannel(p), event).catch(() => undefined)));
  }
}
