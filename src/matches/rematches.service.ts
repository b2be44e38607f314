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
import type { Principal } from '../common/principal';
import { MatchStore } from '../match-store/match-store';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { MatchMaker } from './match-maker';
import { LobbyConfig } from '../config/slices';
import { RelationsService } from '../relations/relations.service';
import { RematchesStore } from './rematches-store';
import type { OfferRow } from './rematches-store';

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

@Injectable()
export class RematchesService {
  /** REMATCH_TTL (ISO 8601, default PT5M): how long a rematch offer waits for the other players. */
  get ttlMs(): number {
    return this.lobby.REMATCH_TTL;
  }

  constructor(
    private readonly offers: RematchesStore,
    private readonly store: MatchStore,
    private readonly maker: MatchMaker,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly lobby: LobbyConfig,
    private readonly relations: RelationsService,
  ) {}

  /** The match this one is a rematch of (null: none). */
  async rematchOf(matchId: string): Promise<string | null> {
    return this.offers.rematchOf(matchId);
  }

  /** The offer after a finished match, as it stands (NOT_FOUND when nobody asked). */
  async offer(matchId: string): Promise<RematchOffer> {
    const { players } = await this.finished(matchId);
    const row = await this.offers.read(matchId);
    if (!row) throw new DomainError('NOT_FOUND', 'nobody has asked for a rematch of this match');
    return this.toOffer(matchId, players, row);
  }

  /** I ask for a rematch; the last human to ask makes and starts it (newMatchId). */
  async ask(caller: Principal, matchId: string): Promise<RematchOffer> {
    const { players, state, summary } = await this.finished(matchId);
    if (!players.includes(caller.username)) throw new DomainError('NOT_SEATED', 'only a human player of the match may ask for its rematch');
    // A block between any two of its players, either way (docs/social.md "Blocks"): no offer is recorded, nobody is told.
    await this.relations.assertNotBlocked(players, 'a rematch');
    // No row: the offer was accepted already (the rematch exists).
    const row = (await this.offers.ask(matchId, caller.username, this.ttlMs)) ?? (await this.offers.read(matchId))!;
    if (row.status === 'accepted') return this.toOffer(matchId, players, row);
    if (!players.every((p) => row.asked.includes(p))) {
      await this.notify(
        players.filter((p) => p !== caller.username),
        { type: 'rematchOffered', matchId, by: caller.username, expiresAt: new Date(row.expires_at).toISOString() },
      );
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
          if (!(await this.offers.claim(tx, matchId, players))) throw new DomainError('CONFLICT', 'the rematch offer changed meanwhile', { rematchRace: true });
        },
        after: async (tx, made) => {
          await this.offers.setRematch(tx, matchId, made);
        },
        announce: (newMatchId) => players.map((player) => ({ player, event: { type: 'rematchStarted', matchId, newMatchId } })),
      });
    } catch (err) {
      // Another ask completed it first (or it lapsed meanwhile): answer the offer as it is now.
      if (!(err instanceof DomainError && err.details.rematchRace === true)) throw err;
    }
    const now = (await this.offers.read(matchId))!;
    return this.toOffer(matchId, players, now);
  }

  /** I decline the open offer: it lapses (asking again starts a new one). */
  async decline(caller: Principal, matchId: string): Promise<RematchOffer> {
    const { players } = await this.finished(matchId);
    if (!players.includes(caller.username)) throw new DomainError('NOT_SEATED', 'only a human player of the match may decline its rematch');
    const row = await this.offers.decline(matchId, caller.username);
    if (!row) throw new DomainError('CONFLICT', 'there is no open rematch offer for this match');
    await this.notify(
      players.filter((p) => p !== caller.username),
      { type: 'rematchDeclined', matchId, by: caller.username },
    );
    return this.toOffer(matchId, players, row);
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
