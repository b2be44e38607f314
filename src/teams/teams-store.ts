/**
 * The teams' tables: `teams`, `team_members`, `team_requests` and
 * `team_kicks`, read and written here only (src/table-ownership.spec.ts).
 * Raw SQL: every change of a team runs in the caller's transaction (`tx`)
 * after `lockTeam` took the team's row, so the last-leader rule, the member
 * count and the leaders' bound hold under races; a change that adds a
 * membership or a request also takes the account's advisory lock
 * (`lockAccount`) for the per-account bound. Lock order: the team, then the
 * account.
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../database/database';
import { lockForTransaction } from '../database/advisory-lock';

export type Sql = Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export type TeamRole = 'leader' | 'member';

export interface TeamRow {
  id: string;
  name: string;
  name_key: string;
  description: string;
  open: boolean;
  created_by: string;
  created_at: Date;
  member_count: number;
}

/** A team as one caller sees it: its leaders, and the caller's role and pending request. */
export interface TeamViewRow extends TeamRow {
  leaders: string[];
  my_role: TeamRole | null;
  request_pending: boolean;
}

export interface MemberRow {
  account_id: string;
  username: string;
  role: TeamRole;
  joined_at: Date;
}

export interface RequestRow {
  account_id: string;
  username: string;
  requested_at: Date;
}

const TEAM_COLUMNS = `t.id::text AS id, t.name, t.name_key, t.description, t.open, t.created_by, t.created_at, t.member_count`;

/** The view's columns for the caller `$1` (an account id as text; '' for none). */
const VIEW_COLUMNS = `${TEAM_COLUMNS},
  ARRAY(SELECT l.username FROM team_members l WHERE l.team_id = t.id AND l.role = 'leader' ORDER BY l.username) AS leaders,
  (SELECT m.role FROM team_members m WHERE m.team_id = t.id AND m.account_id::text = $1) AS my_role,
  EXISTS (SELECT 1 FROM team_requests r WHERE r.team_id = t.id AND r.account_id::text = $1) AS request_pending`;

const MEMBER_COLUMNS = `account_id::text AS account_id, username, role, joined_at`;
const REQUEST_COLUMNS = `account_id::text AS account_id, username, requested_at`;

