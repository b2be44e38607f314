/**
 * Reads of auth's tables (`accounts`, `sessions`) that other features need,
 * so that they never query those tables themselves.
 */
import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

/** What the store reads through: PrismaService in the application, a bare client in a script (scripts/admin.ts). */
type Reads = Pick<PrismaService, '$queryRawUnsafe'>;

@Injectable()
export class AccountsStore {
  constructor(@Inject(PrismaService) private readonly prisma: Reads) {}

  /** The account of a username (lowercased here), with its ban, or null: for features (and scripts) that name accounts by username. */
  async byUsername(username: string): Promise<{ id: string; username: string; bannedAt: Date | null } | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string; username: string; banned_at: Date | null }[]>(
      `SELECT id::text AS id, username, banned_at FROM accounts WHERE username = $1`,
      String(username).toLowerCase(),
    );
    const row = rows[0];
    return row ? { id: row.id, username: row.username, bannedAt: row.banned_at ? new Date(row.banned_at) : null } : null;
  }

  /** The username of an account id, or null. */
  async usernameOf(accountId: string): Promise<string | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ username: string }[]>(`SELECT username FROM accounts WHERE id = $1::uuid`, accountId);
    return rows[0]?.username ?? null;
  }

  /** The usernames of the accounts of these sessions that have no live session left (signed out everywhere). */
  async signedOutEverywhere(sessionIds: string[]): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ username: string }[]>(
      `SELECT a.username FROM accounts a
       WHERE a.id IN (SELECT s.account_id FROM sessions s WHERE s.id = ANY ($1::uuid[]))
         AND NOT EXISTS (SELECT 1 FROM sessions l WHERE l.account_id = a.id AND l.revoked_at IS NULL AND l.expires_at > now())`,
      sessionIds,
    );
    return rows.map((r) => r.username);
  }
}
