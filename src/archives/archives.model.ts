import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { MatchEndReasonEnum } from '../common/match-fields';

@ObjectType('ArchivedPlayer')
export class ArchivedPlayerModel {
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => Int, { description: 'The side (team) of the seat.' }) @ApiProperty() side!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'A username, or bot:<level> for a bot seat; for a match imported from a trusted issuer, username@host of that issuer (never a local account); for an unverified import, the name the export gives (unproven). Plain text.',
  })
  @ApiProperty({ type: String, nullable: true })
  player!: string | null;
}

@ObjectType('ArchivedResult')
export class ArchivedResultModel {
  @Field(() => Int, { nullable: true, description: 'The winning side; null for a draw.' }) @ApiProperty({ type: Number, nullable: true }) winner!:
    number | null;
  @Field(() => MatchEndReasonEnum) @ApiProperty({ enum: MatchEndReasonEnum }) reason!: string;
  @Field(() => [Int], { description: 'Points per side.' }) @ApiProperty({ type: [Number] }) totals!: number[];
}

@ObjectType('ArchivedMatch', { description: 'A finished match in a user archive.' })
export class ArchivedMatchModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => ID, { nullable: true, description: 'The saved ruleset it was created from, if any.' })
  @ApiProperty({ type: String, nullable: true })
  rulesetId!: string | null;
  @Field() @ApiProperty() rated!: boolean;
  @Field({ description: 'Imported from an export (read-only, never rated).' }) @ApiProperty() imported!: boolean;
  @Field(() => String, { nullable: true, description: 'For an imported match: the id of the match it was exported from.' })
  @ApiProperty({ type: String, nullable: true })
  sourceId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'For an imported match: the trusted issuer whose signature it carries (its seats are username@host); null otherwise.',
  })
  @ApiProperty({ type: String, nullable: true })
  issuer!: string | null;
  @Field({
    description:
      'False for an unverified import (unsigned, or signed by an issuer not trusted here): listed only in its importer’s own archive, its names unproven.',
  })
  @ApiProperty()
  verified!: boolean;
  @Field(() => [ArchivedPlayerModel]) @ApiProperty({ type: [ArchivedPlayerModel] }) players!: ArchivedPlayerModel[];
  @Field(() => ArchivedResultModel, { nullable: true }) @ApiProperty({ type: ArchivedResultModel, nullable: true }) result!: ArchivedResultModel | null;
  @Field() @ApiProperty() createdAt!: Date;
  @Field() @ApiProperty() endedAt!: Date;
}

@ObjectType('UserMatchesPage')
export class UserMatchesPageModel {
  @Field(() => [ArchivedMatchModel], { description: 'Newest first (by end time, then id).' })
  @ApiProperty({ type: [ArchivedMatchModel] })
  matches!: ArchivedMatchModel[];
  @Field(() => String, { nullable: true, description: 'The cursor of the next page (`after`); null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  next!: string | null;
}

export class ImportResultModel {
  @ApiProperty({ description: "The id of the imported match here (for this service's own signed export: the match itself)." }) id!: string;
  @ApiProperty({ description: 'The id of the match it was exported from.' }) sourceId!: string;
  @ApiProperty({ description: "False when this log was imported before (the first import is returned), or is this service's own match." }) created!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Who signed it, when the signature verified against this service's key or a trusted issuer's (IMPORT_TRUSTED_ISSUERS); null otherwise.",
  })
  issuer!: string | null;
  @ApiProperty({ description: "False: unsigned, or signed by an issuer not trusted here; stored unverified, listed only in the importer's own archive." })
  verified!: boolean;
}

export class ExportPublicKeyModel {
  @ApiProperty({ enum: ['OKP'] }) kty!: 'OKP';
  @ApiProperty({ enum: ['Ed25519'] }) crv!: 'Ed25519';
  @ApiProperty({ description: 'The public key, base64url (RFC 8037).' }) x!: string;
  @ApiProperty({ description: "The key id (RFC 7638 thumbprint): an export header's keyId." }) kid!: string;
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
  @ApiProperty({ enum: ['EdDSA'] }) alg!: 'EdDSA';
}

export class ExportKeySetModel {
  @ApiProperty({ type: [ExportPublicKeyModel] }) keys!: ExportPublicKeyModel[];
}
