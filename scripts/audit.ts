/**
 * Offline audit of an exported match (no database):
 *   npm run audit -- match.jsonl [more files...]   JSON Lines export
 *   npm run audit -- tournament.jsonl [match exports...]
 *                                                  a tournament's export (GET /v1/tournaments/{id}/export):
 *                                                  its chain, every pairing and the standings recomputed
 *                                                  (src/tournaments/tournament-audit.ts); with the exports of
 *                                                  its matches, also that every duplicate table was dealt from
 *                                                  the revealed round seed, that every table's players and seats
 *                                                  are its match's, and that every result is its match's end; with
 *                                                  --keys, also its header's signature (as a match export's)
 *   npm run audit -- moderation.jsonl              the moderation log (GET /v1/admin/moderation-log): its chain,
 *                                                  its header's count and last hash, every action's shape
 *                                                  (src/moderation/moderation-log.ts); with --keys, its signature
 *   npm run audit -- match.scopa                   the notation
 *   npm run audit -- --keys keys.json match.jsonl  also check the signature against a key set (a file)
 *   npm run audit -- --keys https://scopa.example/.well-known/scopa-keys.json match.jsonl
 * Checks the hash chain (the times too, from scopa-match/2), the seed against
 * its commitment and re-decides every command through the engine. With
 * --keys, also the header's signature: an unsigned export, an unknown key, a
 * signature that does not verify, or (keys given by URL) an issuer other than
 * the URL's origin, is not verified. Exit 0 if every file is sound (and, with
 * --keys, signed and verified), 1 otherwise, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { auditJsonl, parseJsonl, verifyHeaderSignature } from '../src/match-formats/export';
import type { ExportKeySet, SignatureVerdict } from '../src/match-formats/export';
import { parseKeySet, readKeySet } from '../src/match-formats/export-keys';
import { auditNotation } from '../src/match-formats/notation';
import { auditTournament } from '../src/tournaments/tournament-audit';
import { isTournamentHeader, verifyTournamentSignature } from '../src/tournaments/tournament-export';
import { auditModerationLog, isModerationHeader, verifyModerationSignature } from '../src/moderation/moderation-log';

/** Whether a file is a tournament export: its first line is a tournament export's header, or (scopa-tournament/1) an event of a tournament log. */
export function isTournamentExport(text: string): boolean {
  const first = text.trimStart().split('\n', 1)[0];
  try {
    const line = JSON.parse(first) as { tournamentId?: unknown; type?: unknown };
    return isTournamentHeader(line) || (typeof line.tournamentId === 'string' && line.type === 'TournamentCreated');
  } catch {
    return false;
  }
}

/** Whether a file is a moderation log export: its first line is the header of one. */
export function isModerationExport(text: string): boolean {
  try {
    return isModerationHeader(JSON.parse(text.trimStart().split('\n', 1)[0]));
  } catch {
    return false;
  }
}

/** A moderation log export audited (chain, header, actions); with keys, its signature too. */
export function auditModerationText(text: string, keys?: AuditKeys | null): { sound: boolean; line: string } {
  const r = auditModerationLog(text);
  const head = `moderation log, ${r.events} actions, chain head ${r.lastHash}`;
  if (r.problems.length > 0) return { sound: false, line: `UNSOUND: ${head}: ${r.problems.join('; ')}` };
  if (!keys) {
    const said = r.header?.signature ? `signed by ${String(r.header.issuer)} (key ${String(r.header.keyId)}), signature NOT CHECKED (give --keys)` : 'UNSIGNED';
    return { sound: true, line: `sound: ${head}; ${said}` };
  }
  return signatureVerdict(`sound: ${head}`, verifyModerationSignature(r.header!, keys.keys), keys);
}

/** A tournament export audited with the match exports given beside it (keyed by their match id); with keys, its signature too. */
export function auditTournamentText(text: string, matchTexts: readonly string[], keys?: AuditKeys | null): { sound: boolean; line: string } {
  const matches = new Map<string, string>();
  for (const m of matchTexts) {
    try {
      const { header } = parseJsonl(m);
      if (typeof header.matchId === 'string') matches.set(header.matchId, m);
    } catch {
      // not a match export: audited on its own line
    }
  }
  const r = auditTournament(text, matches);
  const head = `tournament ${r.tournamentId ?? '?'}, ${r.events} events, ${r.rounds} rounds, status ${r.status ?? '?'}`;
  if (r.problems.length > 0) return { sound: false, line: `UNSOUND: ${head}: ${r.problems.join('; ')}` };
  const top = r.standings
    .slice(0, 3)
    .map((s) => `${s.rank}. ${s.player} ${s.matchPoints}`)
    .join(', ');
  const line = `sound: ${head}; every pairing recomputed; duplicate seeds checked at ${r.seedsChecked} tables; standings ${top}${r.standings.length > 3 ? ', ...' : ''}`;
  if (!keys) {
    const said = !r.header
      ? 'UNSIGNED (scopa-tournament/1)'
      : r.header.signature
        ? `signed by ${String(r.header.issuer)} (key ${String(r.header.keyId)}), signature NOT CHECKED (give --keys)`
        : 'UNSIGNED';
    return { sound: true, line: `${line}; ${said}` };
  }
  return signatureVerdict(line, r.header ? verifyTournamentSignature(r.header, keys.keys) : { status: 'unsigned' }, keys);
}

