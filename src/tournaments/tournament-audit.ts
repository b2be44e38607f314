/**
 * Offline audit of a tournament export (`GET /v1/tournaments/{id}/export`,
 * `npm run audit -- tournament.jsonl [match exports...]`): pure, no database.
 *
 * 1. the hash chain (tournament-log.ts): every line's prevHash is the hash
 *    before it, and its hash is recomputed;
 * 2. every pairing: at each RoundPaired, the pairing is recomputed from the
 *    log before it (nextPairing, by the Swiss pairing version its
 *    TournamentStarted names: none is version 1) and must equal the one
 *    logged, tables, seats, bye and the tables decided without play;
 * 3. the seeds (duplicate events): each RoundEnded's seed against the
 *    commitment of its RoundPaired, TournamentEnded's master seed against the
 *    commitment of TournamentCreated, and each round seed as derived from it;
 *    with the exports of the round's matches, each table's revealed server
 *    seed equals the table seed derived from the round seed and the players'
 *    client seeds (docs/fairness.md "Duplicate tournaments"), so every table
 *    was dealt the same cards; and each recorded result equals its match's end;
 * 4. the standings, recomputed from the log (returned for comparison);
 * 5. with the match exports, every table's players and seats are its match's
 *    (the export header's seats, in order): a player renamed throughout the
 *    log, the chain re-hashed, does not pass;
 * 6. a `scopa-tournament/2` export's header (./tournament-export.ts) against
 *    the log: the tournament, creator, status, players, event count and last
 *    hash. Its signature needs the issuer's keys: verifyTournamentSignature
 *    (`npm run audit -- --keys`). A headerless export (`scopa-tournament/1`)
 *    is audited as before.
 */
import { createHash } from 'node:crypto';
import { GENESIS_HASH } from '../match-formats/chain';
import { roundSeed, tableSeed } from './duplicate-seed';
import {
  evolveTournament,
  initialTournamentState,
  joinTournamentEvent,
  nextPairing,
  standingsOf,
  SUPPORTED_PAIRING_VERSIONS,
  tournamentEventHash,
} from './tournament-log';
import type { ChainedTournamentEvent, TournamentEvent, TournamentState } from './tournament-log';
import type { StandingRow } from './standings';
import { headerProblems, isTournamentHeader } from './tournament-export';
import type { TournamentExportHeader } from './tournament-export';

export interface TournamentAudit {
  tournamentId: string | null;
  events: number;
  rounds: number;
  /** Duplicate tables whose revealed seed was checked against the round seed. */
  seedsChecked: number;
  problems: string[];
  standings: StandingRow[];
  status: string | null;
  /** The export's header (`scopa-tournament/2`); null for a headerless export. */
  header: TournamentExportHeader | null;
}

const sha256 = (hex: string): string => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

/** A match export (JSON Lines): its MatchEnded, if any. */
function matchEnd(jsonl: string): { seed: string; winner: number | null; totals: number[] } | null {
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as { type?: string; payload?: { seed: string; winner: number | null; totals: number[] } };
    if (e.type === 'MatchEnded' && e.payload) return e.payload;
  }
  return null;
}

/** A match export's seats, in order (its header's players); null when it has none. */
function matchSeats(jsonl: string): (string | null)[] | null {
  const first = jsonl.trimStart().split('\n', 1)[0];
  try {
    const header = JSON.parse(first) as { seats?: { player?: string | null }[] };
    return Array.isArray(header.seats) ? header.seats.map((s) => s?.player ?? null) : null;
  } catch {
    return null;
  }
}

