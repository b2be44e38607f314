/**
 * Chat rooms (docs/social.md "Chat"): a match's players' room and spectators'
 * room, the lobby, each tournament's room, each team's room, and direct
 * messages between two players. What both transports (REST, GraphQL) and the
 * NDJSON match stream call.
 *
 * - A match's players' room has one audience: every message goes to every
 *   seat at once and its spectators read it. No request shape names a seat or
 *   a partner: a room is the match and which of its two rooms, nothing else.
 *   The match's setting `chat: off` (or its tournament's) closes it.
 * - Its spectators' room reaches its players neither in history nor live until
 *   the match is over (each live message carries whether the match was over
 *   when it was sent: a player's subscription passes only those on).
 * - A tournament's room is closed (CHAT_CLOSED) while a round of a duplicate
 *   tournament runs: every table holds the same cards.
 * - Direct messages: between two players who follow each other or who share a
 *   match or a team, as the recipient's setting allows; never between partners
 *   of a team match while it runs (CHAT_CLOSED until it ends). They reach the
 *   recipient as the player event `directMessage` too.
 * - Safety: plain text (./chat-text.ts), per-account and per-room limits
 *   through the rate limiter (RATE_LIMITED), a flood guard in the insert
 *   statement (the same text again in the window: RATE_LIMITED, reason
 *   repeated), the word filter for the kinds CHAT_WORD_FILTER names, mutes
 *   (CHAT_MUTED naming `until`), and blocks: a blocked pair sees none of each
 *   other's messages (history and live) and cannot message (BLOCKED).
 *
 * Live delivery goes through the pub/sub every instance shares (Redis with
 * REDIS_URL): one channel per room (src/realtime/channels.ts chatChannel).
 * Chat is kept CHAT_RETENTION_DAYS (the "chat sweep" task) and is never part
 * of a match's hash-chained log.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { subscriptionIterator } from '../common/subscription-iterator';
import { AccountsService } from '../auth/accounts.service';
import { AppConfig } from '../config/config';
import { MatchesService } from '../matches/matches.service';
import type { MatchChatFacts } from '../matches/matches.service';
import { MatchStore } from '../match-store/match-store';
import { TournamentsService } from '../tournaments/tournaments.service';
import { RateLimits } from '../limits/rate-limits';
import { chatChannel, chatRemovalChannel, playerChannel } from '../realtime/channels';
import type { ChatNotice, ChatRemovalNotice } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';
import { ChatStore } from './chat-store';
import type { ChatRow } from './chat-store';
import { chatText, offensive } from './chat-text';
import { directRoom, filterKindOf, matchRoom, roomKey, roomOfKey, roomView, teamRoom, tournamentRoom, CHAT_ROOM_KINDS } from './chat-room';
import type { ChatRoomRef, ChatRoomView } from './chat-room';
import { CHAT_MODERATION, CHAT_RELATIONS, CHAT_TEAMS } from './chat-hooks';
import type { ChatModeration, ChatRelations, ChatTeams } from './chat-hooks';

export type { ChatRoomView } from './chat-room';

export interface ChatMessageView {
  id: string;
  room: ChatRoomView;
  author: string;
  text: string;
  sentAt: Date;
}

/** A message a moderator removed, as its room's live subscribers hear of it (`chatMessageRemoved`). */
export interface ChatRemovalView {
  id: string;
  room: ChatRoomView;
  removedAt: Date;
}

/** A removal as its live subscribers receive it (the `chatMessageRemoved` subscription and the match stream's `chatRemoved` lines). */
function removalView(n: ChatRemovalNotice): ChatRemovalView {
  return { id: n.id, room: roomView(roomOfKey(n.room)), removedAt: new Date(n.removedAt) };
}

/** A chat line of the NDJSON match stream: a message said, or one a moderator removed (its clients drop it). */
export type MatchChatLine = { chat: ChatMessageView } | { chatRemoved: ChatRemovalView };

