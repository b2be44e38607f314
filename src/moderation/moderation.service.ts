/**
 * Reports and moderation (docs/social.md "Reports and moderation"): any
 * player reports a user, a chat message or a match; the moderators (granted
 * by an operator, `npm run admin -- grant moderator <username>`, or named by
 * MODERATORS at start) list and resolve reports, mute and unmute, ban, and
 * read the moderation log, where every action is appended (who, what, why,
 * when) in the same transaction as the action itself (./moderation-store.ts).
 *
 * What other features use (chat imports this; this imports no chat):
 * activeMute(accountId) (a muted player's messages are refused with
 * CHAT_MUTED naming the end), isModerator(accountId) (who may remove a chat
 * message), and recordAction (chat's "message removed" into the log).
 * And auth's `me` (REST GET /v1/me, GraphQL `me { roles }`) names the
 * moderator role from rolesOf, which this service hands to auth's
 * AccountRoles when it is built (src/auth/roles.service.ts).
 *
 * A ban is auth's (src/auth/account-bans.ts: a column of accounts, so that
 * auth, which everything imports, reads it without importing this): its
 * mark commits with the log's line, then every credential of the account
 * ends on every instance as logout-everywhere's do.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { AccountBans } from '../auth/account-bans';
import { AccountsStore } from '../auth/accounts-store';
import { AccountRoles } from '../auth/roles.service';
import { ModerationConfig } from '../config/slices';
import { ExportKeys } from '../match-formats/export-keys';
import { MatchStore } from '../match-store/match-store';
import { writeModerationExport } from './moderation-log';
import type { ModerationAction, ModerationEvent, ModerationLine } from './moderation-log';
import { ModerationStore, REPORT_STATUSES } from './moderation-store';
import type { MuteRow, ReportRow, ReportStatus, ReportTargetKind, Role, Tx } from './moderation-store';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The longest reason, resolution or note a moderation request takes. */
export const REASON_MAX = 1000;
/** The farthest end of a mute: ten years (a longer silence is a ban). */
export const MUTE_MAX_MS = 10 * 365 * 24 * 3600_000;

export interface ReportTarget {
  username?: string | null;
  messageId?: string | null;
  matchId?: string | null;
}

export interface ReportView {
  id: string;
  reporter: string;
  /** A message's: its author (username) and text as they were when reported. */
  target: { kind: ReportTargetKind; username: string | null; messageId: string | null; text: string | null; matchId: string | null };
  reason: string;
  status: ReportStatus;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolution: string | null;
}

export interface ReportPage {
  items: ReportView[];
  nextCursor: string | null;
}

export interface MuteView {
  username: string;
  until: Date;
  reason: string;
  mutedBy: string;
  mutedAt: Date;
}

export interface BanView {
  username: string;
  bannedAt: Date;
  reason: string;
  bannedBy: string;
}

export interface ModerationLogEntry {
  seq: number;
  action: ModerationAction;
  actor: string;
  target: string;
  reason: string | null;
  details: Record<string, unknown>;
  time: Date;
  prevHash: string;
  hash: string;
}

export interface ModerationLogPage {
  items: ModerationLogEntry[];
  nextCursor: string | null;
}

/** What chat (or another feature) records: a moderator's action on what it owns (chat: `messageRemoved`, the message's id). */
export interface RecordedAction {
  /** The moderator: a username, or the caller. */
  moderator: string | Pick<Principal, 'username'>;
  action: ModerationAction;
  /** What the action is on: a username, a message's id. */
  target: string;
  reason?: string | null;
  /** What else the action names (the room, the author). */
  details?: Record<string, unknown>;
}

/** A chat message as a report keeps it: its author and text (chat's lookup, ./moderation.service.ts readMessagesWith). */
export interface ReportedMessage {
  authorId: string;
  author: string;
  text: string;
}

/** How the service reads a chat message by id: chat hands it over when it is built (this feature imports no chat). */
export type ReportedMessageLookup = (id: string) => Promise<ReportedMessage | undefined>;

