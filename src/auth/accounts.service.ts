import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import argon2 from 'argon2';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { SessionsService } from './sessions.service';
import { AuthConfig } from '../config/slices';

export interface Session {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshToken: string;
  account: { id: string; username: string; createdAt: Date };
}

/** A hash of a random password, verified when the username is unknown so both failures take as long. */
let dummyHash: Promise<string> | undefined;
const dummy = (config: AuthConfig): Promise<string> => (dummyHash ??= argon2.hash(randomBytes(16).toString('hex'), hashOptions(config)));

/** argon2id at OWASP's baseline (19 MiB, 2 passes, 1 lane) unless ARGON2_MEMORY_KIB / ARGON2_PASSES say more. */
const hashOptions = (config: Pick<AuthConfig, 'ARGON2_MEMORY_KIB' | 'ARGON2_PASSES'>) =>
  ({
    type: argon2.argon2id,
    memoryCost: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_PASSES,
    parallelism: 1,
  }) as const;

export const USERNAME_PATTERN = /^[a-z0-9_][a-z0-9_.-]{2,31}$/;
/** The password policy, enforced at registration only (login answers any wrong password with 401). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

@Injectable()
export class AccountsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly jwt: JwtService,
    private readonly sessions: SessionsService,
    private readonly config: AuthConfig,
  ) {}

  async register(username: string, password: string): Promise<Session> {
    const name = username.toLowerCase();
    if (!USERNAME_PATTERN.test(name)) throw new DomainError('VALIDATION_FAILED', 'username: 3 to 32 of a-z 0-9 _ . - (not starting with . or -)');
    if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      const message = `password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
      throw new DomainError('VALIDATION_FAILED', message, { errors: [{ field: 'password', messages: [message] }] });
    }
    const passwordHash = await argon2.hash(password, hashOptions(this.config));
    try {
      const account = await this.prisma.account.create({ data: { username: name, passwordHash } });
      return this.session(account);
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002') throw new DomainError('CONFLICT', `the username ${name} is taken`);
      throw err;
    }
  }

  async login(username: string, password: string): Promise<Session> {
    const account = await this.prisma.account.findUnique({ where: { username: String(username).toLowerCase() } });
    const ok = await argon2.verify(account?.passwordHash ?? (await dummy(this.config)), password).catch(() => false);
    if (!account || !ok) throw new DomainError('UNAUTHENTICATED', 'wrong username or password');
    // Only the password's owner learns of the ban (a wrong password is the same 401 for a banned account).
    if (account.bannedAt) throw new DomainError('ACCOUNT_BANNED', 'this account is banned: login is refused', { bannedAt: account.bannedAt.toISOString() });
    return this.session(account);
  }

  async byId(id: string): Promise<{ id: string; username: string; createdAt: Date } | null> {
    return this.prisma.account.findUnique({ where: { id }, select: { id: true, username: true, createdAt: true } });
  }

  /** The account of a username (lower case), or null. */
  async byUsername(username: string): Promise<{ id: string; username: string; createdAt: Date } | null> {
    return this.prisma.account.findUnique({ where: { username }, select: { id: true, username: true, createdAt: true } });
  }

  async exists(username: string): Promise<boolean> {
    return (await this.prisma.account.count({ where: { username: username.toLowerCase() } })) > 0;
  }

  /** A new access token for the session of a refresh token, and the next refresh token (the one given is spent). */
  async refresh(refreshToken: string): Promise<Session> {
    const next = await this.sessions.refresh(refreshToken);
    const account = await this.prisma.account.findUnique({
      where: { id: next.accountId },
      select: { id: true, username: true, createdAt: true, bannedAt: true },
    });
    if (!account) throw new DomainError('UNAUTHENTICATED', 'the account no longer exists');
    // A ban revokes every session with it; this refuses one whose refresh raced the ban.
    if (account.bannedAt) throw new DomainError('UNAUTHENTICATED', 'the account is banned: its sessions have ended');
    return this.sign(account, next.sessionId, next.refreshToken);
  }

  private async session(account: { id: string; username: string; createdAt: Date }): Promise<Session> {
    const session = await this.sessions.start(account.id, Math.max(this.config.JWT_TTL, this.config.SESSION_REFRESH_TTL));
    return this.sign(account, session.id, session.refreshToken);
  }

  private async sign(account: { id: string; username: string; createdAt: Date }, sessionId: string, refreshToken: string): Promise<Session> {
    const expiresIn = this.config.JWT_TTL;
    const accessToken = await this.jwt.signAsync({ sub: account.id, usr: account.username, sid: sessionId }, { expiresIn });
    return { accessToken, tokenType: 'Bearer', expiresIn, refreshToken, account: { id: account.id, username: account.username, createdAt: account.createdAt } };
  }
}