/** `%` and `_` taken literally in a LIKE pattern (escape character `\`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class TeamsStore {
  constructor(private readonly prisma: PrismaService) {}

  /** The caller's transaction, else the pool. */
  private on(db: Sql | null): Sql {
    return db ?? this.prisma;
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => fn(tx), { maxWait: 15_000, timeout: 30_000 });
  }

  // ------------------------------------------------------------ locks (in the caller's transaction)

  /** The team's row, locked until `tx` ends; undefined when there is no such team. */
  async lockTeam(tx: Sql, id: string): Promise<TeamRow | undefined> {
    const rows = await tx.$queryRawUnsafe<TeamRow[]>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.id = $1::uuid FOR UPDATE`, id);
    return rows[0];
  }

  /** Serializes the account's new memberships and requests until `tx` ends, so that the count in `commitmentsOf` holds the bound. */
  async lockAccount(tx: Sql, accountId: string): Promise<void> {
    await lockForTransaction(tx, `team-account:${accountId}`);
  }

  // ------------------------------------------------------------ teams

  /** A new team (its creator not yet a member): false when another team has its name key. */
  async insertTeam(tx: Sql, t: { id: string; name: string; nameKey: string; description: string; open: boolean; createdBy: string }): Promise<boolean> {
    const n = await tx.$executeRawUnsafe(
      `INSERT INTO teams (id, name, name_key, description, open, created_by) VALUES ($1::uuid, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING`,
      t.id,
      t.name,
      t.nameKey,
      t.description,
      t.open,
      t.createdBy,
    );
    return n === 1;
  }

  /** Removes the team with its members, requests and kicks (their rows cascade). */
  async deleteTeam(tx: Sql, id: string): Promise<void> {
    await tx.$executeRawUnsafe(`DELETE FROM teams WHERE id = $1::uuid`, id);
  }

  /** The team as `caller` (an account id, or null) sees it. */
  async view(id: string, caller: string | null, db: Sql | null = null): Promise<TeamViewRow | undefined> {
    const rows = await this.on(db).$queryRawUnsafe<TeamViewRow[]>(`SELECT ${VIEW_COLUMNS} FROM teams t WHERE t.id = $2::uuid`, caller ?? '', id);
    return rows[0];
  }

  /** Teams whose name key contains `q` (every team without it), by name key then id, after the cursor; `limit + 1` rows say whether more follow. */
  async page(q: string | null, caller: string | null, cursor: { key: string; id: string } | null, limit: number): Promise<TeamViewRow[]> {
    const where: string[] = [];
    const params: unknown[] = [caller ?? '', limit + 1];
    if (q) {
      params.push(`%${likeLiteral(q)}%`);
      where.push(`t.name_key LIKE $${params.length} ESCAPE '\\'`);
    }
    if (cursor) {
      params.push(cursor.key, cursor.id);
      where.push(`(t.name_key, t.id) > ($${params.length - 1}, $${params.length}::uuid)`);
    }
    return this.prisma.$queryRawUnsafe<TeamViewRow[]>(
      `SELECT ${VIEW_COLUMNS} FROM teams t ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY t.name_key, t.id LIMIT $2::int`,
      ...params,
    );
  }

  // ------------------------------------------------------------ members

  async member(db: Sql | null, teamId: string, accountId: string): Promise<MemberRow | undefined> {
    const rows = await this.on(db).$queryRawUnsafe<MemberRow[]>(
      `SELECT ${MEMBER_COLUMNS} FROM team_members WHERE team_id = $1::uuid AND account_id = $2::uuid`,
      teamId,
      accountId,
    );
    return rows[0];
  }

  async memberByUsername(db: Sql | null, teamId: string, username: string): Promise<MemberRow | undefined> {
    const rows = await this.on(db).$queryRawUnsafe<MemberRow[]>(
      `SELECT ${MEMBER_COLUMNS} FROM team_members WHERE team_id = $1::uuid AND username = $2`,
      teamId,
      username,
    );
    return rows[0];
  }

  async addMember(tx: Sql, teamId: string, m: { accountId: string; username: string; role: TeamRole }): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO team_members (team_id, account_id, username, role) VALUES ($1::uuid, $2::uuid, $3, $4)`,
      teamId,
      m.accountId,
      m.username,
      m.role,
    );
    await tx.$executeRawUnsafe(`UPDATE teams SET member_count = member_count + 1 WHERE id = $1::uuid`, teamId);
  }

  async removeMember(tx: Sql, teamId: string, accountId: string): Promise<void> {
    const n = await tx.$executeRawUnsafe(`DELETE FROM team_members WHERE team_id = $1::uuid AND account_id = $2::uuid`, teamId, accountId);
    if (n === 1) await tx.$executeRawUnsafe(`UPDATE teams SET member_count = member_count - 1 WHERE id = $1::uuid`, teamId);
  }

  async setRole(tx: Sql, teamId: string, accountId: string, role: TeamRole): Promise<void> {
    await tx.$executeRawUnsafe(`UPDATE team_members SET role = $3 WHERE team_id = $1::uuid AND account_id = $2::uuid`, teamId, accountId, role);
  }

  async leaderCount(db: Sql | null, teamId: string): Promise<number> {
    const rows = await this.on(db).$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM team_members WHERE team_id = $1::uuid AND role = 'leader'`,
      teamId,
    );
    return rows[0]?.n ?? 0;
  }

  /** Members by username after `after`; `limit + 1` rows say whether more follow. */
  membersPage(teamId: string, after: string | null, limit: number): Promise<MemberRow[]> {
    return this.prisma.$queryRawUnsafe<MemberRow[]>(
      `SELECT ${MEMBER_COLUMNS} FROM team_members WHERE team_id = $1::uuid AND ($2::text IS NULL OR username > $2::text) ORDER BY username LIMIT $3::int`,
      teamId,
      after,
      limit + 1,
    );
  }

  // ------------------------------------------------------------ requests and kicks

  async request(db: Sql | null, teamId: string, accountId: string): Promise<RequestRow | undefined> {
    const rows = await this.on(db).$queryRawUnsafe<RequestRow[]>(
      `SELECT ${REQUEST_COLUMNS} FROM team_requests WHERE team_id = $1::uuid AND account_id = $2::uuid`,
      teamId,
      accountId,
    );
    return rows[0];
  }

  async requestByUsername(db: Sql | null, teamId: string, username: string): Promise<RequestRow | undefined> {
    const rows = await this.on(db).$queryRawUnsafe<RequestRow[]>(
      `SELECT ${REQUEST_COLUMNS} FROM team_requests WHERE team_id = $1::uuid AND username = $2`,
      teamId,
      username,
    );
    return rows[0];
  }

  async addRequest(tx: Sql, teamId: string, r: { accountId: string; username: string }): Promise<void> {
    await tx.$executeRawUnsafe(`INSERT INTO team_requests (team_id, account_id, username) VALUES ($1::uuid, $2::uuid, $3)`, teamId, r.accountId, r.username);
  }

  async removeRequest(tx: Sql, teamId: string, accountId: string): Promise<void> {
    await tx.$executeRawUnsafe(`DELETE FROM team_requests WHERE team_id = $1::uuid AND account_id = $2::uuid`, teamId, accountId);
  }

  /** Pending requests, oldest first (by time, then username) after the cursor; `limit + 1` rows say whether more follow. */
  requestsPage(teamId: string, cursor: { t: string; username: string } | null, limit: number): Promise<RequestRow[]> {
    return this.prisma.$queryRawUnsafe<RequestRow[]>(
      `SELECT ${REQUEST_COLUMNS} FROM team_requests WHERE team_id = $1::uuid
         AND ($2::timestamptz IS NULL OR (requested_at, username) > ($2::timestamptz, $3::text))
       ORDER BY requested_at, username LIMIT $4::int`,
      teamId,
      cursor?.t ?? null,
      cursor?.username ?? null,
      limit + 1,
    );
  }

  async kicked(db: Sql | null, teamId: string, accountId: string): Promise<boolean> {
    const rows = await this.on(db).$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM team_kicks WHERE team_id = $1::uuid AND account_id = $2::uuid`,
      teamId,
      accountId,
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  async addKick(tx: Sql, teamId: string, accountId: string, kickedBy: string): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO team_kicks (team_id, account_id, kicked_by) VALUES ($1::uuid, $2::uuid, $3)
         ON CONFLICT (team_id, account_id) DO UPDATE SET kicked_by = EXCLUDED.kicked_by, kicked_at = now()`,
      teamId,
      accountId,
      kickedBy,
    );
  }

  async removeKick(tx: Sql, teamId: string, accountId: string): Promise<void> {
    await tx.$executeRawUnsafe(`DELETE FROM team_kicks WHERE team_id = $1::uuid AND account_id = $2::uuid`, teamId, accountId);
  }

  // ------------------------------------------------------------ an account's teams

  /** The account's memberships plus its pending requests: what the per-account bound counts. */
  async commitmentsOf(db: Sql | null, accountId: string): Promise<number> {
    const rows = await this.on(db).$queryRawUnsafe<{ n: number }[]>(
      `SELECT ((SELECT count(*) FROM team_members WHERE account_id = $1::uuid) + (SELECT count(*) FROM team_requests WHERE account_id = $1::uuid))::int AS n`,
      accountId,
    );
    return rows[0]?.n ?? 0;
  }

  async isMember(teamId: string, accountId: string, db: Sql | null = null): Promise<boolean> {
    return (await this.member(db, teamId, accountId)) !== undefined;
  }

  async teamIdsOf(accountId: string, db: Sql | null = null): Promise<string[]> {
    const rows = await this.on(db).$queryRawUnsafe<{ team_id: string }[]>(
      `SELECT team_id::text AS team_id FROM team_members WHERE account_id = $1::uuid ORDER BY team_id`,
      accountId,
    );
    return rows.map((r) => r.team_id);
  }

  async sharesATeam(a: string, b: string, db: Sql | null = null): Promise<boolean> {
    const rows = await this.on(db).$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM team_members x JOIN team_members y ON y.team_id = x.team_id WHERE x.account_id = $1::uuid AND y.account_id = $2::uuid`,
      a,
      b,
    );
    return (rows[0]?.n ?? 0) > 0;
  }
}