/** The actor the log names for the admin command: `operator:<who ran it>`. */
export const operatorActor = (who: string): string => `operator:${who.replace(/[^\w.@-]/g, '').slice(0, 64) || 'unknown'}`;

function text(value: unknown, field: string, required: boolean): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '' && !required)) {
    if (required) throw new DomainError('VALIDATION_FAILED', `${field}: required`, { errors: [{ field, messages: [`${field} is required`] }] });
    return null;
  }
  if (typeof value !== 'string' || !value.trim() || value.length > REASON_MAX) {
    const message = `${field}: 1 to ${REASON_MAX} characters`;
    throw new DomainError('VALIDATION_FAILED', message, { errors: [{ field, messages: [message] }] });
  }
  return value.trim();
}

@Injectable()
export class ModerationService {
  private readonly named: ReadonlySet<string>;
  /** Chat's lookup of a message by id (null: no chat in this process, and a message report keeps its id alone). */
  private messages: ReportedMessageLookup | null = null;

  constructor(
    private readonly store: ModerationStore,
    private readonly accounts: AccountsStore,
    private readonly bans: AccountBans,
    private readonly matches: MatchStore,
    /** Where `me` reads an account's roles (auth's): this service tells it who moderates. */
    roles: AccountRoles,
    @Inject(ModerationConfig) config: Pick<ModerationConfig, 'MODERATORS'>,
    /** What signs the log's export (the match exports' key); without it, unsigned. */
    @Optional() private readonly keys?: ExportKeys,
  ) {
    this.named = new Set((config.MODERATORS ?? []).map((u) => u.toLowerCase()));
    roles.provide((accountId) => this.rolesOf(accountId));
  }

  // ------------------------------------------------------------ for chat and other features

  /** The account's running mute (its end and why), or null. */
  async activeMute(accountId: string): Promise<{ until: Date; reason: string } | null> {
    if (!UUID.test(accountId)) return null;
    const m = await this.store.activeMute(accountId);
    return m ? { until: m.until, reason: m.reason } : null;
  }

  /** Whether the account is a moderator: granted by an operator, or named by MODERATORS. */
  async isModerator(accountId: string): Promise<boolean> {
    if (!UUID.test(accountId)) return false;
    if (await this.store.hasRole(accountId, 'moderator')) return true;
    if (this.named.size === 0) return false;
    const username = await this.accounts.usernameOf(accountId);
    return username !== null && this.named.has(username);
  }

  /** The roles the account holds here, as `me` names them: ["moderator"] or []. */
  async rolesOf(accountId: string): Promise<Role[]> {
    return (await this.isModerator(accountId)) ? ['moderator'] : [];
  }

  /** Chat hands over how a message is read by id, so that a message report keeps its author and text at report time. */
  readMessagesWith(lookup: ReportedMessageLookup): void {
    this.messages = lookup;
  }

  /** Appends an action done elsewhere (chat's message removal) to the moderation log. */
  async recordAction(a: RecordedAction): Promise<void> {
    const actor = typeof a.moderator === 'string' ? a.moderator : a.moderator.username;
    if (!actor) throw new DomainError('VALIDATION_FAILED', 'moderator: required');
    if (!a.target) throw new DomainError('VALIDATION_FAILED', 'target: required');
    const event: ModerationEvent = { type: a.action, target: a.target, reason: a.reason ?? null };
    if (a.details && Object.keys(a.details).length > 0) event.details = a.details;
    await this.store.logged(actor, async () => ({ result: undefined, events: [event] }));
  }

  // ------------------------------------------------------------ reports