/** A pub/sub channel of a match's chat, and how its messages become lines of the match stream (undefined: none). */
export interface MatchChatChannel {
  channel: string;
  line: (message: unknown) => MatchChatLine | undefined;
}

export interface ChatPage {
  items: ChatMessageView[];
  /** Pass as `after` for the next (older) page; null at the end. */
  nextCursor: string | null;
}

/** A room as GraphQL's ChatRoomInput names it. */
export interface ChatRoomRequest {
  kind: string;
  /** The match's, tournament's or team's id. */
  id?: string | null;
  /** A match's room: players (default) or spectators. */
  matchRoom?: string | null;
  /** A direct conversation: the other player. */
  username?: string | null;
}

/** Default and largest page of history. */
export const CHAT_PAGE_DEFAULT = 50;
export const CHAT_PAGE_MAX = 100;
/** Messages deleted per statement by the sweep (it goes on while a batch comes back full). */
const SWEEP_BATCH = 5000;
/** How long a live subscription trusts the block list it read (it reads it again after). */
const BLOCKS_TTL_MS = 30_000;

/** Where a caller stands in a room they may read. */
interface Access {
  room: ChatRoomRef;
  key: string;
  /** A match's room: the match's facts, and whether the caller holds a seat. */
  match?: MatchChatFacts;
  seated?: boolean;
  /** A direct conversation: the other participant. */
  other?: { username: string; accountId: string };
}

const toView = (r: ChatRow): ChatMessageView => ({
  id: r.id,
  room: roomView(roomOfKey(r.room)),
  author: r.author,
  text: r.text,
  sentAt: new Date(r.sent_at),
});

