/**
 * The chat rooms (docs/social.md "Chat") and their keys: one string per room,
 * the `room` column of `chat_messages` and the suffix of its pub/sub channel
 * (src/realtime/channels.ts chatChannel). A key is built here only, from a
 * validated room; nothing else parses a client's text into a key.
 */
import { DomainError } from '../common/domain-error';

export const CHAT_ROOM_KINDS = ['match', 'lobby', 'tournament', 'team', 'direct'] as const;
export type ChatRoomKind = (typeof CHAT_ROOM_KINDS)[number];

/** A match's two rooms: its players' (every seat at once, spectators read it) and its spectators' (players read it once the match is over). */
export const MATCH_ROOMS = ['players', 'spectators'] as const;
export type MatchRoom = (typeof MATCH_ROOMS)[number];

export type ChatRoomRef =
  | { kind: 'match'; id: string; matchRoom: MatchRoom }
  | { kind: 'lobby' }
  | { kind: 'tournament'; id: string }
  | { kind: 'team'; id: string }
  /** The two participants, in order (the key is the same whoever writes). */
  | { kind: 'direct'; participants: [string, string] };

/** A room as the API shows it: kind, the match's, tournament's or team's id, the match room, a direct conversation's two participants. */
export interface ChatRoomView {
  kind: ChatRoomKind;
  id: string | null;
  matchRoom: MatchRoom | null;
  participants: string[] | null;
}

/** The word filter's and settings' name of a room's kind: a match's spectators' room is a kind of its own there (CHAT_WORD_FILTER). */
export type ChatFilterKind = 'match' | 'spectators' | 'lobby' | 'tournament' | 'team' | 'direct';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A team's id: the teams feature's (a uuid, or a short slug). */
const TEAM_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function matchRoom(id: string, room: string | undefined | null): ChatRoomRef {
  const r = room ?? 'players';
  if (!(MATCH_ROOMS as readonly string[]).includes(r)) throw new DomainError('VALIDATION_FAILED', 'room: players or spectators');
  if (!UUID.test(id)) throw new DomainError('NOT_FOUND', `no match ${id}`);
  return { kind: 'match', id: id.toLowerCase(), matchRoom: r as MatchRoom };
}

export function tournamentRoom(id: string): ChatRoomRef {
  if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such tournament');
  return { kind: 'tournament', id: id.toLowerCase() };
}

export function teamRoom(id: string): ChatRoomRef {
  if (!TEAM_ID.test(id)) throw new DomainError('NOT_FOUND', 'no such team');
  return { kind: 'team', id };
}

export function directRoom(a: string, b: string): ChatRoomRef {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()].sort();
  return { kind: 'direct', participants: [x, y] };
}

export function roomKey(room: ChatRoomRef): string {
  switch (room.kind) {
    case 'match':
      return `match:${room.id}:${room.matchRoom}`;
    case 'lobby':
      return 'lobby';
    case 'tournament':
      return `tournament:${room.id}`;
    case 'team':
      return `team:${room.id}`;
    case 'direct':
      return `direct:${room.participants[0]}:${room.participants[1]}`;
  }
}

/** A stored key as the room it names (keys are written by roomKey only). */
export function roomOfKey(key: string): ChatRoomRef {
  const [kind, a, b] = key.split(':');
  switch (kind) {
    case 'match':
      return { kind: 'match', id: a, matchRoom: b as MatchRoom };
    case 'tournament':
      return { kind: 'tournament', id: a };
    case 'team':
      return { kind: 'team', id: a };
    case 'direct':
      return { kind: 'direct', participants: [a, b] };
    default:
      return { kind: 'lobby' };
  }
}

export function roomView(room: ChatRoomRef): ChatRoomView {
  switch (room.kind) {
    case 'match':
      return { kind: 'match', id: room.id, matchRoom: room.matchRoom, participants: null };
    case 'lobby':
      return { kind: 'lobby', id: null, matchRoom: null, participants: null };
    case 'tournament':
    case 'team':
      return { kind: room.kind, id: room.id, matchRoom: null, participants: null };
    case 'direct':
      return { kind: 'direct', id: null, matchRoom: null, participants: [...room.participants] };
  }
}

export function filterKindOf(room: ChatRoomRef): ChatFilterKind {
  return room.kind === 'match' && room.matchRoom === 'spectators' ? 'spectators' : room.kind;
}
