import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Public } from '../common/public.decorator';
import { AccountsService } from './accounts.service';
import {
  AccountModel,
  ApiTokenModel,
  CreateTokenInput,
  CreatedApiTokenModel,
  CredentialsInput,
  RefreshSessionInput,
  ROLES_DESCRIPTION,
  SessionModel,
} from './auth.model';
import { AccountRoles } from './roles.service';
import { Caller, SessionOnly, RequireScope, PROFILE_READ } from '../common/principal';
import type { Principal } from '../common/principal';
import { SessionsService } from './sessions.service';
import { TokensService } from './tokens.service';
import { DomainError } from '../common/domain-error';

@Resolver()
export class AuthResolver {
  constructor(
    private readonly accounts: AccountsService,
    private readonly tokens: TokensService,
    private readonly sessions: SessionsService,
  ) {}

  @Public()
  @Mutation(() => SessionModel, { description: 'Create an account; returns a session.' })
  register(@Args('input') input: CredentialsInput): Promise<SessionModel> {
    return this.accounts.register(input.username, input.password);
  }

  @Public()
  @Mutation(() => SessionModel, { description: 'Log in with a password; returns a session.' })
  login(@Args('input') input: CredentialsInput): Promise<SessionModel> {
    return this.accounts.login(input.username, input.password);
  }

  @Public()
  @Mutation(() => SessionModel, {
    description: "Trade a session's refresh token (single use) for a new access token and the next refresh token; a spent one ends the session.",
  })
  refreshSession(@Args('input') input: RefreshSessionInput): Promise<SessionModel> {
    return this.accounts.refresh(input.refreshToken);
  }

  @SessionOnly()
  @Mutation(() => Boolean, { description: 'End this session: its token stops working on every instance and its open sockets close (4403).' })
  async logout(@Caller() caller: Principal): Promise<boolean> {
    await this.sessions.revoke(caller.accountId, caller.sessionId ?? '');
    return true;
  }

  @SessionOnly()
  @Mutation(() => Boolean, { description: 'End every session of my account, this one included (API tokens stay valid).' })
  async logoutEverywhere(@Caller() caller: Principal): Promise<boolean> {
    await this.sessions.revokeAll(caller.accountId);
    return true;
  }

  @RequireScope(PROFILE_READ)
  @Query(() => AccountModel, { description: 'The calling account.' })
  async me(@Caller() caller: Principal): Promise<AccountModel> {
    const account = await this.accounts.byId(caller.accountId);
    if (!account) throw new DomainError('UNAUTHENTICATED', 'the account no longer exists');
    return account;
  }

  @SessionOnly()
  @Query(() => [ApiTokenModel], { description: 'My API tokens (never their secrets).' })
  apiTokens(@Caller() caller: Principal): Promise<ApiTokenModel[]> {
    return this.tokens.list(caller);
  }

  @SessionOnly()
  @Mutation(() => CreatedApiTokenModel, { description: 'Create an API token; its secret is returned this once.' })
  async createApiToken(@Caller() caller: Principal, @Args('input') input: CreateTokenInput): Promise<CreatedApiTokenModel> {
    const { token, info } = await this.tokens.create(caller, input.name, input.scopes);
    return { token, apiToken: info };
  }

  @SessionOnly()
  @Mutation(() => ApiTokenModel, { description: 'Revoke one of my API tokens.' })
  revokeApiToken(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<ApiTokenModel> {
    return this.tokens.revoke(caller, id);
  }
}

/** The fields of an account that other features know: its roles (`me { roles }`). */
@Resolver(() => AccountModel)
export class AccountResolver {
  constructor(private readonly accountRoles: AccountRoles) {}

  @ResolveField('roles', () => [String], { description: ROLES_DESCRIPTION })
  roles(@Parent() account: Pick<AccountModel, 'id'>): Promise<string[]> {
    return this.accountRoles.of(account.id);
  }
}
