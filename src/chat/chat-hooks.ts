/**
 * What chat asks of the social features beside it, as small interfaces its
 * module receives by injection (docs/social.md): blocks and follows and the
 * direct-message setting (src/relations), team membership (src/teams),
 * mutes, the moderator role and the moderation log (src/moderation). Accounts
 * are named by their account id (Principal.accountId).
 */
export const CHAT_RELATIONS = Symbol('CHAT_RELATIONS');
export const CHAT_TEAMS = Symbol('CHAT_TEAMS');
export const CHAT_MODERATION = Symbol('CHAT_MODERATION');

export type DirectMessageSetting = 'everyone' | 'followed' | 'nobody';

export interface ChatRelations {
  isBlockedEitherWay(a: string, b: string): Promise<boolean>;
  /** Every account blocked by, or blocking, this one. */
  blockedIds(accountId: string): Promise<string[]>;
  followsEachOther(a: string, b: string): Promise<boolean>;
  /** Whether `from` follows `to` (and no block stands between them). */
  isFollowing(from: string, to: string): Promise<boolean>;
  directMessageSetting(accountId: string): Promise<DirectMessageSetting>;
}

export interface ChatTeams {
  isMember(teamId: string, accountId: string): Promise<boolean>;
  sharesATeam(a: string, b: string): Promise<boolean>;
}

export interface ChatModeration {
  activeMute(accountId: string): Promise<{ until: Date | string; reason: string | null } | null>;
  isModerator(accountId: string): Promise<boolean>;
  /** Chat hands over how a message is read by id: a message report keeps its author and text as they are when reported. */
  readMessagesWith(lookup: (id: string) => Promise<{ authorId: string; author: string; text: string } | undefined>): void;
  /** Appends to the moderation log: chat records `messageRemoved` with the message's id, its room and author. */
  recordAction(action: {
    moderator: string;
    action: 'messageRemoved';
    target: string;
    reason: string | null;
    details?: Record<string, unknown>;
  }): Promise<unknown>;
}