export function auditTournament(jsonl: string, matchExports: ReadonlyMap<string, string> = new Map()): TournamentAudit {
  const problems: string[] = [];
  const parsed = jsonl
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);
  const header = isTournamentHeader(parsed[0]) ? parsed[0] : null;
  const lines = (header ? parsed.slice(1) : parsed) as ChainedTournamentEvent[];
  if (header) problems.push(...headerProblems(header, lines));
  const id = lines[0]?.tournamentId ?? null;
  let state: TournamentState = initialTournamentState(id ?? '');
  let prev = GENESIS_HASH;
  let seedsChecked = 0;
  const roundSeeds = new Map<number, string>();
  for (const [i, line] of lines.entries()) {
    const at = `seq ${line.seq} (${line.type})`;
    if (line.seq !== i + 1) problems.push(`${at}: expected seq ${i + 1}`);
    if (line.prevHash !== prev) problems.push(`${at}: prevHash does not link to the event before`);
    if (tournamentEventHash(line.prevHash, line) !== line.hash) problems.push(`${at}: hash does not match the event`);
    prev = line.hash;
    const event = joinTournamentEvent(line) as TournamentEvent;
    if (event.type === 'TournamentStarted' && !SUPPORTED_PAIRING_VERSIONS.includes(event.pairingVersion ?? 1)) {
      problems.push(`${at}: Swiss pairing version ${event.pairingVersion} is not implemented by this audit`);
      break;
    }
    if (event.type === 'RoundPaired') {
      const expected = nextPairing(state);
      if ('done' in expected) problems.push(`${at}: the log before it pairs no round (${expected.done})`);
      else {
        const logged = { round: event.round, tables: event.tables.map((t) => t.players), bye: event.bye };
        const recomputed = { round: expected.round, tables: expected.pairing.tables, bye: expected.pairing.bye };
        if (JSON.stringify(logged) !== JSON.stringify(recomputed))
          problems.push(`${at}: pairing ${JSON.stringify(logged)} is not the one the log implies, ${JSON.stringify(recomputed)}`);
        for (const t of event.tables) {
          const exported = t.matchId ? matchExports.get(t.matchId) : undefined;
          if (!exported) continue;
          const seats = matchSeats(exported);
          if (JSON.stringify(seats) !== JSON.stringify(t.players))
            problems.push(`${at}: table ${t.table}'s players ${JSON.stringify(t.players)} are not the seats of match ${t.matchId}, ${JSON.stringify(seats)}`);
        }
        const noMatch = event.tables.filter((t) => t.matchId === null).map((t) => t.table);
        if (JSON.stringify(noMatch) !== JSON.stringify(expected.forfeits.map((f) => f.table)))
          problems.push(`${at}: tables decided without play ${JSON.stringify(noMatch)} are not the withdrawn players' tables`);
      }
    }
    if (event.type === 'RoundEnded' && event.seed !== null) {
      const paired = state.paired.find((r) => r.round === event.round);
      if (!paired || paired.seedCommitment !== sha256(event.seed)) problems.push(`${at}: the round seed does not match the commitment of its RoundPaired`);
      roundSeeds.set(event.round, event.seed);
      if (paired) {
        const seedOf = new Map(state.players.map((p) => [p.id, p.clientSeed]));
        const played = paired.tables.filter((t) => t.matchId !== null);
        const expectedSeed = tableSeed(
          event.seed,
          played.flatMap((t) => t.players).map((p) => seedOf.get(p) ?? null),
        );
        for (const t of played) {
          const exported = matchExports.get(t.matchId!);
          if (!exported) continue;
          const end = matchEnd(exported);
          if (!end) problems.push(`${at}: the export of match ${t.matchId} has no end`);
          else if (end.seed !== expectedSeed) problems.push(`${at}: table ${t.table} (match ${t.matchId}) was not dealt from the round's table seed`);
          else seedsChecked++;
        }
      }
    }
    if (event.type === 'MatchResultRecorded' && event.matchId && !event.forfeit) {
      const exported = matchExports.get(event.matchId);
      const end = exported ? matchEnd(exported) : null;
      if (end) {
        const outcome = end.winner === 0 ? 'first' : end.winner === 1 ? 'second' : 'draw';
        if (outcome !== event.outcome || JSON.stringify(end.totals) !== JSON.stringify(event.points))
          problems.push(`${at}: the result is not the end of match ${event.matchId}`);
      }
    }
    if (event.type === 'TournamentEnded' && event.masterSeed !== null) {
      if (state.seedCommitment !== sha256(event.masterSeed)) problems.push(`${at}: the master seed does not match the commitment of TournamentCreated`);
      for (const [n, seed] of roundSeeds)
        if (roundSeed(event.masterSeed, n) !== seed) problems.push(`${at}: round ${n}'s seed does not follow from the master seed`);
    }
    try {
      state = evolveTournament(state, event);
    } catch (err) {
      problems.push(`${at}: ${(err as Error).message}`);
      break;
    }
  }
  return {
    tournamentId: id,
    events: lines.length,
    rounds: state.paired.length,
    seedsChecked,
    problems,
    standings: state.settings ? standingsOf(state) : [],
    status: state.settings ? state.status : null,
    header,
  };
}