  /** A player's report: exactly one target (a user, a chat message's id, a match) and why. */
  async report(caller: Principal, target: ReportTarget | null | undefined, reason: unknown): Promise<ReportView> {
    const given = (['username', 'messageId', 'matchId'] as const).filter((k) => target?.[k] !== undefined && target?.[k] !== null);
    if (given.length !== 1) {
      const message = 'target: exactly one of username, messageId, matchId';
      throw new DomainError('VALIDATION_FAILED', message, { errors: [{ field: 'target', messages: [message] }] });
    }
    const why = text(reason, 'reason', true)!;
    const base = { reporterId: caller.accountId, reporter: caller.username, reason: why };
    const key = given[0];
    const value = target![key];
    if (typeof value !== 'string') throw new DomainError('VALIDATION_FAILED', `target.${key}: a string`);
    let row: ReportRow;
    if (key === 'username') {
      const account = await this.accounts.byUsername(value);
      if (!account) throw new DomainError('NOT_FOUND', `no user ${value.toLowerCase()}`);
      if (account.id === caller.accountId) throw new DomainError('VALIDATION_FAILED', 'target.username: you cannot report yourself');
      row = await this.store.createReport({
        ...base,
        targetKind: 'user',
        targetAccountId: account.id,
        targetUsername: account.username,
        targetMessageId: null,
        targetMatchId: null,
      });
    } else if (key === 'messageId') {
      if (!UUID.test(value)) throw new DomainError('VALIDATION_FAILED', "target.messageId: a chat message's id (a UUID)");
      // Its author and text as they are now: the moderator reads what was reported, even once it is removed or swept.
      const message = this.messages ? await this.messages(value.toLowerCase()) : undefined;
      if (this.messages && !message) throw new DomainError('NOT_FOUND', `no chat message ${value}`);
      if (message?.authorId === caller.accountId) throw new DomainError('VALIDATION_FAILED', 'target.messageId: you cannot report your own message');
      row = await this.store.createReport({
        ...base,
        targetKind: 'message',
        targetAccountId: message?.authorId ?? null,
        targetUsername: message?.author ?? null,
        targetMessageId: value.toLowerCase(),
        targetMessageText: message?.text ?? null,
        targetMatchId: null,
      });
    } else {
      if (!UUID.test(value)) throw new DomainError('NOT_FOUND', `no match ${value}`);
      await this.matches.get(value); // NOT_FOUND when there is none
      row = await this.store.createReport({
        ...base,
        targetKind: 'match',
        targetAccountId: null,
        targetUsername: null,
        targetMessageId: null,
        targetMatchId: value.toLowerCase(),
      });
    }
    return view(row);
  }

  /** The reports of a status (open or resolved), oldest first, in cursor pages: for moderators. */
  async reports(caller: Principal, status: string | undefined, first: number | undefined, after: string | null | undefined): Promise<ReportPage> {
    await this.requireModerator(caller);
    const s = (status ?? 'open') as ReportStatus;
    if (!(REPORT_STATUSES as readonly string[]).includes(s)) throw new DomainError('VALIDATION_FAILED', `status: one of ${REPORT_STATUSES.join(', ')}`);
    const limit = Math.max(1, Math.min(100, first ?? 20));
    let cursor: { t: string; id: string } | null = null;
    if (after) {
      const [t, id] = Buffer.from(after, 'base64url').toString('utf8').split('|');
      if (!t || !id || !UUID.test(id) || Number.isNaN(Date.parse(t))) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
      cursor = { t, id };
    }
    const rows = await this.store.reports(s, cursor, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(view),
      nextCursor: rows.length > limit && last ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url') : null,
    };
  }

  /** Resolves an open report (with what was done, optionally): logged. */
  async resolveReport(caller: Principal, id: string, resolution: unknown): Promise<ReportView> {
    await this.requireModerator(caller);
    const note = text(resolution, 'resolution', false);
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', `no report ${id}`);
    return this.store.logged(caller.username, async (tx) => {
      const report = await this.store.report(tx, id, true);
      if (!report) throw new DomainError('NOT_FOUND', `no report ${id}`);
      if (report.status === 'resolved') throw new DomainError('CONFLICT', `report ${id} is resolved already`);
      const resolved = await this.store.resolve(tx, id, caller.username, note);
      const v = view(resolved);
      const target: Record<string, unknown> = { kind: v.target.kind };
      if (v.target.username) target.username = v.target.username;
      if (v.target.messageId) target.messageId = v.target.messageId;
      if (v.target.matchId) target.matchId = v.target.matchId;
      return { result: v, events: [{ type: 'reportResolved', target: id, reason: note, report: { ...target, reporter: v.reporter } }] };
    });
  }

