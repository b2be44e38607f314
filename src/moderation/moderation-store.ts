/**
 * The moderation tables (`account_roles`, `reports`, `mutes`) and the
 * moderation log (`moderation_log`, its head row, and `moderation_events`:
 * a stream of src/stream-store/stream-store.ts), over a Prisma client: the
 * application's PrismaService, or the bare client of `npm run admin`
 * (scripts/admin.ts) on a database no service holds.
 *
 * Every action and its log line commit in ONE transaction that first locks
 * the log's head row (`SELECT ... FOR UPDATE`): actions are logged one after
 * the other in the order they happened, on every instance and from the
 * admin command alike, and an action that is refused logs nothing. The
 * stream's append guard (the head at the seq decided on) and the primary
 * key (log_id, seq) refuse a second writer besides.
 */
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../database/database';
import { StreamStore } from '../stream-store/stream-store';
import type { StreamSql } from '../stream-store/stream-store';
import { MODERATION_LOG_ID, MODERATION_STREAM } from './moderation-log';
import type { ModerationEvent, ModerationLine } from './moderation-log';

export const ROLES = ['moderator'] as const;
export type Role = (typeof ROLES)[number];

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export type ReportTargetKind = 'user' | 'message' | 'match';

export interface ReportRow {
  id: string;
  reporter: string;
  targetKind: ReportTargetKind;
  targetUsername: string | null;
  targetMessageId: string | null;
  /** A reported chat message's text as it was when reported. */
  targetMessageText: string | null;
  targetMatchId: string | null;
  reason: string;
  status: ReportStatus;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolution: string | null;
}

export interface MuteRow {
  accountId: string;
  username: string;
  until: Date;
  reason: string;
  mutedBy: string;
  mutedAt: Date;
}

interface RawReport {
  id: string;
  reporter: string;
  target_kind: ReportTargetKind;
  target_username: string | null;
  target_message_id: string | null;
  target_message_text: string | null;
  target_match_id: string | null;
  reason: string;
  status: ReportStatus;
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution: string | null;
}

const REPORT_COLUMNS = `id::text AS id, reporter, target_kind, target_username, target_message_id::text AS target_message_id, target_message_text,
  target_match_id::text AS target_match_id, reason, status, created_at, resolved_at, resolved_by, resolution`;

const date = (d: Date | string): Date => (d instanceof Date ? d : new Date(d));

function toReport(r: RawReport): ReportRow {
  return {
    id: r.id,
    reporter: r.reporter,
    targetKind: r.target_kind,
    targetUsername: r.target_username,
    targetMessageId: r.target_message_id,
    targetMessageText: r.target_message_text,
    targetMatchId: r.target_match_id,
    reason: r.reason,
    status: r.status,
    createdAt: date(r.created_at),
    resolvedAt: r.resolved_at ? date(r.resolved_at) : null,
    resolvedBy: r.resolved_by,
    resolution: r.resolution,
  };
}

/** The log's fold: nothing but where it is (the head's seq and hash are the stream's). */
type LogState = { events: number };

export type Tx = StreamSql;

export class ModerationStore {
  private readonly log = new StreamStore<ModerationEvent, LogState>({
    kind: MODERATION_STREAM,
    table: { events: 'moderation_events', idColumn: 'log_id', head: 'moderation_log', projection: [] },
    initial: () => ({ events: 0 }),
    evolve: (s) => ({ events: s.events + 1 }),
    cacheSize: 1,
  });

  constructor(private readonly prisma: Prisma) {}

