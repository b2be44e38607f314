/**
 * Follows, blocks and who may send me direct messages (docs/social.md
 * "Follows and blocks"). What both transports call, and what other folders
 * ask (RelationsService, exported by RelationsModule): the challenges, the
 * rematches and the chat refuse blocked pairs (BLOCKED); seek pairing keeps
 * them apart in its own statement through ./blocked-pairs.ts.
 *
 * - Following is one way; `following` / `followers` list anyone's, newest
 *   first, in cursor pages, each entry with whether that player is online
 *   now (src/presence, across instances).
 * - A block is total and silent: blocking deletes the follows both ways; the
 *   blocked player is never told, and nothing they read shows it: their
 *   lists stay as any unfollowed player's would, and a follow of the blocker
 *   they make afterwards is accepted and shown to them alone (it is hidden
 *   from everyone else and counts for nothing: followsEachOther is false
 *   while a block stands). Only what the block refuses (a challenge, a
 *   rematch, a direct message) answers BLOCKED.
 * - The blocker may not follow whom they block (BLOCKED: unblock first).
 * - Nothing here is part of a match log.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { AccountsService } from '../auth/accounts.service';
import { PresenceService } from '../presence/presence.service';
import { RelationsStore } from './relations-store';
import type { PageCursor, Party, RelationRow } from './relations-store';

export const DIRECT_MESSAGES = ['everyone', 'followed', 'nobody'] as const;
export type DirectMessages = (typeof DIRECT_MESSAGES)[number];

/** A player in a following or followers list. */
export interface FollowEntry {
  username: string;
  /** Whether they hold a live connection now (src/presence). */
  online: boolean;
  /** When the follow was made. */
  since: Date;
}

