import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { clientSecretOf } from './oauth.config';
import { ServerSecret } from '../auth/server-secret';
import { OAuthServer } from './oauth-server.service';
import { clientMetadata } from './prisma-adapter';

export interface OAuthAppInfo {
  id: string;
  /** The same as id, under RFC 7591's name (REST only). */
  client_id: string;
  name: string;
  redirectUris: string[];
  confidential: boolean;
  createdAt: Date;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI is refused, or null: absolute, no fragment, https or loopback http or a private-use scheme. */
function redirectUriProblem(uri: string): string | null {
  const url = URL.parse(uri);
  if (!url) return `${uri} is not an absolute URI`;
  if (url.hash || uri.includes('#')) return `${uri} has a fragment`;
  // https://scopa.example@evil.example/cb goes to evil.example: a user part only serves to mislead.
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri)) return `${uri} has a user part (user@host): name the host alone`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return `${uri}: http only on a loopback address (127.0.0.1, [::1], localhost); use https`;
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') return `${uri}: scheme not allowed`;
  return null;
}

/** Apps registered by accounts (the OAuth clients), listed and deleted by their owner. */
@Injectable()
export class OAuthAppsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly server: OAuthServer,
    private readonly secret: ServerSecret,
  ) {}

  async register(owner: Principal, name: string, redirectUris: string[], confidential = false): Promise<{ app: OAuthAppInfo; clientSecret: string | null }> {
    const uris = [...new Set(redirectUris.map((u) => u.trim()))];
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new DomainError('VALIDATION_FAILED', `redirectUris: ${problem}`, { field: 'redirectUris' });
    }
    const id = randomBytes(16).toString('hex');
    const secretSalt = confidential ? randomBytes(16).toString('base64url') : null;
    // The library's own checks of the metadata (the same it applies when the app is used).
    try {
      await this.server.oidc.Client.validate(clientMetadata({ id, name: name.trim(), redirectUris: uris, confidential, secretSalt }, this.secret.value));
    } catch (err) {
      const e = err as { error_description?: string; message?: string };
      throw new DomainError('VALIDATION_FAILED', `redirectUris: ${e.error_description ?? e.message ?? 'invalid client metadata'}`, { field: 'redirectUris' });
    }
    const row = await this.prisma.oAuthApp.create({ data: { id, ownerId: owner.accountId, name: name.trim(), redirectUris: uris, confidential, secretSalt } });
    return { app: toInfo(row), clientSecret: secretSalt ? clientSecretOf(this.secret.value, id, secretSalt) : null };
  }

  async list(owner: Principal): Promise<OAuthAppInfo[]> {
    const rows = await this.prisma.oAuthApp.findMany({ where: { ownerId: owner.accountId }, orderBy: { createdAt: 'asc' } });
    return rows.map(toInfo);
  }

  /** Deletes the app and every grant and token users gave it (their sockets close). */
  async delete(owner: Principal, id: string): Promise<void> {
    const app = await this.prisma.oAuthApp.findFirst({ where: { id, ownerId: owner.accountId } });
    if (!app) throw new DomainError('NOT_FOUND', 'no such app');
    const grants = await this.prisma.oAuthPayload.findMany({ where: { model: 'Grant', clientId: id }, select: { id: true, accountId: true } });
    await this.prisma.$transaction([this.prisma.oAuthApp.delete({ where: { id } }), this.prisma.oAuthPayload.deleteMany({ where: { clientId: id } })]);
    for (const grant of grants) await this.server.revokeGrant(grant.id, grant.accountId);
  }
}

function toInfo(row: { id: string; name: string; redirectUris: string[]; confidential: boolean; createdAt: Date }): OAuthAppInfo {
  return { id: row.id, client_id: row.id, name: row.name, redirectUris: row.redirectUris, confidential: row.confidential, createdAt: row.createdAt };
}
