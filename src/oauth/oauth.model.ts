import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ScopeEnum } from '../auth/auth.model';
import { TOKEN_SCOPES } from '../common/principal';
import type { Scope } from '../common/principal';

@ObjectType('OAuthApp', { description: 'A third-party app I registered: its id is the OAuth client_id.' })
export class OAuthAppModel {
  @Field(() => ID, { description: 'The client_id.' }) @ApiProperty({ description: 'The client_id.' }) id!: string;
  // REST only: GraphQL names are camelCase, and id is the client_id there.
  @ApiProperty({ description: "The client_id, under RFC 7591's name: the same as id." }) client_id!: string;
  @Field() @ApiProperty() name!: string;
  @Field(() => [String], { description: 'Exact redirect URIs; a loopback one (http://127.0.0.1/...) matches any port for a native app.' })
  @ApiProperty({ type: [String] })
  redirectUris!: string[];
  @Field({
    description: 'A confidential app authenticates with its client secret at the token endpoint; a public one (browser, native) with nothing but PKCE.',
  })
  @ApiProperty()
  confidential!: boolean;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

@ObjectType('RegisteredOAuthApp', { description: 'A new app, with its client secret if confidential: shown this once.' })
export class RegisteredOAuthAppModel {
  @Field(() => OAuthAppModel) @ApiProperty({ type: OAuthAppModel }) app!: OAuthAppModel;
  @Field(() => String, { nullable: true, description: 'The client secret (client_secret_basic), confidential apps only. Shown once.' })
  @ApiProperty({ type: String, nullable: true })
  clientSecret!: string | null;
}

@InputType('RegisterOAuthAppInput')
export class RegisterOAuthAppInput {
  @Field() @ApiProperty({ example: 'My Scopa bot' }) @IsString() @Length(1, 100) name!: string;

  @Field(() => [String], {
    description:
      '1 to 10 absolute URIs without fragment or user part: https, http on a loopback address (any port at use), or a private-use scheme (com.example.app:/cb).',
  })
  @ApiProperty({ type: [String], example: ['http://127.0.0.1/callback'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirectUris!: string[];

  @Field({ nullable: true, description: 'Default false: a public client (PKCE only).' })
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  confidential?: boolean;
}

@ObjectType('AuthorizedAppRef')
export class AuthorizedAppRefModel {
  @Field(() => ID, { description: 'The client_id.' }) @ApiProperty() id!: string;
  @Field() @ApiProperty() name!: string;
}

@ObjectType('AuthorizedApp', { description: 'An app I authorized (a grant): revoking it ends every token it holds, open sockets and streams included.' })
export class AuthorizedAppModel {
  @Field(() => ID, { description: 'The grant id.' }) @ApiProperty({ description: 'The grant id.' }) id!: string;
  @Field(() => AuthorizedAppRefModel) @ApiProperty({ type: AuthorizedAppRefModel }) app!: AuthorizedAppRefModel;
  // The one Scope enum of both contracts (aliases included); a grant holds fine scopes only.
  @Field(() => [ScopeEnum], { description: 'The fine scopes granted (never an alias).' })
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, description: 'The fine scopes granted (never an alias).' })
  scopes!: Scope[];
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: Date | null;
}

/** The consent page's view of a pending authorization request. */
export class ConsentRequestModel {
  @ApiProperty() uid!: string;
  @ApiProperty({ type: AuthorizedAppRefModel }) app!: AuthorizedAppRefModel;
  @ApiProperty() redirectUri!: string;
  @ApiProperty({ description: "Where the browser goes back to, plainly: the redirect URI's host (with its port), or its scheme for a private-use scheme." })
  redirectHost!: string;
  @ApiProperty({ description: 'The account that would grant the access.' }) username!: string;
  @ApiProperty({ isArray: true }) scopes!: { scope: Scope; description: string }[];
}

export class ConsentDecisionInput {
  @ApiProperty() @IsBoolean() approve!: boolean;
}

export class ConsentOutcomeModel {
  @ApiProperty({ description: 'Where the browser goes next (the authorization endpoint, which redirects to the app).' }) redirectTo!: string;
}
