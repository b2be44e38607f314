/**
 * The kinds of Web Push notification a subscription may ask for (issue 48; docs/notifications.md), each switched on
 * or off per subscription by the player. The names are public (REST, GraphQL's `PushKind`, the SDK, the payloads):
 * never rename one.
 */
export const PUSH_KINDS = ['yourTurn', 'challengeReceived', 'tournamentRoundPaired', 'clockLow', 'analysisReady'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export function isPushKind(value: unknown): value is PushKind {
  return typeof value === 'string' && (PUSH_KINDS as readonly string[]).includes(value);
}