const fromNotice = (n: ChatNotice): ChatMessageView => ({
  id: n.id,
  room: roomView(roomOfKey(n.room)),
  author: n.author,
  text: n.text,
  sentAt: new Date(n.sentAt),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class ChatService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Chat');
  private readonly sweeper: PeriodicTask;
  private readonly filtered: Set<string>;

  constructor(
    private readonly store: ChatStore,
    private readonly matches: MatchesService,
    private readonly matchStore: MatchStore,
    private readonly tournaments: TournamentsService,
    private readonly accounts: AccountsService,
    private readonly limits: RateLimits,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly config: AppConfig,
    @Inject(CHAT_RELATIONS) private readonly relations: ChatRelations,
    @Inject(CHAT_TEAMS) private readonly teams: ChatTeams,
    @Inject(CHAT_MODERATION) private readonly moderation: ChatModeration,
    scheduler: Scheduler,
  ) {
    this.filtered = new Set(config.CHAT_WORD_FILTER);
    this.sweeper = scheduler.task('chat sweep', () => this.sweep());
  }

  onModuleInit(): void {
    // a message report keeps the message's author and text as they are when reported (src/moderation reads no chat itself)
    this.moderation.readMessagesWith(async (id) => {
      const m = await this.message(id);
      return m && { authorId: m.authorId, author: m.author, text: m.text };
    });
    this.sweeper.start(this.config.CHAT_SWEEP_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.sweeper.stop();
  }

  // ------------------------------------------------------------ rooms

  /** A room as GraphQL names it (ChatRoomInput). */
  async room(caller: Principal, req: ChatRoomRequest): Promise<ChatRoomRef> {
    const kind = req.kind;
    if (!(CHAT_ROOM_KINDS as readonly string[]).includes(kind)) throw new DomainError('VALIDATION_FAILED', `kind: one of ${CHAT_ROOM_KINDS.join(', ')}`);
    const id = (): string => {
      if (!req.id) throw new DomainError('VALIDATION_FAILED', `id: the ${kind}'s id`);
      return req.id;
    };
    if (kind !== 'match' && req.matchRoom) throw new DomainError('VALIDATION_FAILED', 'matchRoom: for a match only');
    if (kind !== 'direct' && req.username) throw new DomainError('VALIDATION_FAILED', 'username: for a direct conversation only');
    switch (kind) {
      case 'match':
        return matchRoom(id(), req.matchRoom);
      case 'lobby':
        if (req.id) throw new DomainError('VALIDATION_FAILED', 'id: the lobby has none');
        return { kind: 'lobby' };
      case 'tournament':
        return tournamentRoom(id());
      case 'team':
        return teamRoom(id());
      default:
        if (req.id) throw new DomainError('VALIDATION_FAILED', 'id: a direct conversation is named by username');
        return this.direct(caller, req.username ?? '');
    }
  }

  /** The direct conversation of the caller with `username` (NOT_FOUND for no such account). */
  async direct(caller: Principal, username: string): Promise<ChatRoomRef> {
    const other = String(username ?? '').toLowerCase();
    if (!other) throw new DomainError('VALIDATION_FAILED', 'username: the other player');
    if (other === caller.username) throw new DomainError('VALIDATION_FAILED', 'a direct conversation is with another player');
    return directRoom(caller.username, other);
  }

  matchRoom(matchId: string, room: string | undefined | null): ChatRoomRef {
    return matchRoom(matchId, room);
  }

  tournamentRoom(id: string): ChatRoomRef {
    return tournamentRoom(id);
  }

  teamRoom(id: string): ChatRoomRef {
    return teamRoom(id);
  }

  // ------------------------------------------------------------ history

  /** The room's messages, newest first, in cursor pages; without the messages of accounts blocked either way. */
  async history(caller: Principal, room: ChatRoomRef, first: number | null | undefined, after: string | null | undefined): Promise<ChatPage> {
    const limit = first ?? CHAT_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > CHAT_PAGE_MAX) throw new DomainError('VALIDATION_FAILED', `first: 1 to ${CHAT_PAGE_MAX}`);
    const cursor = after ? decodeCursor(after) : null;
    const access = await this.mayRead(caller, room);
    const rows = await this.store.page(access.key, cursor, limit + 1, await this.relations.blockedIds(caller.accountId));
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toView), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  // ------------------------------------------------------------ sending

  async send(caller: Principal, room: ChatRoomRef, input: unknown): Promise<ChatMessageView> {
    const text = chatText(input);
    const access = await this.mayWrite(caller, room);
    const mute = await this.moderation.activeMute(caller.accountId);
    if (mute) {
      const until = new Date(mute.until).toISOString();
      throw new DomainError('CHAT_MUTED', `you are muted until ${until}`, { until, reason: mute.reason ?? null });
    }
    if (this.filtered.has(filterKindOf(room)) && offensive(text)) {
      throw new DomainError('VALIDATION_FAILED', 'text: the word filter of this room refused it', { reason: 'wordFilter' });
    }
    await this.charge('chatUser', caller.accountId, 'you send');
    await this.charge('chatRoom', access.key, 'this room takes');
    const row = await this.store.insert(
      { id: randomUUID(), room: access.key, author: caller.username, authorId: caller.accountId, text },
      this.config.CHAT_FLOOD_WINDOW_MS,
    );
    if (!row) {
      const window = Math.ceil(this.config.CHAT_FLOOD_WINDOW_MS / 1000);
      // the flood guard as a bucket of one message per text and window
      throw new DomainError('RATE_LIMITED', 'the same message again so soon: say something else, or wait', {
        reason: 'repeated',
        limit: 1,
        remaining: 0,
        reset: window,
        retryAfter: window,
        windowSeconds: window,
      });
    }
    const message = toView(row);
    const notice: ChatNotice = {
      id: row.id,
      room: access.key,
      author: row.author,
      authorId: row.author_id,
      text: row.text,
      sentAt: message.sentAt.toISOString(),
      ...(room.kind === 'match' && room.matchRoom === 'spectators' ? { matchOver: access.match?.over === true } : {}),
    };
    await this.publish(chatChannel(access.key), notice);
    if (access.other) {
      const event: PlayerEvent = {
        type: 'directMessage',
        message: {
          id: message.id,
          room: { kind: 'direct', id: null, matchRoom: null, participants: [...(message.room.participants ?? [])] },
          author: message.author,
          text: message.text,
          sentAt: notice.sentAt,
        },
      };
      await this.publish(playerChannel(access.other.username), event);
    }
    return message;
  }

  // ------------------------------------------------------------ live

  /** The room's messages from now on, as the caller may see them (blocks; a match's spectators' room to its players only once over). */
  async live(caller: Principal, room: ChatRoomRef): Promise<AsyncIterableIterator<ChatMessageView>> {
    // A match's player may follow its spectators' room during play: it passes on only what is said after the end.
    const access = await this.mayRead(caller, room, true);
    const source = this.pubsub.asyncIterableIterator<ChatNotice>(chatChannel(access.key));
    return subscriptionIterator(source, this.seenBy(caller, access, await this.relations.blockedIds(caller.accountId)));
  }

  /** The room's removals from now on (a moderator's, `chatMessageRemoved`): the ids of the messages its clients drop. */
  async liveRemovals(caller: Principal, room: ChatRoomRef): Promise<AsyncIterableIterator<ChatRemovalView>> {
    const access = await this.mayRead(caller, room, true);
    const source = this.pubsub.asyncIterableIterator<ChatRemovalNotice>(chatRemovalChannel(access.key));
    return subscriptionIterator(source, removalView);
  }

  /**
   * A match's rooms the caller may read, live (the NDJSON match stream with chat=true): each pub/sub channel, and
   * how its messages become lines: the players' room's messages and removals, and the spectators' room's (a seat
   * of the match hears its messages only once the match is over, and so none of its removals while it runs).
   */
  async liveOfMatch(caller: Principal, matchId: string): Promise<MatchChatChannel[]> {
    const players = await this.mayRead(caller, matchRoom(matchId, 'players'));
    const blocked = await this.relations.blockedIds(caller.accountId);
    const spectators: Access = { ...players, room: matchRoom(matchId, 'spectators'), key: roomKey(matchRoom(matchId, 'spectators')) };
    const messages = (access: Access): MatchChatChannel => {
      const seen = this.seenBy(caller, access, blocked);
      return {
        channel: chatChannel(access.key),
        line: (n) => {
          const view = seen(n as ChatNotice);
          return view ? { chat: view } : undefined;
        },
      };
    };
    const removals = (access: Access): MatchChatChannel => ({
      channel: chatRemovalChannel(access.key),
      line: (n) => ({ chatRemoved: removalView(n as ChatRemovalNotice) }),
    });
    const channels = [messages(players), removals(players), messages(spectators)];
    if (!players.seated) channels.push(removals(spectators));
    return channels;
  }

  /** Each live message as the caller may see it, or null. */
  private seenBy(caller: Principal, access: Access, blockedAtStart: string[]): (n: ChatNotice) => ChatMessageView | null {
    let blocked = new Set(blockedAtStart);
    let readAt = Date.now();
    let reading = false;
    const playerOfSpectators = access.room.kind === 'match' && access.room.matchRoom === 'spectators' && access.seated === true;
    return (n) => {
      if (Date.now() - readAt > BLOCKS_TTL_MS && !reading) {
        reading = true;
        void this.relations
          .blockedIds(caller.accountId)
          .then((ids) => (blocked = new Set(ids)))
          .catch(() => undefined)
          .finally(() => {
            readAt = Date.now();
            reading = false;
          });
      }
      if (blocked.has(n.authorId)) return null;
      if (playerOfSpectators && n.matchOver !== true) return null;
      return fromNotice(n);
    };
  }

  // ------------------------------------------------------------ moderation

  /** A moderator removes a message (no longer shown in history); recorded in the moderation log. */
  async remove(caller: Principal, id: string, reason: string | null | undefined): Promise<ChatMessageView> {
    if (!(await this.moderation.isModerator(caller.accountId))) throw new DomainError('FORBIDDEN', 'only a moderator removes a message');
    const row = UUID.test(id) ? await this.store.find(id) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', `no chat message ${id}`);
    if (row.removed_at) throw new DomainError('CONFLICT', 'this message is removed already');
    if (!(await this.store.remove(id, caller.username))) throw new DomainError('CONFLICT', 'this message is removed already');
    await this.moderation.recordAction({
      moderator: caller.username,
      action: 'messageRemoved',
      target: id,
      reason: reason ?? null,
      details: { room: row.room, author: row.author },
    });
    // its room's live subscribers drop it (best effort, as every chat notice: the history no longer lists it)
    const removal: ChatRemovalNotice = { id: row.id, room: row.room, removedAt: new Date().toISOString() };
    await this.publish(chatRemovalChannel(row.room), removal);
    return toView(row);
  }

  /** One message by id (a report's target), removed or not; undefined when there is none. */
  async message(id: string): Promise<(ChatMessageView & { authorId: string; removed: boolean }) | undefined> {
    const row = UUID.test(id) ? await this.store.find(id) : undefined;
    return row ? { ...toView(row), authorId: row.author_id, removed: row.removed_at !== null } : undefined;
  }

  // ------------------------------------------------------------ access

  /** `live`: a live subscription, which filters what a match's players may not receive yet instead of refusing. */
  private async mayRead(caller: Principal, room: ChatRoomRef, live = false): Promise<Access> {
    const key = roomKey(room);
    switch (room.kind) {
      case 'match': {
        const match = await this.matches.chatFacts(caller, room.id);
        const seated = match.seats.some((s) => s.player === caller.username);
        if (room.matchRoom === 'spectators' && seated && !match.over && !live) {
          throw new DomainError('CHAT_CLOSED', "a match's players read its spectators' room once it is over", { reason: 'matchInPlay' });
        }
        return { room, key, match, seated };
      }
      case 'lobby':
        return { room, key };
      case 'tournament': {
        const t = await this.tournaments.chatState(room.id);
        if (t.private && !t.members.includes(caller.username)) throw new DomainError('NOT_FOUND', 'no such tournament');
        return { room, key };
      }
      case 'team':
        if (!(await this.teams.isMember(room.id, caller.accountId))) throw new DomainError('FORBIDDEN', "only a team's members read and write its room");
        return { room, key };
      case 'direct': {
        if (!room.participants.includes(caller.username)) throw new DomainError('NOT_FOUND', 'no such conversation');
        const otherName = room.participants[0] === caller.username ? room.participants[1] : room.participants[0];
        const other = await this.accounts.byUsername(otherName);
        if (!other) throw new DomainError('NOT_FOUND', `no account ${JSON.stringify(otherName)}`);
        return { room, key, other: { username: other.username.toLowerCase(), accountId: other.id } };
      }
    }
  }

  private async mayWrite(caller: Principal, room: ChatRoomRef): Promise<Access> {
    const access = await this.mayRead(caller, room);
    switch (room.kind) {
      case 'match': {
        const match = access.match!;
        if (room.matchRoom === 'players') {
          if (!access.seated) throw new DomainError('FORBIDDEN', "only the match's players write in its players' room (spectators: room=spectators)");
          if (match.chat === 'off') throw new DomainError('CHAT_CLOSED', "this match's players' chat is off", { reason: 'chatOff' });
        }
        return access;
      }
      case 'tournament':
        if ((await this.tournaments.chatState(room.id)).duplicateRoundRunning) {
          throw new DomainError('CHAT_CLOSED', "a duplicate round runs: the tournament's room opens again when it ends", { reason: 'duplicateRound' });
        }
        return access;
      case 'direct':
        await this.mayMessage(caller, access.other!);
        return access;
      default:
        return access;
    }
  }

  /** Whether the caller may send a direct message to `other` now: blocks, partners in play, the recipient's setting, a connection. */
  private async mayMessage(caller: Principal, other: { username: string; accountId: string }): Promise<void> {
    if (await this.relations.isBlockedEitherWay(caller.accountId, other.accountId)) throw new DomainError('BLOCKED', `you cannot message ${other.username}`);
    const [mine, theirs] = await Promise.all([this.matchStore.playingSeatsOf(caller.username), this.matchStore.playingSeatsOf(other.username)]);
    const theirMatches = new Set(theirs.map((s) => s.matchId));
    const shared = [...new Set(mine.filter((s) => theirMatches.has(s.matchId)).map((s) => s.matchId))];
    for (const matchId of shared) {
      const facts = await this.matches.chatFactsOf(matchId);
      if (!facts || facts.over) continue;
      const side = (player: string) => facts.seats.find((s) => s.player === player)?.side;
      if (side(caller.username) !== undefined && side(caller.username) === side(other.username)) {
        throw new DomainError('CHAT_CLOSED', 'partners of a team match in play talk in its players’ room only, until it ends', { reason: 'partners', matchId });
      }
    }
    const setting = await this.relations.directMessageSetting(other.accountId);
    if (setting === 'nobody') {
      throw new DomainError('FORBIDDEN', `${other.username} takes no direct messages`, { reason: 'recipientSetting', directMessages: setting });
    }
    const connected =
      shared.length > 0 ||
      (await this.relations.followsEachOther(caller.accountId, other.accountId)) ||
      (await this.teams.sharesATeam(caller.accountId, other.accountId)) ||
      (await this.matchStore.playedTogether(caller.username, other.username));
    if (!connected) {
      throw new DomainError('FORBIDDEN', `you and ${other.username} neither follow each other nor share a match or a team`, { reason: 'notConnected' });
    }
    // followed: of those, only the players the recipient follows
    if (setting === 'followed' && !(await this.relations.isFollowing(other.accountId, caller.accountId))) {
      throw new DomainError('FORBIDDEN', `${other.username} takes direct messages from the players they follow only`, {
        reason: 'recipientSetting',
        directMessages: setting,
      });
    }
  }

  // ------------------------------------------------------------ helpers

  private async charge(bucket: 'chatUser' | 'chatRoom', key: string, who: string): Promise<void> {
    if (!this.limits.has(bucket)) return;
    const state = await this.limits.consume(bucket, key);
    if (!state.allowed) {
      throw new DomainError('RATE_LIMITED', `${who} at most ${state.limit} chat messages per ${state.windowSeconds} s`, {
        reason: bucket === 'chatUser' ? 'account' : 'room',
        limit: state.limit,
        remaining: state.remaining,
        reset: state.reset,
        retryAfter: Math.max(1, state.reset),
        windowSeconds: state.windowSeconds,
      });
    }
  }

  private async publish(channel: string, payload: unknown): Promise<void> {
    try {
      await this.pubsub.publish(channel, payload);
    } catch (err) {
      // a live notice is best effort: the row is the record, history reads it
      this.logger.warn(`chat: publish on ${channel} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** The retention: messages older than CHAT_RETENTION_DAYS, in batches. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.store.sweep(this.config.CHAT_RETENTION_DAYS, SWEEP_BATCH);
      total += n;
      if (n < SWEEP_BATCH) return total;
    }
  }
}

function encodeCursor(r: ChatRow): string {
  return Buffer.from(`${new Date(r.sent_at).toISOString()}|${r.id}`).toString('base64url');
}

function decodeCursor(after: string): { sentAt: string; id: string } {
  const [t, id] = Buffer.from(after, 'base64url').toString('utf8').split('|');
  if (!t || !id || !UUID.test(id) || Number.isNaN(Date.parse(t))) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
  return { sentAt: t, id };
}
