/**
 * Teams (clubs, docs/social.md "Teams"): create, search, join (an open team
 * at once; a team by request, or a team that kicked the player, through a
 * pending request a leader accepts or declines), leave, kick, appoint
 * leaders, the member list with ratings (from src/ratings).
 *
 * Every change is one transaction on the team's locked row
 * (./teams-store.ts), so the rules hold under races: a team always has a
 * leader while it has members (the last leader cannot leave while others
 * remain: CONFLICT, appoint first), at most TEAM_LEADERS_MAX leaders, at
 * most TEAMS_PER_ACCOUNT memberships and pending requests per account. A
 * team whose last member leaves is dissolved (its name is free again).
 *
 * Other features ask it who is in which team: `isMember`, `teamIdsOf`,
 * `sharesATeam` (the team-only tournaments of src/tournaments; the team's
 * chat room and direct messages). It imports no feature that uses it.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import type { PoolRating } from '../ratings/ratings.service';
import { RatingsService } from '../ratings/ratings.service';
import { TeamsStore } from './teams-store';
import type { MemberRow, RequestRow, Sql, TeamRole, TeamRow, TeamViewRow } from './teams-store';

export type { TeamRole } from './teams-store';

export const TEAM_NAME_MIN = 3;
export const TEAM_NAME_MAX = 40;
export const TEAM_DESCRIPTION_MAX = 500;
export const TEAM_SEARCH_MAX = 40;
/** Leaders one team may have at once (an appointment beyond: LIMIT_REACHED). */
export const TEAM_LEADERS_MAX = 10;
/** Teams one account may be a member of, pending requests included (a creation, join or request beyond: LIMIT_REACHED). */
export const TEAMS_PER_ACCOUNT = 50;
/** Ratings shown per member in the member list: the pools of the most rated matches. */
export const TEAM_MEMBER_RATINGS = 16;
export const TEAM_PAGE_DEFAULT = 20;
export const TEAM_PAGE_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Control characters and line separators (a description keeps its line breaks, taken out before the test). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export interface TeamView {
  id: string;
  name: string;
  description: string;
  open: boolean;
  createdBy: string;
  createdAt: Date;
  memberCount: number;
  /** The leaders' usernames, in order. */
  leaders: string[];
  /** The caller's role in the team; null when not a member. */
  myRole: TeamRole | null;
  /** Whether the caller has a request to join pending. */
  requestPending: boolean;
}

export interface TeamPage {
  items: TeamView[];
  nextCursor: string | null;
}

export interface TeamMemberView {
  username: string;
  role: TeamRole;
  joinedAt: Date;
  ratings: PoolRating[];
}

export interface TeamMemberPage {
  items: TeamMemberView[];
  nextCursor: string | null;
}

export interface TeamRequestView {
  username: string;
  requestedAt: Date;
}

export interface TeamRequestPage {
  items: TeamRequestView[];
  nextCursor: string | null;
}

export interface CreateTeamRequest {
  name: string;
  description?: string | null;
  open?: boolean | null;
}

/** A team's name as shown: NFC, trimmed, inner whitespace collapsed to one space. */
export function teamName(raw: string): string {
  return String(raw ?? '')
    .normalize('NFC')
    .trim()
    .replace(/\s+/gu, ' ');
}

/** What two names must not share: the name folded (NFKC, lower case), so "Circolo Napoli" and "circolo  NAPOLI" are one. */
export function teamNameKey(name: string): string {
  return teamName(name).normalize('NFKC').toLowerCase();
}

function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

function decodeCursor(after: string | null | undefined, size: number): string[] | null {
  if (after === undefined || after === null || after === '') return null;
  try {
    const parts: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (Array.isArray(parts) && parts.length === size && parts.every((p) => typeof p === 'string')) return parts as string[];
  } catch {
    // below
  }
  throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
}

function pageSize(first: number | null | undefined): number {
  const n = first ?? TEAM_PAGE_DEFAULT;
  if (!Number.isInteger(n) || n < 1 || n > TEAM_PAGE_MAX) throw new DomainError('VALIDATION_FAILED', `first: 1 to ${TEAM_PAGE_MAX}`);
  return n;
}

const noTeam = () => new DomainError('NOT_FOUND', 'no such team');

