import { Injectable } from '@nestjs/common';
import { resolveRuleset } from '../engine';
import type { ResolvedRuleset } from '../engine';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import type { Principal } from '../auth/principal';
import type { CustomRulesetModel, RulesetOptionsModel } from './ruleset.model';

type Row = {
  id: string;
  name: string;
  version: number;
  preset: string;
  overrides: unknown;
  options: unknown;
  createdAt: Date;
  lockedAt: Date | null;
  owner: { username: string };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Named custom rulesets: a preset plus overrides, validated by the engine.
 * Saving under an existing name edits the latest version while no match uses
 * it, and makes a new version once one does: a match's ruleset never changes.
 */
@Injectable()
export class CustomRulesetsService {
  constructor(private readonly prisma: PrismaService) {}

  async save(owner: Principal, name: string, preset: string, overrides: unknown): Promise<CustomRulesetModel> {
    const resolved = resolveRuleset(preset, overrides ?? {});
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    const data = { preset, overrides: (overrides ?? {}) as object, options: resolved.ruleset.options as unknown as object };
    const row = await this.prisma.$transaction(async (tx) => {
      const latest = await tx.ruleset.findFirst({ where: { ownerId: owner.accountId, name }, orderBy: { version: 'desc' } });
      if (latest && !latest.lockedAt) {
        // Only if still unlocked: a match may have locked it meanwhile.
        const updated = await tx.ruleset.updateMany({ where: { id: latest.id, lockedAt: null }, data });
        if (updated.count === 1) return tx.ruleset.findUniqueOrThrow({ where: { id: latest.id }, include: { owner: { select: { username: true } } } });
      }
      return tx.ruleset.create({
        data: { ...data, ownerId: owner.accountId, name, version: (latest?.version ?? 0) + 1 },
        include: { owner: { select: { username: true } } },
      });
    });
    return toModel(row);
  }

  /** Anyone may read a ruleset by id: that is how rulesets are shared. */
  async get(id: string): Promise<CustomRulesetModel> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such ruleset');
    const row = await this.prisma.ruleset.findUnique({ where: { id }, include: { owner: { select: { username: true } } } });
    if (!row) throw new DomainError('NOT_FOUND', 'no such ruleset');
    return toModel(row);
  }

  async mine(owner: Principal): Promise<CustomRulesetModel[]> {
    const rows = await this.prisma.ruleset.findMany({
      where: { ownerId: owner.accountId },
      orderBy: [{ name: 'asc' }, { version: 'asc' }],
      include: { owner: { select: { username: true } } },
    });
    return rows.map(toModel);
  }

  /** The preset and overrides a match created from this ruleset is played under. */
  async resolveForMatch(id: string): Promise<{ id: string; preset: string; overrides: Record<string, unknown>; resolved: ResolvedRuleset }> {
    const r = await this.get(id);
    const resolved = resolveRuleset(r.preset, r.overrides);
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    return { id: r.id, preset: r.preset, overrides: r.overrides, resolved: resolved.ruleset };
  }

  /** Marks the ruleset used: from now on it is immutable. */
  async lock(id: string): Promise<void> {
    await this.prisma.ruleset.updateMany({ where: { id, lockedAt: null }, data: { lockedAt: new Date() } });
  }
}

function toModel(row: Row): CustomRulesetModel {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    owner: row.owner.username,
    preset: row.preset,
    overrides: (row.overrides ?? {}) as Record<string, unknown>,
    options: row.options as RulesetOptionsModel,
    locked: row.lockedAt !== null,
    createdAt: row.createdAt,
    lockedAt: row.lockedAt,
  };
}
