/**
 * The tournament export (`GET /v1/tournaments/{id}/export`, docs/tournaments.md
 * "The log and its audit"): pure, no database.
 *
 * `scopa-tournament/2` (written today): a header line, then one line per
 * event of the hash-chained log. The header says whose log it is (the
 * tournament, its creator, its status, its players in join order), how many
 * events follow and the hash of the last (the whole chain in one value), and
 * is signed as a match export's header is (src/match-formats/export.ts): `issuer`,
 * `keyId` (the service's Ed25519 key, published at
 * `/.well-known/scopa-keys.json`) and `signature`, the base64url Ed25519
 * signature of the canonical JSON (RFC 8785) of the header without
 * `signature`. So whoever rewrites the log (a player renamed and the chain
 * re-hashed) must also change lastHash, and the signature no longer verifies.
 *
 * `scopa-tournament/1` (before): the event lines alone, no header, unsigned;
 * still read and audited as they were.
 */
import { signHeader, verifyHeaderSignature } from '../match-formats/export';
import type { ExportHeader, ExportKeySet, ExportSigner, SignatureVerdict } from '../match-formats/export';
import { GENESIS_HASH } from '../match-formats/chain';
import { evolveTournament, initialTournamentState, joinTournamentEvent } from './tournament-log';
import type { ChainedTournamentEvent, TournamentState } from './tournament-log';

/** The format written today: a signed header, then the events. */
export const TOURNAMENT_EXPORT_FORMAT = 'scopa-tournament/2';

export interface TournamentExportHeader {
  format: typeof TOURNAMENT_EXPORT_FORMAT;
  tournamentId: string;
  createdBy: string;
  status: string;
  /** The players in join order (withdrawn ones too, once the tournament has started). */
  players: string[];
  /** Number of events that follow. */
  events: number;
  /** Hash of the last event: the whole log in one value. */
  lastHash: string;
  /** The public URL of the service that signed (its keys: `<issuer>/.well-known/scopa-keys.json`). */
  issuer?: string;
  /** The `kid` of the signing key in the issuer's key set. */
  keyId?: string;
  /** base64url Ed25519 signature of the canonical JSON of the header without `signature`. */
  signature?: string;
}

/** What the header says of a log: the fold of its events. */
function headerFields(events: readonly ChainedTournamentEvent[]): Omit<TournamentExportHeader, 'format' | 'issuer' | 'keyId' | 'signature'> {
  let state: TournamentState = initialTournamentState(events[0]?.tournamentId ?? '');
  for (const e of events) state = evolveTournament(state, joinTournamentEvent(e));
  return {
    tournamentId: state.id,
    createdBy: state.createdBy,
    status: state.status,
    players: state.players.map((p) => p.id),
    events: events.length,
    lastHash: events[events.length - 1]?.hash ?? GENESIS_HASH,
  };
}

/** The JSON Lines export of a tournament's log: the header (signed when a signer is given), then the events. */
export function writeTournamentExport(events: readonly ChainedTournamentEvent[], signer?: ExportSigner | null): string {
  const header: TournamentExportHeader = { format: TOURNAMENT_EXPORT_FORMAT, ...headerFields(events) };
  // The match export's signing, over this header's fields (signingInput signs whatever the header holds).
  if (signer) signHeader(header as unknown as ExportHeader, signer);
  return [header, ...events].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Whether a parsed first line is a tournament export's header (any `scopa-tournament/...` format). */
export function isTournamentHeader(line: unknown): line is TournamentExportHeader {
  return (
    typeof line === 'object' &&
    line !== null &&
    typeof (line as { format?: unknown }).format === 'string' &&
    (line as { format: string }).format.startsWith('scopa-tournament/')
  );
}

/** The problems of a header against the log it heads (empty: it says what the log says). */
export function headerProblems(header: TournamentExportHeader, events: readonly ChainedTournamentEvent[]): string[] {
  if (header.format !== TOURNAMENT_EXPORT_FORMAT) return [`header: unknown format ${JSON.stringify(header.format)}`];
  let fields: ReturnType<typeof headerFields>;
  try {
    fields = headerFields(events);
  } catch {
    return []; // the log does not fold: the audit reports where
  }
  const problems: string[] = [];
  for (const key of ['tournamentId', 'createdBy', 'status', 'players', 'events', 'lastHash'] as const) {
    if (JSON.stringify(header[key]) !== JSON.stringify(fields[key]))
      problems.push(`header: ${key} ${JSON.stringify(header[key])} is not the log's ${JSON.stringify(fields[key])}`);
  }
  return problems;
}

/** The header's signature against a key set (the issuer's published keys), as for a match export. */
export function verifyTournamentSignature(header: TournamentExportHeader, keys: ExportKeySet): SignatureVerdict {
  return verifyHeaderSignature(header as unknown as ExportHeader, keys, TOURNAMENT_EXPORT_FORMAT);
}
