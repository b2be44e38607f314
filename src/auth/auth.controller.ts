import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../common/domain-error';
import { Public } from '../common/public.decorator';
import { AccountsService } from './accounts.service';
import {
  ApiTokenModel,
  CreateTokenInput,
  CreatedApiTokenModel,
  CredentialsInput,
  MeModel,
  RefreshSessionInput,
  RegisterInput,
  SessionModel,
} from './auth.model';
import { Caller, SessionOnly, RequireScope, PROFILE_READ } from '../common/principal';
import type { Principal } from '../common/principal';
import { AccountRoles } from './roles.service';
import { SessionsService } from './sessions.service';
import { TokensService } from './tokens.service';
import { ApiErrors } from '../common/api-errors';

@ApiTags('auth')
@Controller('v1')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly tokens: TokensService,
    private readonly sessions: SessionsService,
    private readonly roles: AccountRoles,
  ) {}

  @Public()
  @Post('auth/register')
  @ApiErrors('CONFLICT')
  @ApiOperation({ operationId: 'register', summary: 'Create an account; returns a session' })
  @ApiCreatedResponse({ type: SessionModel })
  register(@Body() body: RegisterInput): Promise<SessionModel> {
    return this.accounts.register(body.username, body.password);
  }

  @Public()
  @Post('auth/login')
  @HttpCode(200)
  @ApiErrors('UNAUTHENTICATED', 'ACCOUNT_BANNED')
  @ApiOperation({ operationId: 'login', summary: 'Log in with a password; returns a session (ACCOUNT_BANNED: a moderator banned the account)' })
  @ApiOkResponse({ type: SessionModel })
  login(@Body() body: CredentialsInput): Promise<SessionModel> {
    return this.accounts.login(body.username, body.password);
  }

  @Public()
  @Post('auth/refresh')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'refreshSession',
    summary: "Trade a session's refresh token (single use) for a new access token and the next refresh token; a spent one ends the session",
  })
  @ApiOkResponse({ type: SessionModel })
  @ApiErrors('UNAUTHENTICATED')
  refresh(@Body() body: RefreshSessionInput): Promise<SessionModel> {
    return this.accounts.refresh(body.refreshToken);
  }

  @SessionOnly()
  @Post('auth/logout')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'logout', summary: 'End this session: its token stops working on every instance and its open sockets close (4403)' })
  @ApiNoContentResponse({ description: 'The session has ended' })
  async logout(@Caller() caller: Principal): Promise<void> {
    await this.sessions.revoke(caller.accountId, caller.sessionId ?? '');
  }

  @SessionOnly()
  @Post('auth/logout-all')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'logoutEverywhere', summary: 'End every session of my account, this one included (API tokens stay valid)' })
  @ApiNoContentResponse({ description: 'Every session of the account has ended' })
  async logoutEverywhere(@Caller() caller: Principal): Promise<void> {
    await this.sessions.revokeAll(caller.accountId);
  }

  @RequireScope(PROFILE_READ)
  @Get('me')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'me', summary: 'The calling account, with its roles (["moderator"] for a moderator, [] for a player)' })
  @ApiOkResponse({ type: MeModel })
  async me(@Caller() caller: Principal): Promise<MeModel> {
    const [account, roles] = await Promise.all([this.accounts.byId(caller.accountId), this.roles.of(caller.accountId)]);
    if (!account) throw new DomainError('UNAUTHENTICATED', 'the account no longer exists');
    return { ...account, roles };
  }

  @SessionOnly()
  @Get('tokens')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'listApiTokens', summary: 'My API tokens (never their secrets)' })
  @ApiOkResponse({ type: [ApiTokenModel] })
  list(@Caller() caller: Principal): Promise<ApiTokenModel[]> {
    return this.tokens.list(caller);
  }

  @SessionOnly()
  @Post('tokens')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'createApiToken', summary: 'Create an API token; its secret is returned this once' })
  @ApiCreatedResponse({ type: CreatedApiTokenModel })
  async create(@Caller() caller: Principal, @Body() body: CreateTokenInput): Promise<CreatedApiTokenModel> {
    const { token, info } = await this.tokens.create(caller, body.name, body.scopes);
    return { token, apiToken: info };
  }

  @SessionOnly()
  @Delete('tokens/:id')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'revokeApiToken', summary: 'Revoke one of my API tokens' })
  @ApiOkResponse({ type: ApiTokenModel })
  revoke(
    @Caller() caller: Principal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new DomainError('NOT_FOUND', 'no such token') })) id: string,
  ): Promise<ApiTokenModel> {
    return this.tokens.revoke(caller, id);
  }
}
