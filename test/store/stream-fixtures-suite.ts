/**
 * The stream fixtures (test/fixtures/streams, recorded on the code before the
 * generic stream store, issue 43): a signed duplicate tournament export and
 * its four signed match exports. Today's code must audit them as sound and
 * write them again byte for byte: from the lines alone, and after storing
 * each log in the database and reading it back through its stream's store
 * (the match store's event store, the tournament log store). `npm run audit`
 * prints what it printed then.
 */
import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import { chainEvents, GENESIS_HASH, joinEvent } from '../../src/match-formats/chain';
import type { StoredEvent } from '../../src/match-formats/chain';
import { EventStore } from '../../src/match-store/event-store';
import { auditJsonl, parseJsonl, publicJwkOf, verifyHeaderSignature, writeExport } from '../../src/match-formats/export';
import type { ExportFields, ExportHeader, ExportKeySet, ExportLine, ExportSigner } from '../../src/match-formats/export';
import { auditTournament } from '../../src/tournaments/tournament-audit';
import { verifyTournamentSignature, writeTournamentExport } from '../../src/tournaments/tournament-export';
import type { TournamentExportHeader } from '../../src/tournaments/tournament-export';
import type { ChainedTournamentEvent } from '../../src/tournaments/tournament-log';
import { TournamentLogStore } from '../../src/tournaments/tournament-store';
import { FIXTURE_ISSUER, FIXTURE_SIGNING_KEY } from '../fixtures/streams/signing-key';
import type { DatabaseFactory, TestDatabase } from './helpers';

const DIR = path.join(process.cwd(), 'test/fixtures/streams');
const read = (name: string) => readFileSync(path.join(DIR, name), 'utf8');
const MATCH_FILES = readdirSync(DIR)
  .filter((f) => /^match-\d+\.jsonl$/.test(f))
  .sort();

const key = createPrivateKey(FIXTURE_SIGNING_KEY);
const signer: ExportSigner = { issuer: FIXTURE_ISSUER, keyId: publicJwkOf(key).kid, privateKey: key };
const keys = JSON.parse(read('keys.json')) as ExportKeySet;

/** What a writer gives of a match export's header: all but what follows from the log and the key. */
function fieldsOf(header: ExportHeader): ExportFields {
  const { format: _f, events: _e, lastHash: _l, issuer: _i, keyId: _k, signature: _s, ...fields } = header;
  return fields;
}

function tournamentOf(text: string): { header: TournamentExportHeader; lines: ChainedTournamentEvent[] } {
  const [header, ...lines] = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  return { header: header as TournamentExportHeader, lines: lines as ChainedTournamentEvent[] };
}

function audit(args: string[]): Promise<{ code: number; stdout: string }> {
  // node itself with tsx's loader: the same script `npm run audit` runs.
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...args], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