/** The audit's last word on a sound export's signature, checked against `keys` (a match export and a tournament export alike). */
function signatureVerdict(line: string, s: SignatureVerdict, keys: AuditKeys): { sound: boolean; line: string } {
  if (s.status === 'unsigned') return { sound: false, line: `${line}; UNSIGNED: the export carries no signature (nothing proves who recorded it)` };
  if (s.status === 'unknown-key') return { sound: false, line: `${line}; SIGNATURE NOT VERIFIED: no key ${s.keyId} in the key set given` };
  if (s.status === 'invalid')
    return { sound: false, line: `${line}; SIGNATURE FAILS: the export was edited after it was signed, or key ${s.keyId} did not sign it` };
  if (keys.origin !== null && new URL(s.issuer).origin !== keys.origin) {
    return { sound: false, line: `${line}; SIGNATURE NOT VERIFIED: signed by ${s.issuer}, but the keys are ${keys.origin}'s` };
  }
  return { sound: true, line: `${line}; signature valid: signed by ${s.issuer} (key ${s.keyId})` };
}

/** The keys an audit checks signatures against, and where they came from. */
export interface AuditKeys {
  keys: ExportKeySet;
  /** The origin of the URL they were read from (the issuer must be it); null for a file. */
  origin: string | null;
}

export function auditText(text: string, keys?: AuditKeys | null): { sound: boolean; line: string } {
  const first = text.trimStart()[0];
  if (first === '{') {
    const v = auditJsonl(text);
    if (!v.sound) return { sound: false, line: `UNSOUND: match ${v.matchId ?? '?'}${v.seq !== null ? ` at seq ${v.seq}` : ''}: ${v.reason}` };
    const line = `sound: match ${v.matchId}, ${v.format}, ${v.events} events, chain head ${v.lastHash}, result ${JSON.stringify(v.result)}`;
    const { header } = parseJsonl(text);
    if (!keys) {
      const said = header.signature ? `signed by ${String(header.issuer)} (key ${String(header.keyId)}), signature NOT CHECKED (give --keys)` : 'UNSIGNED';
      return { sound: true, line: `${line}; ${said}` };
    }
    return signatureVerdict(line, verifyHeaderSignature(header, keys.keys), keys);
  }
  const v = auditNotation(text);
  if (keys) return { sound: false, line: 'UNSIGNED: a notation file carries no signature (audit the JSON Lines export to check one)' };
  return v.sound
    ? { sound: true, line: `sound: notation, ${v.plies} plies, result ${v.result}` }
    : { sound: false, line: `UNSOUND: notation${v.ply !== null ? ` at ply ${v.ply} (${v.token})` : ''}: ${v.reason}` };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let keySource: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--keys') keySource = args[++i] ?? '';
    else if (args[i].startsWith('--keys=')) keySource = args[i].slice('--keys='.length);
    else files.push(args[i]);
  }
  if (files.length === 0 || keySource === '') {
    console.error(
      'usage: npm run audit -- [--keys FILE|URL] FILE [FILE...]   (a JSON Lines export or a notation file; --keys: a JWK set, e.g. https://host/.well-known/scopa-keys.json)',
    );
    process.exit(2);
  }
  let keys: AuditKeys | null = null;
  if (keySource !== null) {
    try {
      keys = { keys: parseKeySet(await readKeySet(keySource)), origin: /^https?:\/\//i.test(keySource) ? new URL(keySource).origin : null };
    } catch (err) {
      console.error(`--keys ${keySource}: cannot read a key set: ${(err as Error).message}`);
      process.exit(2);
    }
  }
  let ok = true;
  const texts = new Map<string, string>();
  for (const file of files) {
    try {
      texts.set(file, readFileSync(file, 'utf8'));
    } catch (err) {
      console.log(`${file}: UNREADABLE: ${(err as Error).message}`);
      ok = false;
    }
  }
  const matchTexts = [...texts.values()].filter((t) => !isTournamentExport(t) && !isModerationExport(t));
  for (const [file, text] of texts) {
    const r = isModerationExport(text)
      ? auditModerationText(text, keys)
      : isTournamentExport(text)
        ? auditTournamentText(text, matchTexts, keys)
        : auditText(text, keys);
    console.log(`${file}: ${r.line}`);
    ok &&= r.sound;
  }
  process.exit(ok ? 0 : 1);
}

void main();