  /**
   * Runs `act` in a transaction with the log locked, then appends the events
   * it returns (by `actor`) in the same transaction. `act` throwing (a
   * refusal) rolls everything back: nothing is done, nothing logged.
   */
  async logged<T>(actor: string, act: (tx: Tx) => Promise<{ result: T; events: ModerationEvent[] }>): Promise<T> {
    const { result, folded } = await this.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT current_seq FROM moderation_log WHERE id = $1::uuid FOR UPDATE`, MODERATION_LOG_ID);
      const { result, events } = await act(tx);
      const before = await this.log.load(tx, MODERATION_LOG_ID);
      const folded = await this.log.append(tx, MODERATION_LOG_ID, before, events, actor);
      return { result, folded };
    });
    this.log.remember(MODERATION_LOG_ID, folded);
    return result;
  }

  /** Every event of the log, as its export lines. */
  async lines(): Promise<ModerationLine[]> {
    return (await this.log.lines(this.prisma, MODERATION_LOG_ID)) as ModerationLine[];
  }

  /** A page of the log: events after seq `after`, at most `limit`, in order. */
  async page(after: number, limit: number): Promise<ModerationLine[]> {
    const rows = await this.prisma.$queryRawUnsafe<
      { seq: number; type: string; payload: Record<string, unknown>; actor: string | null; time: Date; prev_hash: string; hash: string }[]
    >(
      `SELECT seq, type, payload, actor, time, prev_hash, hash FROM moderation_events WHERE log_id = $1::uuid AND seq > $2::int ORDER BY seq LIMIT $3::int`,
      MODERATION_LOG_ID,
      after,
      limit,
    );
    return rows.map((r) => ({
      logId: MODERATION_LOG_ID,
      seq: r.seq,
      type: r.type,
      payload: r.payload,
      actor: r.actor,
      time: date(r.time).toISOString(),
      prevHash: r.prev_hash,
      hash: r.hash,
    }));
  }

  // ------------------------------------------------------------ roles

  async hasRole(accountId: string, role: Role): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM account_roles WHERE account_id = $1::uuid AND role = $2`, accountId, role);
    return rows.length > 0;
  }

  /** Grants a role (in the caller's transaction): false when the account holds it already. */
  async grant(tx: Tx, account: { id: string; username: string }, role: Role, by: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<unknown[]>(
      `INSERT INTO account_roles (account_id, role, username, granted_by) VALUES ($1::uuid, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING role`,
      account.id,
      role,
      account.username,
      by,
    );
    return rows.length > 0;
  }

  /** Revokes a role (in the caller's transaction): false when the account did not hold it. */
  async revoke(tx: Tx, accountId: string, role: Role): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<unknown[]>(`DELETE FROM account_roles WHERE account_id = $1::uuid AND role = $2 RETURNING role`, accountId, role);
    return rows.length > 0;
  }

  /** The usernames holding a role (granted by an operator), alphabetical. */
  async holders(role: Role): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ username: string }[]>(`SELECT username FROM account_roles WHERE role = $1 ORDER BY username`, role);
    return rows.map((r) => r.username);
  }

  // ------------------------------------------------------------ reports

  async createReport(r: {
    reporterId: string;
    reporter: string;
    targetKind: ReportTargetKind;
    targetAccountId: string | null;
    targetUsername: string | null;
    targetMessageId: string | null;
    targetMessageText?: string | null;
    targetMatchId: string | null;
    reason: string;
  }): Promise<ReportRow> {
    const rows = await this.prisma.$queryRawUnsafe<RawReport[]>(
      `INSERT INTO reports (id, reporter_id, reporter, target_kind, target_account_id, target_username, target_message_id, target_match_id, reason, target_message_text)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5::uuid, $6, $7::uuid, $8::uuid, $9, $10)
       RETURNING ${REPORT_COLUMNS}`,
      randomUUID(),
      r.reporterId,
      r.reporter,
      r.targetKind,
      r.targetAccountId,
      r.targetUsername,
      r.targetMessageId,
      r.targetMatchId,
      r.reason,
      r.targetMessageText ?? null,
    );
    return toReport(rows[0]);
  }

  async report(db: Tx | null, id: string, forUpdate = false): Promise<ReportRow | null> {
    const sql: Tx = db ?? this.prisma;
    const rows = await sql.$queryRawUnsafe<RawReport[]>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = $1::uuid${forUpdate ? ' FOR UPDATE' : ''}`, id);
    return rows[0] ? toReport(rows[0]) : null;
  }

  /** Reports of a status, oldest first (a queue), after the cursor (created_at, id); `limit + 1` rows tell whether more follow. */
  async reports(status: ReportStatus, cursor: { t: string; id: string } | null, limit: number): Promise<ReportRow[]> {
    const rows = await this.prisma.$queryRawUnsafe<RawReport[]>(
      `SELECT ${REPORT_COLUMNS} FROM reports
       WHERE status = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_at, id LIMIT $4::int`,
      status,
      cursor?.t ?? null,
      cursor?.id ?? null,
      limit + 1,
    );
    return rows.map(toReport);
  }

  async resolve(tx: Tx, id: string, by: string, resolution: string | null): Promise<ReportRow> {
    const rows = await tx.$queryRawUnsafe<RawReport[]>(
      `UPDATE reports SET status = 'resolved', resolved_at = now(), resolved_by = $2, resolution = $3 WHERE id = $1::uuid RETURNING ${REPORT_COLUMNS}`,
      id,
      by,
      resolution,
    );
    return toReport(rows[0]);
  }

  // ------------------------------------------------------------ mutes

  /** The account's mute still running, or null. */
  async activeMute(accountId: string): Promise<MuteRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ account_id: string; username: string; until: Date; reason: string; muted_by: string; muted_at: Date }[]>(
      `SELECT account_id::text AS account_id, username, until, reason, muted_by, muted_at FROM mutes WHERE account_id = $1::uuid AND until > now()`,
      accountId,
    );
    const r = rows[0];
    return r ? { accountId: r.account_id, username: r.username, until: date(r.until), reason: r.reason, mutedBy: r.muted_by, mutedAt: date(r.muted_at) } : null;
  }

  /** Mutes (or mutes again, replacing the end and reason) in the caller's transaction. */
  async mute(tx: Tx, m: { accountId: string; username: string; until: Date; reason: string; mutedBy: string }): Promise<MuteRow> {
    const rows = await tx.$queryRawUnsafe<{ muted_at: Date }[]>(
      `INSERT INTO mutes (account_id, username, until, reason, muted_by) VALUES ($1::uuid, $2, $3::timestamptz, $4, $5)
       ON CONFLICT (account_id) DO UPDATE SET until = EXCLUDED.until, reason = EXCLUDED.reason, muted_by = EXCLUDED.muted_by, muted_at = now()
       RETURNING muted_at`,
      m.accountId,
      m.username,
      m.until.toISOString(),
      m.reason,
      m.mutedBy,
    );
    return { ...m, mutedAt: date(rows[0].muted_at) };
  }

  /** Lifts the account's running mute (in the caller's transaction): false when none runs (an ended one is dropped too). */
  async unmute(tx: Tx, accountId: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ running: boolean }[]>(
      `DELETE FROM mutes WHERE account_id = $1::uuid RETURNING until > now() AS running`,
      accountId,
    );
    return rows[0]?.running === true;
  }
}
