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
/** Set by @ExpectedSeq() (src/common/seq-etag.ts): the handler reads If-Match. */
export const API_IF_MATCH = 'scopa:apiIfMatch';
export const API_ERRORS_OMITTED = 'scopa:apiErrorsOmitted';

/** Domain error codes this operation may answer with (beyond those its metadata implies). */
export const ApiErrors = (...codes: ErrorCode[]): MethodDecorator & ClassDecorator => SetMetadata(API_ERRORS, codes);

/** Codes the route's metadata implies but this operation never answers with (e.g. NOT_FOUND for a path naming no stored thing). */
export const ApiOmitErrors = (...codes: ErrorCode[]): MethodDecorator => SetMetadata(API_ERRORS_OMITTED, codes);

/** The success response carries `ETag: "<seq>"` (the match's seq, for If-Match). */
export const ApiSeqETag = (): MethodDecorator => applyDecorators(SetMetadata(API_ETAG, true));

/** The engine's refusals of a command on an existing match, common to every match command. */
export const MATCH_COMMAND_ERRORS: readonly ErrorCode[] = ['VERSION_CONFLICT', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_COMMAND'];
