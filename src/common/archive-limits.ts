/**
 * How much of a player's archive one request may read, and what it costs.
 * Shared by the archives (which read it) and the rate limits (which charge
 * it), so that REST and GraphQL charge a page the same.
 */

/** JSON pages (REST) and GraphQL `userMatches`: default and largest page. */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

/** Archive rows one rate-limit unit pays for: a page of 100 costs 2 on either transport, the default page of 20 costs 1. */
export const ARCHIVE_ROWS_PER_UNIT = 50;

/**
 * Archive rows one GraphQL document may ask for, over all its aliases: five
 * full pages. Beyond it the document is refused before anything runs; a
 * client that wants more pages follows `next`.
 */
export const ARCHIVE_ROWS_PER_DOCUMENT = 500;

/** Rate-limit units of one page of `rows` archive rows. */
export const archivePageCost = (rows: number): number => Math.max(1, Math.ceil(rows / ARCHIVE_ROWS_PER_UNIT));
