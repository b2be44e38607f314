/**
 * The arguments of a cursor page (GraphQL) and its query (REST): `first`, the
 * page size, and `after`, the `nextCursor` of the page before. One class per
 * list, from this mixin, so that every list checks them the same way.
 */
import { ArgsType, Field, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export interface CursorPageOptions {
  /** The page size when `first` is not given. */
  defaultSize: number;
  /** The largest `first` (default 100). */
  maxSize?: number;
  /** The longest cursor the list ever answers (a longer one is refused before any read). */
  cursorMaxLength: number;
  /** What a page holds, for `first`'s description (default "Page size"). */
  sizeLabel?: string;
}

export function CursorPageArgs({ defaultSize, maxSize = 100, cursorMaxLength, sizeLabel = 'Page size' }: CursorPageOptions) {
  @ArgsType()
  abstract class CursorPage {
    @Field(() => Int, { nullable: true, description: `${sizeLabel}, 1 to ${maxSize} (default ${defaultSize}).` })
    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: maxSize, default: defaultSize })
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    @Max(maxSize)
    first?: number;

    @Field(() => String, { nullable: true, description: 'The nextCursor of the page before.' })
    @ApiPropertyOptional({ description: 'The nextCursor of the page before.' })
    @IsOptional()
    @IsString()
    @MaxLength(cursorMaxLength)
    after?: string;
  }
  return CursorPage;
}
