/**
 * A boolean argument as REST and GraphQL give it, for class-transformer's
 * @Transform: a query string says "true" or "false", GraphQL gives a
 * boolean. Anything else is left as it is, for @IsBoolean to refuse.
 */
export const queryBoolean = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);
