import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SCOPE_DESCRIPTIONS, expandScopes, isScope } from '../common/principal';
import type { Principal, Scope } from '../common/principal';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { OAuthServer } from './oauth-server.service';

export interface AuthorizedAppInfo {
  id: string;
  app: { id: string; name: string };
  scopes: Scope[];
  createdAt: Date;
  expiresAt: Date | null;
}

export interface ConsentRequest {
  uid: string;
  app: { id: string; name: string };
  redirectUri: string;
  /** The redirect URI's host (and port), shown plainly on the consent page; its scheme for a private-use scheme. */
  redirectHost: string;
  username: string;
  scopes: { scope: Scope; description: string }[];
}

const notFound = () => new DomainError('NOT_FOUND', 'no such authorization request (it expired, was answered, or was started in another browser)');

/**
 * What a user authorized: the consent (approve or deny a pending
 * authorization request, in the browser that started it), and the list of
 * authorized apps (grants) with revocation.
 */
@Injectable()
export class OAuthGrantsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly server: OAuthServer,
  ) {}

  async list(owner: Principal): Promise<AuthorizedAppInfo[]> {
    const rows = await this.prisma.oAuthPayload.findMany({
      where: { model: 'Grant', accountId: owner.accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { createdAt: 'asc' },
    });
    const apps = await this.prisma.oAuthApp.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.clientId ?? ''))] } },
      select: { id: true, name: true },
    });
    const names = new Map(apps.map((a) => [a.id, a.name]));
    return rows
      .filter((r) => r.clientId && names.has(r.clientId))
      .map((r) => ({
        id: r.id,
        app: { id: r.clientId!, name: names.get(r.clientId!)! },
        scopes: expandScopes(((r.payload as { openid?: { scope?: string } }).openid?.scope ?? '').split(' ')),
        createdAt: r.createdAt,
        expiresAt: r.expiresAt,
      }));
  }

  /** Revokes one of my grants: every token of it stops at once, on every instance, sockets and streams included. */
  async revoke(owner: Principal, grantId: string): Promise<void> {
    const row = await this.prisma.oAuthPayload.findFirst({ where: { model: 'Grant', id: grantId, accountId: owner.accountId }, select: { id: true } });
    if (!row) throw new DomainError('NOT_FOUND', 'no such authorized app');
    await this.server.revokeGrant(grantId, owner.accountId);
  }

  /** The pending request the consent page shows (the browser's interaction cookie must name it). */
  async consentRequest(req: IncomingMessage, res: ServerResponse, uid: string, caller: Principal): Promise<ConsentRequest> {
    const interaction = await this.interaction(req, res, uid);
    const clientId = String(interaction.params.client_id ?? '');
    const app = await this.prisma.oAuthApp.findUnique({ where: { id: clientId }, select: { id: true, name: true } });
    if (!app) throw notFound();
    const redirectUri = String(interaction.params.redirect_uri ?? '');
    return {
      uid,
      app,
      redirectUri,
      redirectHost: redirectHostOf(redirectUri),
      username: caller.username,
      scopes: requestedScopes(interaction.params.scope).map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
    };
  }

  /**
   * The user's answer: approving grants the requested scopes to the app as the
   * signed-in account (a password session); denying sends the app
   * access_denied. Returns where the browser goes next.
   */
  async decide(req: IncomingMessage, res: ServerResponse, uid: string, caller: Principal, approve: boolean): Promise<{ redirectTo: string }> {
    const interaction = await this.interaction(req, res, uid);
    const oidc = this.server.oidc;
    if (!approve) {
      const redirectTo = await oidc.interactionResult(
        req,
        res,
        { error: 'access_denied', error_description: 'the user denied the request' },
        { mergeWithLastSubmission: false },
      );
      return { redirectTo };
    }
    const clientId = String(interaction.params.client_id ?? '');
    let grant = interaction.grantId ? await oidc.Grant.find(interaction.grantId) : undefined;
    if (!grant || grant.accountId !== caller.accountId || grant.clientId !== clientId) grant = new oidc.Grant({ accountId: caller.accountId, clientId });
    const requested = String(interaction.params.scope ?? '').split(' ');
    const scopes: string[] = requestedScopes(interaction.params.scope);
    if (requested.includes('openid')) scopes.push('openid');
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    const redirectTo = await oidc.interactionResult(
      req,
      res,
      { login: { accountId: caller.accountId, remember: false }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  }

  private async interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    try {
      const interaction = await this.server.oidc.interactionDetails(req, res);
      if (interaction.uid !== uid) throw notFound();
      return interaction;
    } catch {
      throw notFound();
    }
  }
}

/** The fine scopes a request asks for (others, openid included, are not ours to show). */
function requestedScopes(scope: unknown): Scope[] {
  const names = typeof scope === 'string' ? scope.split(' ') : [];
  return expandScopes(names.filter(isScope));
}

/** Where a redirect URI really goes: its host (with the port), whatever user part precedes it; for a private-use scheme, the scheme. */
export function redirectHostOf(uri: string): string {
  const url = URL.parse(uri);
  if (!url) return uri;
  return url.host || url.protocol;
}
