import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, SessionOnly } from '../common/principal';
import type { Principal } from '../common/principal';
import { OAuthAppsService } from './oauth-apps.service';
import { OAuthGrantsService } from './oauth-grants.service';
import { AuthorizedAppModel, OAuthAppModel, RegisterOAuthAppInput, RegisteredOAuthAppModel } from './oauth.model';

@SessionOnly()
@Resolver()
export class OAuthResolver {
  constructor(
    private readonly apps: OAuthAppsService,
    private readonly grants: OAuthGrantsService,
  ) {}

  @Mutation(() => RegisteredOAuthAppModel, {
    description: "Register an app (an OAuth client): name, exact redirect URIs, public or confidential; a confidential app's secret is returned this once.",
  })
  registerOAuthApp(@Caller() caller: Principal, @Args('input') input: RegisterOAuthAppInput): Promise<RegisteredOAuthAppModel> {
    return this.apps.register(caller, input.name, input.redirectUris, input.confidential ?? false);
  }

  @Query(() => [OAuthAppModel], { description: 'The apps I registered.' })
  oauthApps(@Caller() caller: Principal): Promise<OAuthAppModel[]> {
    return this.apps.list(caller);
  }

  @Mutation(() => Boolean, { description: 'Delete one of my apps: every grant and token users gave it ends.' })
  async deleteOAuthApp(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<boolean> {
    await this.apps.delete(caller, id);
    return true;
  }

  @Query(() => [AuthorizedAppModel], { description: 'The apps I authorized (one entry per grant), with their scopes.' })
  authorizedApps(@Caller() caller: Principal): Promise<AuthorizedAppModel[]> {
    return this.grants.list(caller);
  }

  @Mutation(() => Boolean, { description: "Revoke an app's access: every token of the grant stops at once, its open sockets and streams close." })
  async revokeAuthorizedApp(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<boolean> {
    await this.grants.revoke(caller, id);
    return true;
  }
}