@Injectable()
export class TeamsService {
  constructor(
    private readonly store: TeamsStore,
    private readonly ratings: RatingsService,
  ) {}

  // ------------------------------------------------------------ what other features ask

  /** Whether the account is a member (leader or not) of the team; `db`: a caller's transaction to read on its connection. */
  async isMember(teamId: string, accountId: string, db?: Sql): Promise<boolean> {
    if (!UUID.test(teamId) || !UUID.test(accountId)) return false;
    return this.store.isMember(teamId, accountId, db ?? null);
  }

  /** Whether the account leads the team. */
  async isLeader(teamId: string, accountId: string, db?: Sql): Promise<boolean> {
    if (!UUID.test(teamId) || !UUID.test(accountId)) return false;
    return (await this.store.member(db ?? null, teamId, accountId))?.role === 'leader';
  }

  /** The teams the account is a member of (ids, at most TEAMS_PER_ACCOUNT). */
  async teamIdsOf(accountId: string, db?: Sql): Promise<string[]> {
    if (!UUID.test(accountId)) return [];
    return this.store.teamIdsOf(accountId, db ?? null);
  }

  /** Whether two accounts are members of one team at least. */
  async sharesATeam(a: string, b: string, db?: Sql): Promise<boolean> {
    if (!UUID.test(a) || !UUID.test(b)) return false;
    return this.store.sharesATeam(a, b, db ?? null);
  }

  /** Whether the team exists. */
  async exists(teamId: string): Promise<boolean> {
    return UUID.test(teamId) && (await this.store.view(teamId, null)) !== undefined;
  }

  // ------------------------------------------------------------ reads

  async get(caller: Principal | null, id: string): Promise<TeamView> {
    if (!UUID.test(id)) throw noTeam();
    const row = await this.store.view(id, caller?.accountId ?? null);
    if (!row) throw noTeam();
    return viewOf(row);
  }

  /** Teams by name (folded), those whose name contains `q` when given, in cursor pages. */
  async list(caller: Principal | null, q: string | null | undefined, first: number | null | undefined, after: string | null | undefined): Promise<TeamPage> {
    const limit = pageSize(first);
    const query = q === undefined || q === null ? '' : teamNameKey(q);
    if (query.length > TEAM_SEARCH_MAX) throw new DomainError('VALIDATION_FAILED', `q: at most ${TEAM_SEARCH_MAX} characters`);
    const c = decodeCursor(after, 2);
    if (c && !UUID.test(c[1])) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
    const rows = await this.store.page(query || null, caller?.accountId ?? null, c ? { key: c[0], id: c[1] } : null, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(viewOf), nextCursor: rows.length > limit && last ? encodeCursor([last.name_key, last.id]) : null };
  }

  /** The members, by username, each with their ratings (TEAM_MEMBER_RATINGS pools at most). */
  async members(id: string, first: number | null | undefined, after: string | null | undefined): Promise<TeamMemberPage> {
    const limit = pageSize(first);
    const c = decodeCursor(after, 1);
    await this.mustExist(id);
    const rows = await this.store.membersPage(id, c?.[0] ?? null, limit);
    const page = rows.slice(0, limit);
    const ratings = await this.ratings.poolRatingsOf(
      page.map((m) => m.username),
      TEAM_MEMBER_RATINGS,
    );
    const last = page[page.length - 1];
    return {
      items: page.map((m) => ({ username: m.username, role: m.role, joinedAt: m.joined_at, ratings: ratings.get(m.username) ?? [] })),
      nextCursor: rows.length > limit && last ? encodeCursor([last.username]) : null,
    };
  }

  /** The pending requests, oldest first: for the team's leaders only (FORBIDDEN otherwise). */
  async requests(caller: Principal, id: string, first: number | null | undefined, after: string | null | undefined): Promise<TeamRequestPage> {
    const limit = pageSize(first);
    const c = decodeCursor(after, 2);
    if (c && Number.isNaN(Date.parse(c[0]))) throw new DomainError('VALIDATION_FAILED', 'after: a cursor from an earlier page');
    await this.mustExist(id);
    const me = await this.store.member(null, id, caller.accountId);
    if (me?.role !== 'leader') throw new DomainError('FORBIDDEN', "only the team's leaders see its requests");
    const rows = await this.store.requestsPage(id, c ? { t: c[0], username: c[1] } : null, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(requestOf),
      nextCursor: rows.length > limit && last ? encodeCursor([new Date(last.requested_at).toISOString(), last.username]) : null,
    };
  }

