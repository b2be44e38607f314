import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { DatabaseModule } from '../database/database.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { AuthResolver } from './auth.resolver';
import { JWT_ISSUER, jwtSecret } from './auth.config';
import { JwtStrategy } from './jwt.strategy';
import { RevocationBus } from './revocations';
import { SessionsService } from './sessions.service';
import { SocketRegistry } from './socket-registry';
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
  providers: [AccountsService, TokensService, SessionsService, RevocationBus, SocketRegistry, JwtStrategy, WsAuthService, AuthResolver],
  exports: [AccountsService, TokensService, SessionsService, WsAuthService, SocketRegistry, JwtModule],
})
export class AuthModule {}
