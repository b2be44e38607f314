import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './accounts.service';
import { TOKEN_SCOPES } from '../common/principal';
import type { TokenScope } from '../common/principal';

export enum TokenTypeEnum {
  Bearer = 'Bearer',
}
registerEnumType(TokenTypeEnum, { name: 'TokenType', description: 'How to send the access token: Authorization: Bearer <token>.' });

/** GraphQL names cannot hold `:`: each fine scope is spelled with `_` there (`match_play` is `match:play`). */
export enum ScopeEnum {
  read = 'read',
  play = 'play',
  profile_read = 'profile:read',
  match_read = 'match:read',
  match_play = 'match:play',
  challenge_write = 'challenge:write',
  webhook_write = 'webhook:write',
  ruleset_write = 'ruleset:write',
  tournament_write = 'tournament:write',
  social_write = 'social:write',
  team_write = 'team:write',
  push_write = 'push:write',
}
registerEnumType(ScopeEnum, {
  name: 'Scope',
  description:
    'What a token may do (REST spells the fine scopes with `:`, GraphQL with `_`). `read` and `play` are the first, coarse scopes, kept as aliases: read = profile:read + match:read, play = match:play + webhook:write.',
  valuesMap: {
    read: { description: 'Alias of profile_read + match_read.' },
    play: { description: 'Alias of match_play + webhook_write.' },
    profile_read: { description: 'profile:read: who you are, your webhooks and deliveries, your saved rulesets.' },
    match_read: { description: 'match:read: matches, their live events, your inbox, hints, exports.' },
    match_play: { description: 'match:play: create, join, seed, start, play, resign, abort, rematch in your own seats; import a match.' },
    challenge_write: { description: 'challenge:write: seeks and challenges.' },
    webhook_write: { description: 'webhook:write: register and remove webhooks.' },
    ruleset_write: { description: 'ruleset:write: save custom rulesets.' },
    tournament_write: { description: 'tournament:write: create, join, withdraw from, start and cancel tournaments.' },
    social_write: { description: 'social:write: follow, unfollow, block and unblock players; change who may send me direct messages.' },
    team_write: { description: 'team:write: create, join and leave teams; as a leader accept and decline requests, kick, appoint leaders.' },
    push_write: { description: "push:write: register and remove the account's Web Push subscriptions and their kinds." },
  },
});

@InputType()
export class CredentialsInput {
  @Field({ description: '3 to 32 of a-z 0-9 _ . - ; case-insensitive.' })
  @ApiProperty({ example: 'alice', pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{2,31}$' })
  @IsString()
  @Matches(/^[A-Za-z0-9_][A-Za-z0-9_.-]{2,31}$/, { message: '3 to 32 of a-z 0-9 _ . - (not starting with . or -)' })
  username!: string;

  // No length here: login answers any wrong password with 401, whatever its length (a 400 would tell the policy).
  // Registration enforces it (RegisterInput over REST, AccountsService.register for both transports).
  @Field({
    description: `At registration ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; login takes any string (a wrong one is UNAUTHENTICATED).`,
  })
  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  password!: string;
}

/** A new account's credentials (REST): the password policy is part of the request's schema. */
@ApiSchema({ description: "A new account's username and password." })
export class RegisterInput extends CredentialsInput {
  @ApiProperty({
    example: 'correct horse battery staple',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: `The password (${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters).`,
  })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  declare password: string;
}

@ObjectType('Account')
export class AccountModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() username!: string;
  @Field() @ApiProperty() createdAt!: Date;
}

/** What an account may do beyond playing: `moderator` (docs/social.md "Reports and moderation"). */
export const ROLES_DESCRIPTION =
  'The roles of the account: ["moderator"] for a moderator (granted by an operator with `npm run admin -- grant moderator <username>`, or named by MODERATORS), [] for a player. Read at every request: a grant or a revoke shows at once.';

/** The calling account (GET /v1/me): the account and its roles. */
@ApiSchema({ description: 'The calling account, with its roles.' })
export class MeModel extends AccountModel {
  @ApiProperty({ type: [String], example: ['moderator'], description: ROLES_DESCRIPTION })
  roles!: string[];
}

@ObjectType('Session')
export class SessionModel {
  @Field({ description: 'Bearer token (a JWT) for the Authorization header and the graphql-ws connection_init payload.' })
  @ApiProperty()
  accessToken!: string;
  @Field(() => TokenTypeEnum) @ApiProperty({ enum: TokenTypeEnum }) tokenType!: string;
  @Field(() => Int, { description: 'Seconds until the token expires.' }) @ApiProperty() expiresIn!: number;
  @Field({
    description:
      'Single-use refresh token (scopa_rt_...): trade it at refreshSession / POST /v1/auth/refresh for a new access token and the next refresh token before the session ends (SESSION_REFRESH_TTL). Presenting a spent one ends the session.',
  })
  @ApiProperty()
  refreshToken!: string;
  @Field(() => AccountModel) @ApiProperty({ type: AccountModel }) account!: AccountModel;
}

@InputType()
export class RefreshSessionInput {
  @Field({ description: 'The refresh token of the last login or refresh.' })
  @ApiProperty({ example: 'scopa_rt_...' })
  @IsString()
  @Length(1, 200)
  refreshToken!: string;
}

@InputType()
export class CreateTokenInput {
  @Field() @ApiProperty({ example: 'my bot' }) @IsString() @Length(1, 100) name!: string;

  @Field(() => [ScopeEnum])
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, example: ['match:read', 'match:play'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TOKEN_SCOPES.length)
  @IsIn(TOKEN_SCOPES, { each: true })
  scopes!: TokenScope[];
}

@ObjectType('ApiToken')
export class ApiTokenModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() name!: string;
  @Field(() => [ScopeEnum]) @ApiProperty({ enum: TOKEN_SCOPES, isArray: true }) scopes!: TokenScope[];
  @Field() @ApiProperty() createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: Date, nullable: true }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: Date, nullable: true }) revokedAt!: Date | null;
}

@ObjectType('CreatedApiToken')
export class CreatedApiTokenModel {
  @Field({ description: 'The secret: shown this once, stored only as a hash.' }) @ApiProperty() token!: string;
  @Field(() => ApiTokenModel) @ApiProperty({ type: ApiTokenModel }) apiToken!: ApiTokenModel;
}
