import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'scopa:isPublic';

/** Opts a route or resolver out of the global authentication guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
