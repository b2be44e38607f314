import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/config';
import { AuthConfig } from '../config/slices';
import { DatabaseModule } from '../database/database.module';
import { REDIS } from '../realtime/realtime.module';
import type { RedisConnections } from '../realtime/redis';
import { AccessTokenVerifiers } from './access-token-verifiers';
import { AccountsService } from './accounts.service';
import { AccountsStore } from './accounts-store';
import { AccountBans } from './account-bans';
import { AccountRoles } from './roles.service';
import { AuthController } from './auth.controller';
import { BearerAuthGuard } from './auth.guard';
import { AccountResolver, AuthResolver } from './auth.resolver';
import { JWT_ISSUER, jwtSecret } from './auth.config';
import { JwtStrategy } from './jwt.strategy';
import { RateLimitGuard } from '../limits/rate-limit.guard';
import { RateLimits, rateLimitConfig } from '../limits/rate-limits';
import { RevocationBus } from '../connections/revocations';
import { ServerSecret } from './server-secret';
import { SessionsService } from './sessions.service';
import { SocketRegistry } from '../connections/socket-registry';
import { SubscriptionCaps } from '../limits/subscription-caps';
import { HttpStreams } from '../connections/http-streams';
import { TokensService } from './tokens.service';
import { WsAuthService } from './ws-auth.service';

/**
 * Accounts, sessions and API tokens, and the global guards of both
 * transports, in order: authentication (@Public() opts out), then rate
 * limiting (keyed on the caller).
 */
@Module({
  imports: [
    DatabaseModule,
    PassportModule,
    JwtModule.registerAsync({
      inject: [AuthConfig],
      useFactory: (config: AuthConfig) => ({ secret: jwtSecret(config), signOptions: { issuer: JWT_ISSUER, algorithm: 'HS256' } }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    ServerSecret,
    AccessTokenVerifiers,
    AccountsService,
    AccountsStore,
    AccountBans,
    AccountRoles,
    TokensService,
    SessionsService,
    RevocationBus,
    SocketRegistry,
    SubscriptionCaps,
    HttpStreams,
    JwtStrategy,
    WsAuthService,
    AuthResolver,
    AccountResolver,
    // settings read when the app is built (tests build several with their own)
    {
      provide: RateLimits,
      useFactory: (config: AppConfig, redis: RedisConnections | null) =>
        new RateLimits(rateLimitConfig(config), redis?.client ?? null, config.RATE_LIMIT_REDIS_PREFIX),
      inject: [AppConfig, REDIS],
    },
    // authentication first, then rate limiting (keyed on the caller it found)
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [
    ServerSecret,
    AccountsService,
    AccountsStore,
    AccountBans,
    AccountRoles,
    TokensService,
    SessionsService,
    WsAuthService,
    SocketRegistry,
    SubscriptionCaps,
    HttpStreams,
    JwtModule,
    RateLimits,
    AccessTokenVerifiers,
    RevocationBus,
  ],
})
export class AuthModule {}
