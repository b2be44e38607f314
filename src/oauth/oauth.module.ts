import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatabaseModule } from '../database/database.module';
import { ConsentController } from './consent.controller';
import { OAuthAppsService } from './oauth-apps.service';
import { OAuthController } from './oauth.controller';
import { OAuthGrantsService } from './oauth-grants.service';
import { OAuthResolver } from './oauth.resolver';
import { OAuthServer } from './oauth-server.service';

/** The OAuth 2.0 authorization server (oidc-provider), app registration, consent and authorized apps. */
@Module({
  imports: [DatabaseModule, AuthModule],
  controllers: [OAuthController, ConsentController],
  providers: [OAuthServer, OAuthAppsService, OAuthGrantsService, OAuthResolver],
})
export class OAuthModule {}
