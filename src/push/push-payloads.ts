/**
 * What a push carries (the `push` event's data in the service worker, web/public/sw.js): the kind, the ids of what it
 * is about, whose turn or what happened as data (no words: the client writes them in its language), and the client's
 * URL to open. Made from the public facts a 'push-delivery' job holds (src/push/push-outbox.ts, and the append's
 * trigger for yourTurn): never a hand, a stock, a seed or anything else a seat does not show to everyone.
 */
import type { PushKind } from './push-kinds';

/** The facts of each kind, as the job holds them (JSON). */
export interface PushFacts {
  yourTurn: { matchId: string; seq: number; seat: number | null; deadline: string | null };
  clockLow: { matchId: string; seq: number; seat: number; deadline: string };
  challengeReceived: { challengeId: string; from: string; preset: string | null; rated: boolean };
  tournamentRoundPaired: { tournamentId: string; round: number; matchId: string | null; seat: number | null };
  analysisReady: { matchId: string; analyzer: string };
}

/** The push's JSON (version 1). */
export interface PushPayload {
  /** The payload's format (1). */
  v: 1;
  kind: PushKind;
  /** The match it is about, where there is one. */
  matchId: string | null;
  /** The kind's own facts (see PushFacts). */
  data: Record<string, unknown>;
  /** The web client's route to open, relative to the service's origin (`/#/match/<id>`). */
  url: string;
  /** When the service made it (ISO time). */
  sentAt: string;
}

/** The client's route for each kind: the match where there is one. */
function urlOf(kind: PushKind, facts: Record<string, unknown>): string {
  const id = (key: string): string => encodeURIComponent(String(facts[key]));
  switch (kind) {
    case 'yourTurn':
    case 'clockLow':
      return `/#/match/${id('matchId')}`;
    case 'analysisReady':
      return `/#/replay/${id('matchId')}`;
    case 'challengeReceived':
      return '/#/lobby';
    case 'tournamentRoundPaired':
      return facts.matchId ? `/#/match/${id('matchId')}` : `/#/tournament/${id('tournamentId')}`;
  }
}

/** Only the fields each kind declares (a job written by an older version may hold more): nothing else reaches a push service. */
const FIELDS: { [K in PushKind]: readonly (keyof PushFacts[K])[] } = {
  yourTurn: ['matchId', 'seq', 'seat', 'deadline'],
  clockLow: ['matchId', 'seq', 'seat', 'deadline'],
  challengeReceived: ['challengeId', 'from', 'preset', 'rated'],
  tournamentRoundPaired: ['tournamentId', 'round', 'matchId', 'seat'],
  analysisReady: ['matchId', 'analyzer'],
};

export function pushPayload(kind: PushKind, facts: Record<string, unknown>, now = new Date()): PushPayload {
  const data: Record<string, unknown> = {};
  for (const field of FIELDS[kind] as readonly string[]) data[field] = facts[field] ?? null;
  const matchId = typeof data.matchId === 'string' ? data.matchId : null;
  return { v: 1, kind, matchId, data, url: urlOf(kind, data), sentAt: now.toISOString() };
}

/**
 * How long the push service may hold it for an offline browser (the TTL header, seconds): until the turn's deadline
 * where there is one (after it the news is stale), else a day.
 */
export function pushTtlSeconds(payload: PushPayload, now = Date.now()): number {
  const deadline = typeof payload.data.deadline === 'string' ? Date.parse(payload.data.deadline) : NaN;
  const day = 24 * 3600;
  if (Number.isNaN(deadline)) return day;
  return Math.max(0, Math.min(day, Math.floor((deadline - now) / 1000)));
}

/** A later push about the same match replaces one the push service still holds (the Topic header: at most 32 URL-safe characters). */
export function pushTopic(payload: PushPayload): string | undefined {
  return payload.matchId ? payload.matchId.replace(/-/g, '').slice(0, 32) : undefined;
}
