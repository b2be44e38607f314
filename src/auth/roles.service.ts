/**
 * An account's roles, as `me` names them (REST GET /v1/me, GraphQL
 * `me { roles }`): `["moderator"]` for a moderator, `[]` for a player.
 *
 * Auth does not know who moderates: the features that grant roles do
 * (src/moderation: the operator's grants and MODERATORS), and they import
 * auth, which imports none of them. So each adds its source here when it is
 * built (ModerationService's constructor), and `me` asks them all, at every
 * request: a grant or a revoke shows at once.
 */
import { Injectable } from '@nestjs/common';

/** The roles one feature knows an account holds. */
export type RolesSource = (accountId: string) => Promise<readonly string[]>;

@Injectable()
export class AccountRoles {
  private readonly sources: RolesSource[] = [];

  /** A feature that grants roles adds what it knows (once, when it is built). */
  provide(source: RolesSource): void {
    this.sources.push(source);
  }

  /** The account's roles from every source, each once, in alphabetical order; [] for a player. */
  async of(accountId: string): Promise<string[]> {
    const all = await Promise.all(this.sources.map((source) => source(accountId)));
    return [...new Set(all.flat())].sort();
  }
}
