/**
 * Reads of auth's tables (`accounts`, `sessions`) that other features need,
 * so that they never query those tables themselves.
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

@Injectable()
export class AccountsStore {
  constructor(private readonly prisma: PrismaService) {}

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