export function describeStreamFixtures(label: string, factory: DatabaseFactory): void {
  describe(`stream fixtures recorded before the stream store (${label})`, () => {
    jest.setTimeout(120_000);
    let db: TestDatabase;
    const tournamentText = read('tournament.jsonl');
    const matchTexts = MATCH_FILES.map(read);

    beforeAll(async () => {
      db = await factory();
    });
    afterAll(async () => {
      await db?.close();
    });

    it('the match exports audit as sound, their signatures verify, and they are written again byte for byte', () => {
      expect(MATCH_FILES).toHaveLength(4);
      for (const text of matchTexts) {
        expect(auditJsonl(text)).toMatchObject({ sound: true, format: 'scopa-match/2' });
        const { header, events } = parseJsonl(text);
        expect(verifyHeaderSignature(header, keys).status).toBe('valid');
        const stored: StoredEvent[] = events.map((e) => ({ ...e, matchId: header.matchId, time: new Date(e.time) }));
        expect(writeExport(fieldsOf(header), stored, signer)).toBe(text);
      }
    });

    it('the tournament export audits as sound beside its matches, its signature verifies, and it is written again byte for byte', () => {
      const matches = new Map(matchTexts.map((t) => [parseJsonl(t).header.matchId, t]));
      const r = auditTournament(tournamentText, matches);
      expect(r.problems).toEqual([]);
      expect(r).toMatchObject({ events: 15, rounds: 2, seedsChecked: 4, status: 'finished' });
      const { header, lines } = tournamentOf(tournamentText);
      expect(verifyTournamentSignature(header, keys).status).toBe('valid');
      expect(writeTournamentExport(lines, signer)).toBe(tournamentText);
    });

    it('each match log, stored through the event store (its chain recomputed) and read back, exports byte for byte', async () => {
      const store = new EventStore(db.prisma, { appendsInFlight: 1, rows: db.rows, statements: db.statements });
      for (const text of matchTexts) {
        const { header, events } = parseJsonl(text);
        const seats = header.seats as { player?: string | null }[];
        await store.importLog(
          header.matchId,
          {
            preset: header.preset,
            options: header.options,
            rulesVersion: header.rulesVersion,
            seats: header.seats,
            seedCommitment: header.seedCommitment,
            createdBy: header.createdBy,
            seed: header.seed,
            winner: header.result?.winner ?? null,
            createdAt: new Date(header.createdAt),
            endedAt: new Date(header.endedAt ?? header.createdAt),
            sourceId: header.matchId,
            sourceHash: header.lastHash,
            turnTimeLimit: header.settings.turnTimeLimit ?? null,
            onExpiry: header.settings.onExpiry ?? null,
            importIssuer: null,
            players: seats.flatMap((s, seat) => (s?.player ? [{ seat, playerId: s.player }] : [])),
          },
          // the stored chain is scopa-match/1's (no times): recomputed from the events, actors as logged
          rehash(header.matchId, events),
          events.map((e: ExportLine) => new Date(e.time)),
        );
        const read = (await store.eventsOfMatches([header.matchId])).get(header.matchId)!;
        expect(read.map((e) => e.time.toISOString())).toEqual(events.map((e) => e.time));
        expect(writeExport(fieldsOf(header), read, signer)).toBe(text);
      }
    });

    it('the tournament log, stored as recorded and read back through its stream store, exports byte for byte; its appends are guarded', async () => {
      const { header, lines } = tournamentOf(tournamentText);
      const id = header.tournamentId;
      await db.exec(
        `INSERT INTO tournaments (id, name, format, created_by, settings, current_seq, last_hash, status)
         VALUES ('${id}', 'Fixture', 'swiss', '${header.createdBy}', '{}'::jsonb, ${lines.length}, '${header.lastHash}', 'finished')`,
      );
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO tournament_events (tournament_id, seq, type, payload, actor, time, prev_hash, hash)
         SELECT $1::uuid, e.seq, e.type, e.payload, e.actor, e.time::timestamptz, e.prev_hash, e.hash
         FROM jsonb_to_recordset($2::jsonb) AS e(seq int, type text, payload jsonb, actor text, time text, prev_hash text, hash text)`,
        id,
        JSON.stringify(lines.map((l) => ({ seq: l.seq, type: l.type, payload: l.payload, actor: l.actor, time: l.time, prev_hash: l.prevHash, hash: l.hash }))),
      );
      const log = new TournamentLogStore();
      expect(writeTournamentExport(await log.events(db.prisma, id), signer)).toBe(tournamentText);
      const folded = await log.load(db.prisma, id);
      expect(folded).toMatchObject({ seq: 15, hash: header.lastHash, state: { status: 'finished' } });

      // The stream's guard: an append decided on seq 15 goes in once; decided on it again, it is refused.
      const next = await log.append(db.prisma, folded, [{ type: 'TournamentCancelled' }], null);
      expect(next.seq).toBe(16);
      expect(await log.append(db.prisma, folded, [{ type: 'TournamentCancelled' }], null).catch((e: { code?: string }) => e.code)).toBe('VERSION_CONFLICT');
      const after = tournamentOf(writeTournamentExport(await log.events(db.prisma, id), signer)).lines;
      expect(after).toHaveLength(16);
      expect(after[15].prevHash).toBe(header.lastHash);
      const none = { ...folded, state: { ...folded.state, id: '00000000-0000-4000-8000-00000000dead' } };
      expect(await log.append(db.prisma, none, [{ type: 'TournamentCancelled' }], null).catch((e: { code?: string }) => e.code)).toBe('NOT_FOUND');
    });

    if (label === 'PGlite') {
      it('`npm run audit` prints for them what it printed before', async () => {
        const files = [...MATCH_FILES, 'tournament.jsonl'].map((f) => `test/fixtures/streams/${f}`);
        const r = await audit(['--keys', 'test/fixtures/streams/keys.json', ...files]);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(read('audit.txt'));
      });
    }
  });
}

/** The untimed chain of a log (scopa-match/1, the store's): each hash over the event after the one before. */
function rehash(matchId: string, events: readonly ExportLine[]) {
  let prev = GENESIS_HASH;
  return events.map((e) => {
    const [c] = chainEvents(matchId, e.seq - 1, prev, [joinEvent(e)], e.actor);
    prev = c.hash;
    return c;
  });
}
