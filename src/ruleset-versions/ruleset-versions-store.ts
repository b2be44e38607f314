/**
 * The saved rulesets' rows (rulesets): a save in one statement, reads by id
 * and by owner, and the freeze that makes a version immutable; with
 * ./ruleset-version.ts (the lock the match store's create statement takes),
 * the only code that queries the table. A folder of its own that imports no
 * feature, so the match store may take its fragment (src/rulesets, the
 * feature, imports auth, which reaches the store): src/rulesets calls it.
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

export type RulesetRow = {
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

export interface SqlRow {
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
SELECT saved.id::text AS id, saved.name, saved.version, saved.preset, saved.overrides, saved.options, saved.created_at, saved.locked_at
FROM saved`;

/** Makes a version immutable without creating a match (see forMatch); returns it as it is from then on. */
const FREEZE_SQL = `UPDATE rulesets SET locked_at = COALESCE(locked_at, now()) WHERE id = $1::uuid RETURNING preset, overrides`;

@Injectable()
export class RulesetVersionsStore {
  constructor(private readonly prisma: PrismaService) {}

  /** SAVE_SQL once: the saved version, or null when it collided with a version saved meanwhile (run it again). */
  async save(
    owner: { accountId: string; username: string },
    name: string,
    preset: string,
    overridesJson: string,
    optionsJson: string,
    id: string,
  ): Promise<SqlRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<Omit<SqlRow, 'username'>[]>(SAVE_SQL, owner.accountId, name, preset, overridesJson, optionsJson, id);
    return rows[0] ? { ...rows[0], username: owner.username } : null;
  }

  async byId(id: string): Promise<RulesetRow | null> {
    return this.prisma.ruleset.findUnique({ where: { id }, include: { owner: { select: { username: true } } } });
  }

  /** An owner's rulesets, by name then version. */
  async ofOwner(ownerId: string): Promise<RulesetRow[]> {
    return this.prisma.ruleset.findMany({
      where: { ownerId },
      orderBy: [{ name: 'asc' }, { version: 'asc' }],
      include: { owner: { select: { username: true } } },
    });
  }

  /** Locks the version; null when there is none. */
  async freeze(id: string): Promise<{ preset: string; overrides: Record<string, unknown> | null } | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ preset: string; overrides: Record<string, unknown> | null }[]>(FREEZE_SQL, id);
    return rows[0] ?? null;
  }
}
