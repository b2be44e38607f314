import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, SessionOnly } from '../common/principal';
import type { Principal } from '../common/principal';
import { OAuthAppsService } from './oauth-apps.service';
import { OAuthGrantsService } from './oauth-grants.service';
import { AuthorizedAppModel, OAuthAppModel, RegisterOAuthAppInput, RegisteredOAuthAppModel } from './oauth.model';

/** Apps I registered, and apps I authorized: account management, so a password session only. */
@ApiTags('oauth')
@ApiBearerAuth()
@SessionOnly()
@Controller('v1/oauth')
export class OAuthController {
  constructor(
    private readonly apps: OAuthAppsService,
    private readonly grants: OAuthGrantsService,
  ) {}

  @Post('apps')
  @ApiOperation({
    operationId: 'registerOAuthApp',
    summary: "Register an app (an OAuth client): name, exact redirect URIs, public or confidential; a confidential app's secret is in this response only",
  })
  @ApiCreatedResponse({ type: RegisteredOAuthAppModel })
  register(@Caller() caller: Principal, @Body() body: RegisterOAuthAppInput): Promise<RegisteredOAuthAppModel> {
    return this.apps.register(caller, body.name, body.redirectUris, body.confidential ?? false);
  }

  @Get('apps')
  @ApiOperation({ operationId: 'listOAuthApps', summary: 'The apps I registered' })
  @ApiOkResponse({ type: [OAuthAppModel] })
  listApps(@Caller() caller: Principal): Promise<OAuthAppModel[]> {
    return this.apps.list(caller);
  }

  @Delete('apps/:id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteOAuthApp', summary: 'Delete one of my apps: every grant and token users gave it ends' })
  @ApiNoContentResponse()
  async deleteApp(@Caller() caller: Principal, @Param('id') id: string): Promise<void> {
    await this.apps.delete(caller, id);
  }

  @Get('grants')
  @ApiOperation({ operationId: 'listAuthorizedApps', summary: 'The apps I authorized (one entry per grant), with their scopes' })
  @ApiOkResponse({ type: [AuthorizedAppModel] })
  listGrants(@Caller() caller: Principal): Promise<AuthorizedAppModel[]> {
    return this.grants.list(caller);
  }

  @Delete('grants/:id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeAuthorizedApp',
    summary: "Revoke an app's access: every token of the grant stops at once, its open sockets and streams close",
  })
  @ApiNoContentResponse()
  async revokeGrant(@Caller() caller: Principal, @Param('id') id: string): Promise<void> {
    await this.grants.revoke(caller, id);
  }
}
