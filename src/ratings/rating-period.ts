/** RATING_PERIOD: how long a player may stay away before RD grows by one no-game step (README, "Ratings"). */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

export const DEFAULT_RATING_PERIOD = 'P7D';

/** An ISO 8601 duration in weeks, days, hours, minutes and seconds (P7D, PT12H), as milliseconds. */
export function parseRatingPeriod(text: string): number {
  const m = DURATION.exec(text.trim());
  const [w, d, h, min, s] = (m?.slice(1) ?? []).map((v) => Number(v ?? 0));
  const ms = ((((w * 7 + d) * 24 + h) * 60 + min) * 60 + s) * 1000;
  if (!m || !(ms > 0)) throw new Error(`RATING_PERIOD: an ISO 8601 duration such as P7D or PT12H, not ${JSON.stringify(text)}`);
  return ms;
}

export function ratingPeriodMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return parseRatingPeriod(env.RATING_PERIOD || DEFAULT_RATING_PERIOD);
}