  // ------------------------------------------------------------ mutes and bans

  /** Mutes a user until a time (in the future): their chat messages are refused until then. Muting again replaces the end. */
  async mute(caller: Principal, username: string, until: unknown, reason: unknown): Promise<MuteView> {
    await this.requireModerator(caller);
    const why = text(reason, 'reason', true)!;
    const end = typeof until === 'string' || until instanceof Date ? new Date(until) : new Date(Number.NaN);
    if (Number.isNaN(end.getTime()))
      throw new DomainError('VALIDATION_FAILED', 'until: an ISO 8601 date-time', {
        errors: [{ field: 'until', messages: ['until must be an ISO 8601 date-time'] }],
      });
    const now = Date.now();
    if (end.getTime() <= now)
      throw new DomainError('VALIDATION_FAILED', 'until: a time in the future', { errors: [{ field: 'until', messages: ['until must be in the future'] }] });
    if (end.getTime() > now + MUTE_MAX_MS) throw new DomainError('VALIDATION_FAILED', 'until: at most ten years ahead (ban instead)');
    const account = await this.account(username);
    const row: MuteRow = await this.store.logged(caller.username, async (tx) => {
      const m = await this.store.mute(tx, { accountId: account.id, username: account.username, until: end, reason: why, mutedBy: caller.username });
      return { result: m, events: [{ type: 'userMuted', target: account.username, reason: why, until: end.toISOString() }] };
    });
    return { username: row.username, until: row.until, reason: row.reason, mutedBy: row.mutedBy, mutedAt: row.mutedAt };
  }

  /** Lifts a running mute: NOT_FOUND when none runs. */
  async unmute(caller: Principal, username: string, reason?: unknown): Promise<void> {
    await this.requireModerator(caller);
    const why = text(reason, 'reason', false);
    const account = await this.account(username);
    await this.store.logged(caller.username, async (tx) => {
      if (!(await this.store.unmute(tx, account.id))) throw new DomainError('NOT_FOUND', `${account.username} is not muted`);
      return { result: undefined, events: [{ type: 'userUnmuted', target: account.username, reason: why }] };
    });
  }

  /**
   * Bans an account: its mark and the log's line commit together, then its
   * sessions, tokens and sockets end on every instance and its login is
   * refused (ACCOUNT_BANNED). CONFLICT when it is banned already.
   */
  async ban(caller: Principal, username: string, reason: unknown): Promise<BanView> {
    await this.requireModerator(caller);
    const why = text(reason, 'reason', true)!;
    const account = await this.account(username);
    if (account.id === caller.accountId) throw new DomainError('VALIDATION_FAILED', 'username: a moderator does not ban themselves');
    const mark = await this.store.logged(caller.username, async (tx) => {
      const m = await this.bans.markBanned(tx, account.id);
      if (!m) throw new DomainError('CONFLICT', `${account.username} is banned already`);
      return { result: m, events: [{ type: 'userBanned', target: account.username, reason: why }] };
    });
    await this.bans.announce(mark);
    return { username: account.username, bannedAt: mark.bannedAt, reason: why, bannedBy: caller.username };
  }

  /**
   * Lifts a ban: login works again (the sessions and tokens the ban revoked
   * stay revoked), on every instance once the lift is heard; logged.
   * NOT_FOUND when the account is not banned.
   */
  async unban(caller: Principal, username: string, reason?: unknown): Promise<void> {
    await this.requireModerator(caller);
    const why = text(reason, 'reason', false);
    const account = await this.account(username);
    await this.store.logged(caller.username, async (tx) => {
      if (!(await this.bans.unmarkBanned(tx, account.id))) throw new DomainError('NOT_FOUND', `${account.username} is not banned`);
      return { result: undefined, events: [{ type: 'userUnbanned', target: account.username, reason: why }] };
    });
    await this.bans.announceLifted(account.id);
  }

  // ------------------------------------------------------------ roles (the operator's)

