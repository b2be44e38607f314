import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { optionsRecord, resolveRuleset } from '../engine';
import type { ResolvedRuleset, RulesetOptions } from '../engine';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import type { Principal } from '../auth/principal';
import type { RulesetVersionRef } from '../events/event-store';
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

interface SqlRow {
  id: string;
  name: string;
  version: number;
  preset: string;
  overrides: unknown;
  options: unknown;
  created_at: Date;
  locked_at: Date | null;
  username: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COLUMNS = 'id, name, version, preset, overrides, options, created_at, locked_at';

/**
 * One save, in one statement. `head` is the latest version, row-locked (a
 * concurrent save or match creation of it waits, and this statement sees the
 * row as it is once it may go on). Then exactly one of:
 * - `same`: the head already holds this preset and these overrides: returned as it is;
 * - `edited`: the head is unused (not locked): changed in place;
 * - `added`: the head is used, or there is none: version head + 1 is inserted.
 * No row comes back when `added` collides with a version inserted after this
 * statement's snapshot (the head it saw was no longer the latest): the caller
 * runs it again, on a new snapshot. Versions are only ever head + 1 under the
 * unique key (owner_id, name, version), so they stay gap-free and ordered.
 */
const SAVE_SQL = `
WITH head AS (
  SELECT ${COLUMNS} FROM rulesets
  WHERE owner_id = $1::uuid AND name = $2::text
  ORDER BY version DESC LIMIT 1
  FOR UPDATE
), same AS (
  SELECT ${COLUMNS} FROM head WHERE preset = $3::text AND overrides = $4::jsonb
), edited AS (
  UPDATE rulesets AS r SET preset = $3::text, overrides = $4::jsonb, options = $5::jsonb
  FROM head
  WHERE r.id = head.id AND head.locked_at IS NULL AND r.locked_at IS NULL AND NOT EXISTS (SELECT 1 FROM same)
  RETURNING r.id, r.name, r.version, r.preset, r.overrides, r.options, r.created_at, r.locked_at
), added AS (
  INSERT INTO rulesets (id, owner_id, name, version, preset, overrides, options)
  SELECT $6::uuid, $1::uuid, $2::text, COALESCE((SELECT version FROM head), 0) + 1, $3::text, $4::jsonb, $5::jsonb
  WHERE NOT EXISTS (SELECT 1 FROM same) AND NOT EXISTS (SELECT 1 FROM edited)
  ON CONFLICT (owner_id, name, version) DO NOTHING
  RETURNING ${COLUMNS}
), saved AS (
  SELECT * FROM same UNION ALL SELECT * FROM edited UNION ALL SELECT * FROM added
)
SELECT saved.id::text AS id, saved.name, saved.version, saved.preset, saved.overrides, saved.options, saved.created_at, saved.locked_at, a.username
FROM saved JOIN accounts a ON a.id = $1::uuid`;

/** Makes a version immutable without creating a match (see forMatch); returns it as it is from then on. */
const FREEZE_SQL = `UPDATE rulesets SET locked_at = COALESCE(locked_at, now()) WHERE id = $1::uuid RETURNING preset, overrides`;

/**
 * Saves that found a newer version than their snapshot's head run again; each
 * such collision means another save made a version, so this bound is only
 * reached by a flood of saves of one name (then CONFLICT, never a 5xx).
 */
const SAVE_ATTEMPTS = 64;

/** Creations from a ruleset that lost to concurrent edits this often freeze the version first (see forMatch). */
const OPTIMISTIC_CREATES = 3;

/**
 * Named custom rulesets: a preset plus overrides, validated by the engine.
 * Saving under an existing name returns the latest version when nothing
 * changed, edits it in place while no match uses it, and makes the next
 * version once one does: a match's ruleset never changes (docs/api.md, "GraphiQL", the
 * custom rulesets paragraph).
 */
@Injectable()
export class CustomRulesetsService {
  constructor(private readonly prisma: PrismaService) {}

  async save(owner: Principal, name: string, preset: string, overrides: unknown): Promise<CustomRulesetModel> {
    const resolved = resolveRuleset(preset, overrides ?? {});
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    const overridesJson = JSON.stringify(overrides ?? {});
    const optionsJson = JSON.stringify(resolved.ruleset.options);
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const rows = await this.prisma.$queryRawUnsafe<SqlRow[]>(SAVE_SQL, owner.accountId, name, preset, overridesJson, optionsJson, randomUUID());
      if (rows[0]) return toModel(fromSql(rows[0]));
    }
    throw new DomainError('CONFLICT', `ruleset ${JSON.stringify(name)} is being saved by too many requests at once; try again`);
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

  /** The preset and overrides a match created from this ruleset is played under, as stored now. */
  async resolveForMatch(id: string): Promise<RulesetVersionRef & { resolved: ResolvedRuleset }> {
    const r = await this.get(id);
    return withResolved(r.id, r.preset, r.overrides);
  }

  /**
   * Creates a match from a ruleset version: `create` gets the version as read
   * once here and must hand it to the store, whose create statement locks it
   * only if it is still exactly that (else CONFLICT with details.rulesetChanged).
   * On that conflict the version is read again and `create` called again; after
   * a few such losses (a burst of in-place edits) the version is frozen first,
   * so the next attempt cannot lose: a frozen version stays so even when that
   * attempt is then refused for another reason.
   */
  async forMatch<T>(id: string, create: (ruleset: RulesetVersionRef) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const ruleset = attempt > OPTIMISTIC_CREATES ? await this.freeze(id) : await this.resolveForMatch(id);
      try {
        return await create({ id: ruleset.id, preset: ruleset.preset, overrides: ruleset.overrides });
      } catch (err) {
        if (!(err instanceof DomainError && err.details.rulesetChanged === true) || attempt > OPTIMISTIC_CREATES) throw err;
      }
    }
  }

  /** Locks the version (immutable from now on) and returns it as it stays; also for a seek, which holds its version until paired (src/lobby). */
  async freeze(id: string): Promise<RulesetVersionRef & { resolved: ResolvedRuleset }> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such ruleset');
    const rows = await this.prisma.$queryRawUnsafe<{ preset: string; overrides: Record<string, unknown> | null }[]>(FREEZE_SQL, id);
    if (!rows[0]) throw new DomainError('NOT_FOUND', 'no such ruleset');
    return withResolved(id, rows[0].preset, rows[0].overrides ?? {});
  }
}

function withResolved(id: string, preset: string, overrides: Record<string, unknown>): RulesetVersionRef & { resolved: ResolvedRuleset } {
  const resolved = resolveRuleset(preset, overrides);
  if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
  return { id, preset, overrides, resolved: resolved.ruleset };
}

function fromSql(r: SqlRow): Row {
  return {
    id: r.id,
    name: r.name,
    version: r.version,
    preset: r.preset,
    overrides: r.overrides,
    options: r.options,
    createdAt: r.created_at,
    lockedAt: r.locked_at,
    owner: { username: r.username },
  };
}

function toModel(row: Row): CustomRulesetModel {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    owner: row.owner.username,
    preset: row.preset,
    overrides: (row.overrides ?? {}) as Record<string, unknown>,
    options: optionsRecord(row.options as unknown as RulesetOptions) as RulesetOptionsModel, // a row saved before the new options has none of them: off
    locked: row.lockedAt !== null,
    createdAt: row.createdAt,
    lockedAt: row.lockedAt,
  };
}
