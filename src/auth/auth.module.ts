import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { DatabaseModule } from '../database/database.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { AuthResolver } from './auth.resolver';
import { JWT_ISSUER, jwtSecret } from './auth.config';
import { JwtStrategy } from './jwt.strategy';
import { RateLimits, rateLimitConfig } from './rate-limits';
import { TokensService } from './tokens.service';
import { WsAuthService } from './ws-auth.service';

@Module({
  imports: [
    DatabaseModule,
    PassportModule,
    JwtModule.registerAsync({
      useFactory: () => ({ secret: jwtSecret(), signOptions: { issuer: JWT_ISSUER, algorithm: 'HS256' } }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AccountsService,
    TokensService,
    JwtStrategy,
    WsAuthService,
    AuthResolver,
    // settings read when the app is built (tests build several with their own)
    { provide: RateLimits, useFactory: () => new RateLimits(rateLimitConfig(), process.env.REDIS_URL, process.env.RATE_LIMIT_REDIS_PREFIX) },
  ],
  exports: [AccountsService, TokensService, WsAuthService, JwtModule, RateLimits],
})
export class AuthModule {}
