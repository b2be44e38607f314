/**
 * The `push_subscriptions` table (src/table-ownership.spec.ts: read and written here only; the append's trigger and
 * `scopa_enqueue_push` read it in SQL). One row per (account, endpoint): registering the same browser again replaces
 * its keys and kinds.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { lockForTransaction } from '../database/advisory-lock';
import type { PushKind } from './push-kinds';

export interface PushSubscriptionRow {
  id: string;
  accountId: string;
  username: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  kinds: PushKind[];
  createdAt: Date;
  updatedAt: Date;
}

/** A subscription to store: a row without what the store gives it (its id and times). */
export type NewPushSubscription = Omit<PushSubscriptionRow, 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class PushSubscriptionsStore {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores the subscription, or replaces the keys and kinds of the caller's one with the same endpoint: `created`
   * tells which. Null when the account holds `max` others already (counted after the account's advisory lock, in the
   * insert's transaction, so racing registrations on any number of instances count one after the other).
   */
  async upsert(s: NewPushSubscription, max: number): Promise<{ row: PushSubscriptionRow; created: boolean } | null> {
    return this.prisma.$transaction(
      async (tx) => {
        await lockForTransaction(tx, `push-subscriptions:${s.accountId}`);
        const existing = await tx.pushSubscription.findUnique({ where: { accountId_endpoint: { accountId: s.accountId, endpoint: s.endpoint } } });
        if (existing) {
          const row = await tx.pushSubscription.update({
            where: { id: existing.id },
            data: { p256dh: s.p256dh, auth: s.auth, kinds: s.kinds, username: s.username, updatedAt: new Date() },
          });
          return { row: row as PushSubscriptionRow, created: false };
        }
        if ((await tx.pushSubscription.count({ where: { accountId: s.accountId } })) >= max) return null;
        const row = await tx.pushSubscription.create({ data: { id: randomUUID(), ...s } });
        return { row: row as PushSubscriptionRow, created: true };
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
  }

  async list(accountId: string): Promise<PushSubscriptionRow[]> {
    const rows = await this.prisma.pushSubscription.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows as PushSubscriptionRow[];
  }

  async byId(id: string): Promise<PushSubscriptionRow | null> {
    return (await this.prisma.pushSubscription.findUnique({ where: { id } })) as PushSubscriptionRow | null;
  }

  /** Removes the account's subscription `id`: false when it has none such. */
  async remove(accountId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.pushSubscription.deleteMany({ where: { id, accountId } });
    return count > 0;
  }

  /**
   * Drops a subscription the push service says is gone (404, 410), unless it was registered again since the push
   * that learnt it (its keys replaced after `sentAt`: a new subscription at the same endpoint).
   */
  async dropGone(id: string, sentAt: Date): Promise<boolean> {
    const { count } = await this.prisma.pushSubscription.deleteMany({ where: { id, updatedAt: { lte: sentAt } } });
    return count > 0;
  }
}
