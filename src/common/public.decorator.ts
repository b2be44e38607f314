import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'scopa:isPublic';

/** Opts a route or resolver out of the global authentication guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

export const SKIP_RATE_LIMIT = 'scopa:skipRateLimit';

/** Opts a route out of the global rate-limit guard (health probes and metrics scrapes must not spend a bucket). */
export const SkipRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(SKIP_RATE_LIMIT, true);
