import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { optionsRecord, resolveRuleset } from '../engine';
import type { ResolvedRuleset, RulesetOptions } from '../engine';
import { DomainError } from '../common/domain-error';
import { RulesetVersionsStore } from '../ruleset-versions/ruleset-versions-store';
import type { RulesetRow, SqlRow } from '../ruleset-versions/ruleset-versions-store';
import type { Principal } from '../common/principal';
import type { RulesetVersionRef } from '../ruleset-versions/ruleset-version';
import type { CustomRulesetModel, RulesetOptionsModel } from './ruleset.model';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  constructor(private readonly rows: RulesetVersionsStore) {}

  async save(owner: Principal, name: string, preset: string, overrides: unknown): Promise<CustomRulesetModel> {
    const resolved = resolveRuleset(preset, overrides ?? {});
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    const overridesJson = JSON.stringify(overrides ?? {});
    const optionsJson = JSON.stringify(resolved.ruleset.options);
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const row = await this.rows.save(owner, name, preset, overridesJson, optionsJson, randomUUID());
      if (row) return toModel(fromSql(row));
    }
    throw new DomainError('CONFLICT', `ruleset ${JSON.stringify(name)} is being saved by too many requests at once; try again`);
  }

  /** Anyone may read a ruleset by id: that is how rulesets are shared. */
  async get(id: string): Promise<CustomRulesetModel> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such ruleset');
    const row = await this.rows.byId(id);
    if (!row) throw new DomainError('NOT_FOUND', 'no such ruleset');
    return toModel(row);
  }

  async mine(owner: Principal): Promise<CustomRulesetModel[]> {
    return (await this.rows.ofOwner(owner.accountId)).map(toModel);
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
    const frozen = await this.rows.freeze(id);
    if (!frozen) throw new DomainError('NOT_FOUND', 'no such ruleset');
    return withResolved(id, frozen.preset, frozen.overrides ?? {});
  }
}

function withResolved(id: string, preset: string, overrides: Record<string, unknown>): RulesetVersionRef & { resolved: ResolvedRuleset } {
  const resolved = resolveRuleset(preset, overrides);
  if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
  return { id, preset, overrides, resolved: resolved.ruleset };
}

function fromSql(r: SqlRow): RulesetRow {
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

function toModel(row: RulesetRow): CustomRulesetModel {
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
