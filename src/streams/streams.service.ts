/**
 * Live streams over plain HTTP (NDJSON, one JSON value per line), for
 * clients without WebSockets, as lichess streams its events:
 *
 * - the caller's event stream: one `matchInPlay` line per match in play
 *   where the caller holds a seat (the match as `GET /v1/matches/{id}` shows
 *   it to the caller), then as they happen `yourTurn` (the turn notices of
 *   `myTurn`) and every event of the caller's player channel
 *   (`matchStarted`, `matchEnded`, and what other features publish there:
 *   challenges, seek pairings, clockLow...), forwarded as they are;
 * - a match's stream: its events from `fromSeq`, the missed ones first, then
 *   live, each with the match as the caller may see it after it (the live
 *   feed of `matchEventsLive`: no gap, no repeat, across instances); it ends
 *   after the event that ends the match;
 * - the lobby's stream: the lobby as `GET /v1/lobby` lists it to the caller
 *   (with the same filters), as `added` lines, then its changes as the `lobby`
 *   subscription sends them (the same per-caller filter: LobbyService.seenBy).
 *
 * All go through the pub/sub every instance shares (Redis with REDIS_URL),
 * write an empty line every STREAM_KEEPALIVE seconds, count toward the
 * caller's subscription cap, end when the client goes away (every
 * subscription closed), and end with a last line
 * `{"error":{"code":"UNAUTHENTICATED","message":"credential revoked"}}` (or
 * "credential expired") when the credential ends, on any instance.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Response } from 'express';
import type { Principal } from '../common/principal';
import { HttpStreams } from '../connections/http-streams';
import { DomainError } from '../common/domain-error';
import { sendNdjson } from '../common/ndjson';
import { lobbyChannel, playerChannel, turnChannel } from '../realtime/channels';
import type { LobbyChange, TurnNotice } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { LobbyService } from '../lobby/lobby.service';
import type { LobbyFilter } from '../lobby/lobby.service';
import { MatchesService } from '../matches/matches.service';
import type { LiveEvent, MatchPresentation } from '../matches/matches.service';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { ChatService } from '../chat/chat.service';
import type { MatchChatLine } from '../chat/chat.service';
import { LineQueue } from './line-queue';
import { listen } from './channel';
import { AppConfig } from '../config/config';

/** STREAM_KEEPALIVE: seconds between keep-alive lines (a decimal number, 0.05 to 3600; default 7). Anything else stops the service at startup. */
export function streamKeepAliveMs(config: Pick<AppConfig, 'STREAM_KEEPALIVE'>): number {
  return config.STREAM_KEEPALIVE;
}

/** A line of the event stream. */
export type EventLine =
  | { type: 'matchInPlay'; match: MatchPresentation }
  | { type: 'yourTurn'; matchId: string; seq: number; seat: number; deadline: Date | string | null }
  | PlayerEvent
  | { error: { code: string; message: string } };

/** A line of a match's stream (chat lines with chat=true). */
export type MatchLine = LiveEvent | MatchChatLine | { error: { code: string; message: string } };

/** A line of the lobby's stream. */
export type LobbyLine = { type: LobbyChange['type']; matchId: string; match: Record<string, unknown> | null } | { error: { code: string; message: string } };

/** A pub/sub channel of a live stream, and how its messages become lines (undefined: none). */
interface LiveChannel<L> {
  channel: string;
  map: (message: unknown) => L | undefined;
}
const live = <M, L>(channel: string, map: (message: M) => L | undefined): LiveChannel<L> => ({ channel, map: map as (message: unknown) => L | undefined });

/** Matches in play are read this many at a time for the first lines. */
const PAGE = 500;
/** The lobby is read this many entries at a time for the first lines of its stream. */
const LOBBY_PAGE = 100;

const endedLine = (reason: string) => ({ error: { code: 'UNAUTHENTICATED', message: reason } });

@Injectable()
export class StreamsService {
  /** STREAM_KEEPALIVE. */
  readonly keepAliveMs: number;

  constructor(
    private readonly matches: MatchesService,
    private readonly lobbies: LobbyService,
    private readonly http: HttpStreams,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    config: AppConfig,
    /**
     * The chat (a match stream's `chat=true` lines) is looked up once the application is built rather than imported
     * as a module: importing ChatModule here would scan the tournaments' module ahead of the others and reorder
     * every route of openapi.yaml.
     */
    private readonly modules: ModuleRef,
  ) {
    this.keepAliveMs = streamKeepAliveMs(config);
  }

  private get chat(): ChatService {
    return this.modules.get(ChatService, { strict: false });
  }

  /** `GET /v1/stream/events`: the caller's matches in play, then their events as they happen. */
  async events(caller: Principal, res: Response): Promise<void> {
    await this.firstThenLive<EventLine>(caller, res, 'the event stream', this.inPlay(caller), [
      live<TurnNotice, EventLine>(turnChannel(caller.username), (n) => ({
        type: 'yourTurn',
        matchId: n.matchId,
        seq: n.seq,
        seat: n.seat,
        deadline: n.deadline,
      })),
      live<PlayerEvent, EventLine>(playerChannel(caller.username), (e) => e),
    ]);
  }