/** A player I block. */
export interface BlockEntry {
  username: string;
  since: Date;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Where I stand with a player, as a follow or block answers it. */
export interface Relation {
  username: string;
  /** I follow them. */
  following: boolean;
  /** I block them. */
  blocking: boolean;
}

export interface MessageSettings {
  directMessages: DirectMessages;
}

const PAGE_MAX = 100;
const PAGE_DEFAULT = 20;

function encodeCursor(row: RelationRow): string {
  return Buffer.from(`${new Date(row.created_at).toISOString()}|${row.username}`).toString('base64url');
}

function decodeCursor(after: string | null | undefined): PageCursor | null {
  if (!after) return null;
  const text = Buffer.from(after, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const t = bar > 0 ? new Date(text.slice(0, bar)) : new Date(NaN);
  const username = text.slice(bar + 1);
  if (Number.isNaN(t.getTime()) || !username || after.length > 200) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
  return { t, username };
}

function pageSize(first: number | null | undefined): number {
  if (first === undefined || first === null) return PAGE_DEFAULT;
  if (!Number.isInteger(first) || first < 1 || first > PAGE_MAX) throw new DomainError('VALIDATION_FAILED', `first: 1 to ${PAGE_MAX}`);
  return first;
}

@Injectable()
export class RelationsService {
  constructor(
    private readonly store: RelationsStore,
    private readonly accounts: AccountsService,
    private readonly presence: PresenceService,
  ) {}

  // ------------------------------------------------------------ what other folders ask

  /** Whether either account blocks the other. */
  isBlockedEitherWay(aAccountId: string, bAccountId: string): Promise<boolean> {
    if (aAccountId === bAccountId) return Promise.resolve(false);
    return this.store.blockedEitherWay(aAccountId, bAccountId);
  }

  /** Whether any two of these players (usernames) are blocked either way: a challenge's, a rematch's players. */
  anyBlockedAmong(usernames: string[]): Promise<boolean> {
    const distinct = [...new Set(usernames.map((u) => u.toLowerCase()))];
    if (distinct.length < 2) return Promise.resolve(false);
    return this.store.anyBlockedAmong(distinct);
  }

  /** Refuses with BLOCKED when any two of these players are blocked either way (the message names nobody's block). */
  async assertNotBlocked(usernames: string[], what: string): Promise<void> {
    if (await this.anyBlockedAmong(usernames)) throw new DomainError('BLOCKED', `${what}: not possible between these players`);
  }

  /** Refuses with BLOCKED when `player` and any of `others` (usernames) are blocked either way: taking a seat at their table. */
  async assertNotBlockedWith(player: string, others: string[], what: string): Promise<void> {
    const rest = [...new Set(others.map((u) => u.toLowerCase()))].filter((u) => u !== player);
    if (rest.length > 0 && (await this.store.blockedWithAny(player, rest))) throw new DomainError('BLOCKED', `${what}: not possible between these players`);
  }

  /** The accounts blocked either way with this one (whom it blocks and who blocks it): what the chat hides. */
  blockedIds(accountId: string): Promise<string[]> {
    return this.store.blockedIds(accountId);
  }

  /** Each follows the other, and no block stands between them. */
  followsEachOther(aAccountId: string, bAccountId: string): Promise<boolean> {
    if (aAccountId === bAccountId) return Promise.resolve(false);
    return this.store.followEachOther(aAccountId, bAccountId);
  }

  /** Whether `fromAccountId` follows `toAccountId` and no block stands between them. */
  async isFollowing(fromAccountId: string, toAccountId: string): Promise<boolean> {
    if (fromAccountId === toAccountId) return false;
    return (await this.store.follows(fromAccountId, toAccountId)) && !(await this.store.blockedEitherWay(fromAccountId, toAccountId));
  }

  /** Who may send the account direct messages (default everyone); the chat applies it (docs/social.md). */
  async directMessageSetting(accountId: string): Promise<DirectMessages> {
    const value = await this.store.directMessages(accountId);
    return (DIRECT_MESSAGES as readonly string[]).includes(value ?? '') ? (value as DirectMessages) : 'everyone';
  }

  // ------------------------------------------------------------ follows

  async follow(caller: Principal, username: string): Promise<Relation> {
    const other = await this.other(caller, username, 'follow');
    if (await this.store.blocks(caller.accountId, other.id)) throw new DomainError('BLOCKED', `you block ${other.username}: unblock them first`);
    // A follow of someone who blocks the caller is recorded too, and shown to the caller alone: the block stays silent.
    await this.store.follow(me(caller), other);
    return this.relation(caller, other);
  }

  async unfollow(caller: Principal, username: string): Promise<Relation> {
    const other = await this.other(caller, username, 'unfollow');
    await this.store.unfollow(caller.accountId, other.id);
    return this.relation(caller, other);
  }

  /** Whom the player follows, newest first, as the caller may see it. */
  async following(caller: Principal, username: string, first?: number | null, after?: string | null): Promise<Page<FollowEntry>> {
    const whose = await this.existing(username);
    const limit = pageSize(first);
    return this.followPage(await this.store.following(whose.id, caller.accountId, decodeCursor(after), limit), limit);
  }

  /** Who follows the player, newest first, as the caller may see it. */
  async followers(caller: Principal, username: string, first?: number | null, after?: string | null): Promise<Page<FollowEntry>> {
    const whose = await this.existing(username);
    const limit = pageSize(first);
    return this.followPage(await this.store.followers(whose.id, caller.accountId, decodeCursor(after), limit), limit);
  }

  // ------------------------------------------------------------ blocks

  async block(caller: Principal, username: string): Promise<Relation> {
    const other = await this.other(caller, username, 'block');
    await this.store.block(me(caller), other);
    return this.relation(caller, other);
  }

  async unblock(caller: Principal, username: string): Promise<Relation> {
    const other = await this.other(caller, username, 'unblock');
    await this.store.unblock(caller.accountId, other.id);
    return this.relation(caller, other);
  }

  /** Whom I block, newest first. */
  async blocks(caller: Principal, first?: number | null, after?: string | null): Promise<Page<BlockEntry>> {
    const limit = pageSize(first);
    const rows = await this.store.blockList(caller.accountId, decodeCursor(after), limit);
    const page = rows.slice(0, limit);
    return {
      items: page.map((r) => ({ username: r.username, since: new Date(r.created_at) })),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  }

  // ------------------------------------------------------------ message settings

  async messageSettings(caller: Principal): Promise<MessageSettings> {
    return { directMessages: await this.directMessageSetting(caller.accountId) };
  }

  async setMessageSettings(caller: Principal, input: { directMessages?: unknown }): Promise<MessageSettings> {
    const value = input.directMessages;
    if (!(DIRECT_MESSAGES as readonly unknown[]).includes(value))
      throw new DomainError('VALIDATION_FAILED', `directMessages: one of ${DIRECT_MESSAGES.join(', ')}`);
    await this.store.setDirectMessages(caller.accountId, value as DirectMessages);
    return { directMessages: value as DirectMessages };
  }

  // ------------------------------------------------------------ helpers

  private async followPage(rows: RelationRow[], limit: number): Promise<Page<FollowEntry>> {
    const page = rows.slice(0, limit);
    const items = await Promise.all(
      page.map(async (r) => ({ username: r.username, online: await this.presence.isOnline(r.username), since: new Date(r.created_at) })),
    );
    return { items, nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null };
  }

  private async relation(caller: Principal, other: Party): Promise<Relation> {
    const [following, blocking] = await Promise.all([this.store.follows(caller.accountId, other.id), this.store.blocks(caller.accountId, other.id)]);
    return { username: other.username, following, blocking };
  }

  /** The other party of a follow or block: an existing account, not the caller. */
  private async other(caller: Principal, username: string, what: string): Promise<Party> {
    const other = await this.existing(username);
    if (other.id === caller.accountId) throw new DomainError('VALIDATION_FAILED', `you cannot ${what} yourself`);
    return other;
  }

  private async existing(username: string): Promise<Party> {
    const name = String(username ?? '').toLowerCase();
    const account = name.length > 0 && name.length <= 32 ? await this.accounts.byUsername(name) : null;
    if (!account) throw new DomainError('NOT_FOUND', `no account ${JSON.stringify(username)}`);
    return { id: account.id, username: account.username };
  }
}

function me(caller: Principal): Party {
  return { id: caller.accountId, username: caller.username };
}