  // ------------------------------------------------------------ commands

  async create(caller: Principal, req: CreateTeamRequest): Promise<TeamView> {
    const name = teamName(req.name);
    if (name.length < TEAM_NAME_MIN || name.length > TEAM_NAME_MAX || CONTROL.test(name) || !/[\p{L}\p{N}]/u.test(name)) {
      throw new DomainError('VALIDATION_FAILED', `name: ${TEAM_NAME_MIN} to ${TEAM_NAME_MAX} characters of plain text, with a letter or a digit`);
    }
    const description = String(req.description ?? '')
      .normalize('NFC')
      .trim()
      .replace(/\r\n?/g, '\n');
    if (description.length > TEAM_DESCRIPTION_MAX || CONTROL.test(description.replace(/\n/g, ''))) {
      throw new DomainError('VALIDATION_FAILED', `description: at most ${TEAM_DESCRIPTION_MAX} characters of plain text`);
    }
    const id = randomUUID();
    const nameKey = teamNameKey(name);
    await this.store.transaction(async (tx) => {
      await this.store.lockAccount(tx, caller.accountId);
      await this.mayCommit(tx, caller.accountId);
      const made = await this.store.insertTeam(tx, { id, name, nameKey, description, open: req.open ?? true, createdBy: caller.username });
      if (!made) throw new DomainError('CONFLICT', `a team named ${JSON.stringify(name)} exists already (names are unique without regard to case)`);
      await this.store.addMember(tx, id, { accountId: caller.accountId, username: caller.username, role: 'leader' });
    });
    return this.get(caller, id);
  }

  /** Joins: a member at once of an open team; otherwise (by request, or kicked before) a pending request. Again: nothing changes. */
  async join(caller: Principal, id: string): Promise<TeamView> {
    await this.change(id, async (tx, team) => {
      if (await this.store.member(tx, id, caller.accountId)) return;
      if (await this.store.request(tx, id, caller.accountId)) return;
      await this.store.lockAccount(tx, caller.accountId);
      await this.mayCommit(tx, caller.accountId);
      if (team.open && !(await this.store.kicked(tx, id, caller.accountId))) {
        await this.store.addMember(tx, id, { accountId: caller.accountId, username: caller.username, role: 'member' });
      } else {
        await this.store.addRequest(tx, id, { accountId: caller.accountId, username: caller.username });
      }
    });
    return this.get(caller, id);
  }

  /**
   * Leaves (or withdraws a pending request). The last leader may not leave while other members remain (CONFLICT:
   * appoint a leader first); the last member's leaving dissolves the team. Not a member: nothing changes.
   */
  async leave(caller: Principal, id: string): Promise<TeamView> {
    const dissolved = await this.change(id, async (tx, team): Promise<TeamView | null> => {
      const me = await this.store.member(tx, id, caller.accountId);
      if (!me) {
        await this.store.removeRequest(tx, id, caller.accountId);
        return null;
      }
      if (me.role === 'leader' && team.member_count > 1 && (await this.store.leaderCount(tx, id)) === 1) {
        throw new DomainError(
          'CONFLICT',
          `you are the last leader of this team: appoint another leader (POST /v1/teams/${id}/leaders/{username}) before you leave`,
        );
      }
      await this.store.removeMember(tx, id, caller.accountId);
      if (team.member_count > 1) return null;
      // The last member: the team is dissolved; the answer is the team as it was, with no one in it.
      const row = await this.store.view(id, null, tx);
      await this.store.deleteTeam(tx, id);
      return row ? { ...viewOf(row), leaders: [], memberCount: 0 } : null;
    });
    return dissolved ?? this.get(caller, id);
  }

  async accept(caller: Principal, id: string, username: string): Promise<TeamView> {
    await this.change(id, async (tx) => {
      await this.mustLead(tx, id, caller);
      const req = await this.store.requestByUsername(tx, id, String(username).toLowerCase());
      if (!req) throw new DomainError('NOT_FOUND', `no pending request from ${JSON.stringify(username)}`);
      await this.store.removeRequest(tx, id, req.account_id);
      await this.store.removeKick(tx, id, req.account_id);
      // The request counted in the account's bound already: the membership takes its place.
      await this.store.addMember(tx, id, { accountId: req.account_id, username: req.username, role: 'member' });
    });
    return this.get(caller, id);
  }