  /**
   * Grants or revokes a role: the operator's (scripts/admin.ts, directly on
   * the database or through the running service's operator endpoint).
   * `changed` false: the account held (or lacked) it already; nothing logged.
   */
  async setRole(actor: string, op: 'grant' | 'revoke', role: Role, username: string, reason: string | null): Promise<{ username: string; changed: boolean }> {
    return setRole(this.store, this.accounts, actor, op, role, username, reason);
  }

  // ------------------------------------------------------------ the log

  /** The log as JSON Lines (signed header, then every event): for moderators. */
  async exportLog(caller: Principal): Promise<string> {
    await this.requireModerator(caller);
    return writeModerationExport(await this.store.lines(), this.keys?.signer ?? null);
  }

  /** The log's entries in order, in cursor pages: for moderators. */
  async logPage(caller: Principal, first: number | undefined, after: string | null | undefined): Promise<ModerationLogPage> {
    await this.requireModerator(caller);
    const limit = Math.max(1, Math.min(100, first ?? 50));
    let from = 0;
    if (after) {
      from = Number(after);
      if (!/^\d{1,9}$/.test(after)) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
    }
    const lines = await this.store.page(from, limit + 1);
    const page = lines.slice(0, limit);
    return { items: page.map(entryOf), nextCursor: lines.length > limit ? String(page[page.length - 1].seq) : null };
  }

  // ------------------------------------------------------------

  /** FORBIDDEN unless the caller is a moderator. */
  private async requireModerator(caller: Principal): Promise<void> {
    if (this.named.has(caller.username)) return;
    if (!(await this.store.hasRole(caller.accountId, 'moderator')))
      throw new DomainError('FORBIDDEN', 'the moderator role is needed (docs/social.md "Reports and moderation")');
  }

  private async account(username: string): Promise<{ id: string; username: string }> {
    const account = typeof username === 'string' && username.length <= 64 ? await this.accounts.byUsername(username) : null;
    if (!account) throw new DomainError('NOT_FOUND', `no user ${String(username).toLowerCase()}`);
    return account;
  }
}

/** Grants or revokes a role, logged (the service's and the admin command's one way). */
export async function setRole(
  store: ModerationStore,
  accounts: Pick<AccountsStore, 'byUsername'>,
  actor: string,
  op: 'grant' | 'revoke',
  role: Role,
  username: string,
  reason: string | null,
): Promise<{ username: string; changed: boolean }> {
  if (role !== 'moderator') throw new DomainError('VALIDATION_FAILED', 'role: moderator');
  if (op !== 'grant' && op !== 'revoke') throw new DomainError('VALIDATION_FAILED', 'action: grant or revoke');
  const why = text(reason, 'reason', false);
  const account = typeof username === 'string' && username.length <= 64 ? await accounts.byUsername(username) : null;
  if (!account) throw new DomainError('NOT_FOUND', `no user ${String(username).toLowerCase()}`);
  const changed = await store.logged(actor, async (tx: Tx) => {
    const done = op === 'grant' ? await store.grant(tx, account, role, actor) : await store.revoke(tx, account.id, role);
    const events: ModerationEvent[] = done ? [{ type: op === 'grant' ? 'moderatorGranted' : 'moderatorRevoked', target: account.username, reason: why }] : [];
    return { result: done, events };
  });
  return { username: account.username, changed };
}

function view(r: ReportRow): ReportView {
  return {
    id: r.id,
    reporter: r.reporter,
    target: { kind: r.targetKind, username: r.targetUsername, messageId: r.targetMessageId, text: r.targetMessageText, matchId: r.targetMatchId },
    reason: r.reason,
    status: r.status,
    createdAt: r.createdAt,
    resolvedAt: r.resolvedAt,
    resolvedBy: r.resolvedBy,
    resolution: r.resolution,
  };
}

function entryOf(l: ModerationLine): ModerationLogEntry {
  const { target, reason, ...details } = l.payload as { target: string; reason: string | null } & Record<string, unknown>;
  return {
    seq: l.seq,
    action: l.type as ModerationAction,
    actor: l.actor ?? '',
    target,
    reason: reason ?? null,
    details,
    time: new Date(l.time),
    prevHash: l.prevHash,
    hash: l.hash,
  };
}
