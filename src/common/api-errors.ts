/**
 * What an operation may answer besides its success, for the OpenAPI
 * document (src/common/openapi.ts). Most errors follow from the route's own
 * metadata (authentication, rate limit, parameters, body: see
 * `errorCodesOf` there); these decorators add what only the handler knows.
 */
import { SetMetadata, applyDecorators } from '@nestjs/common';
import type { ErrorCode } from './domain-error';

export const API_ERRORS = 'scopa:apiErrors';
export const API_ETAG = 'scopa:apiETag';

/** Domain error codes this operation may answer with (beyond those its metadata implies). */
export const ApiErrors = (...codes: ErrorCode[]): MethodDecorator & ClassDecorator => SetMetadata(API_ERRORS, codes);

/** The success response carries `ETag: "<seq>"` (the match's seq, for If-Match). */
export const ApiSeqETag = (): MethodDecorator => applyDecorators(SetMetadata(API_ETAG, true));

/** The engine's refusals of a command on an existing match, common to every match command. */
export const MATCH_COMMAND_ERRORS: readonly ErrorCode[] = ['VERSION_CONFLICT', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_COMMAND'];