  async decline(caller: Principal, id: string, username: string): Promise<TeamView> {
    await this.change(id, async (tx) => {
      await this.mustLead(tx, id, caller);
      const req = await this.store.requestByUsername(tx, id, String(username).toLowerCase());
      if (!req) throw new DomainError('NOT_FOUND', `no pending request from ${JSON.stringify(username)}`);
      await this.store.removeRequest(tx, id, req.account_id);
    });
    return this.get(caller, id);
  }

  /** Removes a member (a leader too: leaders are peers); their next join is a request, even to an open team. */
  async kick(caller: Principal, id: string, username: string): Promise<TeamView> {
    await this.change(id, async (tx) => {
      await this.mustLead(tx, id, caller);
      const name = String(username).toLowerCase();
      if (name === caller.username) throw new DomainError('CONFLICT', 'you cannot kick yourself: leave the team instead');
      const target = await this.store.memberByUsername(tx, id, name);
      if (!target) throw new DomainError('NOT_FOUND', `${JSON.stringify(username)} is not a member of this team`);
      await this.store.removeMember(tx, id, target.account_id);
      await this.store.addKick(tx, id, target.account_id, caller.username);
    });
    return this.get(caller, id);
  }

  /** Makes a member a leader (already one: nothing changes). */
  async appoint(caller: Principal, id: string, username: string): Promise<TeamView> {
    await this.change(id, async (tx) => {
      await this.mustLead(tx, id, caller);
      const target = await this.store.memberByUsername(tx, id, String(username).toLowerCase());
      if (!target) throw new DomainError('NOT_FOUND', `${JSON.stringify(username)} is not a member of this team: only members become leaders`);
      if (target.role === 'leader') return;
      const leaders = await this.store.leaderCount(tx, id);
      if (leaders >= TEAM_LEADERS_MAX) {
        throw new DomainError('LIMIT_REACHED', `a team has at most ${TEAM_LEADERS_MAX} leaders`, { limit: TEAM_LEADERS_MAX, live: leaders });
      }
      await this.store.setRole(tx, id, target.account_id, 'leader');
    });
    return this.get(caller, id);
  }

  // ------------------------------------------------------------ helpers

  /** One change of a team: in a transaction holding the team's row (NOT_FOUND without one). */
  private async change<T>(id: string, fn: (tx: Sql, team: TeamRow) => Promise<T>): Promise<T> {
    if (!UUID.test(id)) throw noTeam();
    return this.store.transaction(async (tx) => {
      const team = await this.store.lockTeam(tx, id);
      if (!team) throw noTeam();
      return fn(tx, team);
    });
  }

  private async mustLead(tx: Sql, id: string, caller: Principal): Promise<MemberRow> {
    const me = await this.store.member(tx, id, caller.accountId);
    if (me?.role !== 'leader') throw new DomainError('FORBIDDEN', "only the team's leaders accept, decline, kick and appoint");
    return me;
  }

  /** LIMIT_REACHED when the account has TEAMS_PER_ACCOUNT memberships and requests already (under its lock). */
  private async mayCommit(tx: Sql, accountId: string): Promise<void> {
    const live = await this.store.commitmentsOf(tx, accountId);
    if (live >= TEAMS_PER_ACCOUNT) {
      throw new DomainError('LIMIT_REACHED', `at most ${TEAMS_PER_ACCOUNT} teams per account, pending requests included: leave one first`, {
        limit: TEAMS_PER_ACCOUNT,
        live,
      });
    }
  }

  private async mustExist(id: string): Promise<void> {
    if (!(await this.exists(id))) throw noTeam();
  }
}

function viewOf(r: TeamViewRow): TeamView {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    open: r.open,
    createdBy: r.created_by,
    createdAt: r.created_at,
    memberCount: r.member_count,
    leaders: r.leaders ?? [],
    myRole: r.my_role ?? null,
    requestPending: r.request_pending === true,
  };
}

function requestOf(r: RequestRow): TeamRequestView {
  return { username: r.username, requestedAt: r.requested_at };
}
