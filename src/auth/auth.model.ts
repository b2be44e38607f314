import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { SCOPES } from './principal';
import type { Scope } from './principal';

export enum TokenTypeEnum {
  Bearer = 'Bearer',
}
registerEnumType(TokenTypeEnum, { name: 'TokenType', description: 'How to send the access token: Authorization: Bearer <token>.' });


export enum ScopeEnum {
  read = 'read',
  play = 'play',
}
registerEnumType(ScopeEnum, { name: 'Scope', description: 'What an API token may do: read matches, or play in its owner\'s seats.' });

@InputType()
export class CredentialsInput {
  @Field({ description: '3 to 32 of a-z 0-9 _ . - ; case-insensitive.' })
  @ApiProperty({ example: 'alice', pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{2,31}$' })
  @IsString()
  @Matches(/^[A-Za-z0-9_][A-Za-z0-9_.-]{2,31}$/, { message: 'username: 3 to 32 of a-z 0-9 _ . - (not starting with . or -)' })
  username!: string;

  @Field()
  @ApiProperty({ example: 'correct horse battery staple', minLength: 8, maxLength: 200 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}

@ObjectType('Account')
export class AccountModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() username!: string;
  @Field() @ApiProperty() createdAt!: Date;
}

@ObjectType('Session')
export class SessionModel {
  @Field({ description: 'Bearer token (a JWT) for the Authorization header and the graphql-ws connection_init payload.' })
  @ApiProperty()
  accessToken!: string;
  @Field(() => TokenTypeEnum) @ApiProperty({ enum: TokenTypeEnum }) tokenType!: string;
  @Field(() => Int, { description: 'Seconds until the token expires.' }) @ApiProperty() expiresIn!: number;
  @Field(() => AccountModel) @ApiProperty({ type: AccountModel }) account!: AccountModel;
}

@InputType()
export class CreateTokenInput {
  @Field() @ApiProperty({ example: 'my bot' }) @IsString() @Length(1, 100) name!: string;

  @Field(() => [ScopeEnum])
  @ApiProperty({ enum: SCOPES, isArray: true, example: ['read', 'play'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes!: Scope[];
}

@ObjectType('ApiToken')
export class ApiTokenModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() name!: string;
  @Field(() => [ScopeEnum]) @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
  @Field() @ApiProperty() createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: Date, nullable: true }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: Date, nullable: true }) revokedAt!: Date | null;
}

@ObjectType('CreatedApiToken')
export class CreatedApiTokenModel {
  @Field({ description: 'The secret: shown this once, stored only as a hash.' }) @ApiProperty() token!: string;
  @Field(() => ApiTokenModel) @ApiProperty({ type: ApiTokenModel }) apiToken!: ApiTokenModel;
}
