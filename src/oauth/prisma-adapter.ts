import { errors } from 'oidc-provider';
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { PrismaService } from '../database/prisma.service';
import { clientSecretOf } from './oauth.config';

/** Tokens whose second use is an attack: a concurrent second use is refused here, and ends the grant. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken']);

export interface AdapterHooks {
  /** A grant's tokens were revoked by the store itself (a single-use token spent twice at once). */
  grantRevoked(grantId: string, accountId: string | null): Promise<void>;
}

const epoch = (d: Date): number => Math.floor(d.getTime() / 1000);

/** An app (a row of oauth_apps) as oidc-provider's client metadata (`secret`: the server secret its client secret derives from). */
export function clientMetadata(
  app: { id: string; name: string; redirectUris: string[]; confidential: boolean; secretSalt: string | null },
  secret: string,
): ClientMetadata {
  return {
    client_id: app.id,
    client_name: app.name,
    redirect_uris: app.redirectUris,
    application_type: isNativeApp(app.redirectUris) ? 'native' : 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(app.confidential && app.secretSalt
      ? { token_endpoint_auth_method: 'client_secret_basic', client_secret: clientSecretOf(secret, app.id, app.secretSalt) }
      : { token_endpoint_auth_method: 'none' }),
  };
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A native app (RFC 8252): every redirect is a loopback http address or a
 * private-use scheme. Its loopback redirects match with any port.
 */
export function isNativeApp(redirectUris: string[]): boolean {
  return (
    redirectUris.length > 0 &&
    redirectUris.every((u) => {
      const url = URL.parse(u);
      if (!url) return false;
      if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
      return url.protocol !== 'https:';
    })
  );
}

/**
 * oidc-provider's storage on our database: one oauth_payloads row per stored
 * model (grants, codes, tokens, interactions, its sessions); apps come from
 * oauth_apps. An expired row is never returned (and is swept by the service).
 */
export class PrismaAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly prisma: PrismaService,
    private readonly hooks: AdapterHooks,
    /** The server secret (ServerSecret), for the apps' client secrets. */
    private readonly secret: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (this.model === 'Client') throw new Error('apps are registered through /v1/oauth/apps');
    const data = {
      payload: payload as object,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      accountId: payload.accountId ?? null,
      clientId: payload.clientId ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.prisma.oAuthPayload.upsert({ where: { model_id: { model: this.model, id } }, create: { model: this.model, id, ...data }, update: data });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (typeof id !== 'string' || id.length > 512) return undefined;
    if (this.model === 'Client') {
      const app = await this.prisma.oAuthApp.findUnique({ where: { id } });
      return app ? clientMetadata(app, this.secret) : undefined;
    }
    const row = await this.prisma.oAuthPayload.findUnique({ where: { model_id: { model: this.model, id } } });
    return row ? this.payloadOf(row) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.prisma.oAuthPayload.findFirst({ where: { model: this.model, uid } });
    return row ? this.payloadOf(row) : undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined; // no device flow
  }

  async consume(id: string): Promise<void> {
    const { count } = await this.prisma.oAuthPayload.updateMany({ where: { model: this.model, id, consumedAt: null }, data: { consumedAt: new Date() } });
    if (count === 0 && SINGLE_USE.has(this.model)) {
      // Another request spent it between oidc-provider's check and here: treat it as the reuse it is.
      const row = await this.prisma.oAuthPayload.findUnique({ where: { model_id: { model: this.model, id } } });
      if (row?.grantId) await this.hooks.grantRevoked(row.grantId, row.accountId);
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
    }
  }

  async destroy(id: string): Promise<void> {
    await this.prisma.oAuthPayload.deleteMany({ where: { model: this.model, id } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.prisma.oAuthPayload.deleteMany({ where: { model: this.model, grantId } });
  }

  private payloadOf(row: { payload: unknown; expiresAt: Date | null; consumedAt: Date | null }): AdapterPayload | undefined {
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
    const payload = { ...(row.payload as AdapterPayload) };
    if (row.consumedAt) payload.consumed = epoch(row.consumedAt);
    return payload;
  }
}