  /**
   * `GET /v1/matches/{id}/stream?fromSeq=`: the match's events from fromSeq,
   * then live; ends after the event that ends the match (at once when the
   * match is over and fromSeq is past its last event).
   */
  async match(caller: Principal, matchId: string, fromSeq: number, res: Response, withChat = false): Promise<void> {
    const now = await this.matches.present(caller, matchId); // NOT_FOUND before anything is written
    const chat = withChat && !(now.status === 'over' && fromSeq > now.seq) ? await this.chat.liveOfMatch(caller, matchId) : null;
    const lines = new LineQueue<MatchLine>();
    this.http.open(caller, res, (reason) => lines.end(endedLine(reason)));
    if (chat) {
      // listening before the feed is read: a message said meanwhile comes as a line
      const listening = await Promise.allSettled(chat.map((c) => listen<unknown>(this.pubsub, c.channel)));
      for (const l of listening) if (l.status === 'fulfilled') lines.own(l.value);
      if (listening.some((l) => l.status === 'rejected')) {
        lines.end();
        throw new DomainError('UNAVAILABLE', 'the match stream cannot listen to its chat now; try again');
      }
      listening.forEach((l, k) => void lines.pump((l as PromiseFulfilledResult<AsyncIterableIterator<unknown>>).value, chat[k].line));
    }
    if (now.status === 'over' && fromSeq > now.seq) {
      lines.end();
    } else {
      const feed = await this.matches.follow(caller, matchId, fromSeq);
      void lines.pump(feed, (item) => {
        if (item.match.status === 'over') queueMicrotask(() => lines.end()); // after this line: nothing follows the end
        return item;
      });
    }
    await sendNdjson(res, lines, { keepAliveMs: this.keepAliveMs });
  }

  /**
   * `GET /v1/stream/lobby`: the lobby as the caller may see it under `filter`
   * (one `added` line per entry, newest first), then its changes as they
   * happen, filtered as the `lobby` subscription filters them.
   */
  async lobby(caller: Principal, filter: LobbyFilter, res: Response): Promise<void> {
    const seen = this.lobbies.seenBy(caller.username, filter);
    await this.firstThenLive<LobbyLine>(caller, res, 'the lobby stream', this.lobbyNow(caller, filter), [
      live<LobbyChange, LobbyLine>(lobbyChannel(), (change) => {
        const visible = seen(change);
        return visible ? { type: visible.type, matchId: visible.matchId, match: visible.match ?? null } : undefined;
      }),
    ]);
  }

  /**
   * A live stream with first lines (the event and lobby streams): counted and
   * tracked before anything is written (a refusal is a problem document);
   * listening on every channel before `first` is read, so that what is
   * published meanwhile comes right after the first lines instead of being
   * lost; then each channel's messages as lines (`map`: undefined, none), as
   * NDJSON with keep-alive lines, until the client goes or the credential ends.
   */
  private async firstThenLive<L>(caller: Principal, res: Response, what: string, first: AsyncIterable<L>, channels: LiveChannel<L>[]): Promise<void> {
    const lines = new LineQueue<L | { error: { code: string; message: string } }>();
    this.http.open(caller, res, (reason) => lines.end(endedLine(reason)));
    const listening = await Promise.allSettled(channels.map((c) => listen<unknown>(this.pubsub, c.channel)));
    for (const l of listening) if (l.status === 'fulfilled') lines.own(l.value);
    if (listening.some((l) => l.status === 'rejected')) {
      lines.end(); // unsubscribes what did subscribe
      throw new DomainError('UNAVAILABLE', `${what} cannot listen now; try again`);
    }
    const sources = listening.map((l) => (l as PromiseFulfilledResult<AsyncIterableIterator<unknown>>).value);
    void (async () => {
      await lines.pump(first);
      if (lines.closed) return;
      sources.forEach((source, k) => void lines.pump(source, channels[k].map));
    })().catch((err: unknown) => lines.fail(err));
    await sendNdjson(res, lines, { keepAliveMs: this.keepAliveMs });
  }

  /** The lobby as `GET /v1/lobby` lists it to the caller, every page, as `added` lines. */
  private async *lobbyNow(caller: Principal, filter: LobbyFilter): AsyncGenerator<LobbyLine> {
    let after: string | null = null;
    do {
      const page = await this.lobbies.page(caller.username, filter, LOBBY_PAGE, after);
      for (const entry of page.matches) yield { type: 'added', matchId: entry.id, match: entry as unknown as Record<string, unknown> };
      after = page.next;
    } while (after);
  }

  /** The matches in play where the caller holds a seat, each as the caller may see it. */
  private async *inPlay(caller: Principal): AsyncGenerator<EventLine> {
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.matches.myMatches(caller, { status: 'playing', limit: PAGE, offset });
      for (const summary of page) {
        const match = await this.matches.present(caller, summary.id);
        // a seat's view names its seat; invited only (no seat of mine), or no longer in play: no line
        if (match.status === 'playing' && typeof match.view.viewer === 'number') yield { type: 'matchInPlay', match };
      }
      if (page.length < PAGE) return;
    }
  }
}
