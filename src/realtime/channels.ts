/** The pub/sub channels of live notices (GraphQL subscriptions), and their messages. */
import type { ExportLine } from '../match-formats/export';

export const matchChannel = (matchId: string): string => `match:${matchId}`;
export const turnChannel = (player: string): string => `turn:${player}`;
export const tournamentChannel = (tournamentId: string): string => `tournament:${tournamentId}`;
export const analysisChannel = (matchId: string): string => `analysis:${matchId}`;

/** An event of a match log as published, in the shape of an export line (JSON: ISO time), plus its match: public by construction. */
export interface NoticeEvent extends ExportLine {
  matchId: string;
}

/**
 * "The log of this match has moved to seq", with the events the append wrote.
 * A subscriber that has every event before them takes them as they are;
 * after a gap (notices from two instances may cross) it reads the log.
 */
export interface MatchNotice {
  matchId: string;
  /** The seq the log moved to; -1 for a presence change (which is no log event). */
  seq: number;
  events?: NoticeEvent[];
  /** A seated player's presence changed (src/presence/): the live feed passes it on, the log never holds it. */
  presence?: PresenceChange;
}

/** opponentGone: a player of the match has had no live connection for OPPONENT_GONE_AFTER; opponentBack: they are back. */
export interface PresenceChange {
  type: 'opponentGone' | 'opponentBack';
  player: string;
  seat: number;
  /** ISO time of the change. */
  at: string;
}

/** "It is your turn": sent to the player to move after each append. */
export interface TurnNotice {
  matchId: string;
  seq: number;
  seat: number;
  player: string;
  /** When the turn clock runs out; null for an untimed match. */
  deadline: Date | null;
  /** yourTurn (absent: the same) when the turn comes; clockLow once per turn when less than CLOCK_LOW_FRACTION of the turn time is left (src/clocks/clock-low.ts). */
  kind?: 'yourTurn' | 'clockLow';
}

/**
 * A player's own events (besides "your turn"): challenges, seek pairings, match
 * started/ended, clock low... Keyed by the player id (the lowercased username,
 * as `turnChannel`). The event stream (`/v1/stream/events`) forwards them as they are.
 */
export const playerChannel = (player: string): string => `player:${player}`;

/**
 * The lobby's changes (src/lobby): a public match with an open seat was
 * listed (`added`), changed (`updated`: a seat taken, seats still open) or
 * left the lobby (`removed`: full, started, ended). Subscribers filter by
 * what they may take; the event stream may forward them as they are.
 */
export const lobbyChannel = (): string => 'lobby';

export interface LobbyChange {
  type: 'added' | 'updated' | 'removed';
  matchId: string;
  /** The lobby entry (JSON: ISO times), absent for `removed`. */
  match?: Record<string, unknown>;
}

/**
 * A chat room's messages (src/chat): one channel per room key (`match:<id>:players`, `match:<id>:spectators`,
 * `lobby`, `tournament:<id>`, `team:<id>`, `direct:<a>:<b>`), across instances through the pub/sub (Redis with
 * REDIS_URL). Best effort, as every notice but a match's: the row is the record, history reads it.
 */
export const chatChannel = (room: string): string => `chat:${room}`;

/**
 * A chat room's removals (src/chat): the id of a message a moderator removed, for the room's live subscribers
 * to drop it (GraphQL `chatMessageRemoved`). A channel of its own beside the room's, so that what listens to
 * messages never takes a removal for one.
 */
export const chatRemovalChannel = (room: string): string => `chat-removed:${room}`;

/** A removal as published: the message's id, its room's key, when and by whom it was removed. */
export interface ChatRemovalNotice {
  id: string;
  /** The room's key (see chatChannel). */
  room: string;
  /** ISO time. */
  removedAt: string;
}

/** A chat message as published and delivered: plain text, never markup. */
export interface ChatNotice {
  id: string;
  /** The room's key (see chatChannel). */
  room: string;
  author: string;
  /** The author's account id: subscribers drop the messages of accounts they have blocked or that block them. */
  authorId: string;
  text: string;
  /** ISO time. */
  sentAt: string;
  /** The spectators' room of a match: whether the match was over when it was sent (its players receive only those live). */
  matchOver?: boolean;
}
