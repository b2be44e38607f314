/**
 * Archives and export over the public API, written once and run on two
 * databases: PGlite (archives.e2e-spec.ts, in npm test) and PostgreSQL
 * (archives.pg-spec.ts); each driver types the rows that the archive reads
 * take straight from it (Database.rows). A user's 1,000 finished matches
 * (made fast: started and resigned through the store) as an NDJSON stream
 * with filters and as JSON pages; a client leaving mid-stream; batch export;
 * the notation by Accept; import of an export (sound: stored, replayable,
 * auditable, never rated, idempotent) and of a tampered one.
 */
import http from 'node:http';
import { jest } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Response } from 'superagent';
import { PrismaService } from '../../src/database/prisma.service';
import { auditJsonl, parseJsonl } from '../../src/match-formats/export';
import { MatchStore } from '../../src/match-store/match-store';
import { auditNotation } from '../../src/match-formats/notation';
import { gqlOk, register } from '../support/clients';
import { randomCommand } from '../store/helpers';
import { mulberry32 } from '../../src/engine';
import type { Account } from '../support/clients';
import { reissue } from '../support/exports';

jest.setTimeout(240_000);

/** The service under test, and how to stop it (and drop its database). */
export interface ArchiveInstance {
  app: INestApplication;
  close(): Promise<void>;
}

interface Made {
  id: string;
  preset: string;
  opponent: string;
  /** From ann's side. */
  result: 'win' | 'loss';
  rated: boolean;
}

const rng = mulberry32(20261126);
let instance: ArchiveInstance;
let app: INestApplication;
let store: MatchStore;
let ann: Account;
let bob: Account;
let cid: Account;
const made: Made[] = [];
const http_ = () => request(app.getHttpServer());
const auth = (a: Account) => `Bearer ${a.token}`;

/** A finished match of two seats: created, started, resigned by `loser` (real events, auditable). */
async function resigned(a: string, b: string, loser: string, preset: string, rated: boolean): Promise<string> {
  const { matchId } = await store.create({ preset, seats: [{ player: a }, { player: b }], createdBy: a, settings: { rated } });
  await store.execute(matchId, { type: 'start', player: a }, { actor: a });
  // A rated match counts once every side has played a card (docs/ratings.md): one each, then the resignation.
  if (rated) {
    for (let k = 0; k < 2; k++) {
      const { state } = await store.current(matchId);
      const command = randomCommand(state, rng);
      await store.execute(matchId, command, { actor: (command as { player: string }).player });
    }
  }
  await store.execute(matchId, { type: 'resign', player: loser }, { actor: loser });
  return matchId;
}

function ndjson(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** supertest's parser for a body read whole as text (NDJSON has none of its own). */
function asText(r: Response, done: (err: Error | null, body: string) => void): void {
  let text = '';
  r.setEncoding('utf8');
  r.on('data', (c: string) => (text += c));
  r.on('end', () => done(null, text));
}

async function stream(path: string): Promise<any[]> {
  const res = await http_().get(path).set('accept', 'application/x-ndjson').buffer(true).parse(asText);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  return ndjson(res.body as string);
}

export function describeArchiveSuite(name: string, start: (env: Record<string, string>) => Promise<ArchiveInstance>): void {
  describe(`archives on ${name}`, () => {
    beforeAll(async () => {
      instance = await start({ RATE_LIMIT: '100000' });
      app = instance.app;
      store = app.get(MatchStore);
      [ann, bob, cid] = await Promise.all([register(app, 'ann'), register(app, 'bob'), register(app, 'cid')]);
      // 900 against bob (scopa; ann resigns every third; 5 rated), 100 against cid (scopa-simple): 1,000 for ann.
      const plan: Omit<Made, 'id'>[] = [];
      for (let i = 0; i < 1000; i++) {
        const opponent = i % 10 === 9 ? cid.username : bob.username;
        plan.push({
          opponent,
          preset: opponent === cid.username ? 'scopa-simple' : 'scopa',
          result: i % 3 === 0 ? 'loss' : 'win',
          rated: i < 50 && i % 10 === 0,
        });
      }
      for (let i = 0; i < plan.length; i += 25) {
        const ids = await Promise.all(
          plan.slice(i, i + 25).map((p) => resigned(ann.username, p.opponent, p.result === 'loss' ? ann.username : p.opponent, p.preset, p.rated)),
        );
        ids.forEach((id, k) => made.push({ id, ...plan[i + k] }));
      }
    });

    afterAll(async () => {
      await instance?.close();
    });

    describe('GET /v1/users/{username}/matches as NDJSON', () => {
      it('streams all 1,000 finished matches, newest first, one summary per line', async () => {
        const lines = await stream(`/v1/users/${ann.username}/matches`);
        expect(lines).toHaveLength(1000);
        expect(new Set(lines.map((l) => l.id))).toEqual(new Set(made.map((m) => m.id)));
        for (let i = 1; i < lines.length; i++) {
          const [prev, cur] = [lines[i - 1], lines[i]];
          expect(prev.endedAt > cur.endedAt || (prev.endedAt === cur.endedAt && prev.id > cur.id)).toBe(true);
        }
        const one = made[9];
        expect(lines.find((l) => l.id === one.id)).toEqual({
          id: one.id,
          preset: 'scopa-simple',
          rulesetId: null,
          rated: false,
          imported: false,
          sourceId: null,
          issuer: null,
          verified: true,
          players: [
            { seat: 0, side: 0, player: ann.username },
            { seat: 1, side: 1, player: cid.username },
          ],
          result: { winner: 1, reason: 'resignation', totals: expect.any(Array) },
          createdAt: expect.any(String),
          endedAt: expect.any(String),
        });
      });

      it('filters by opponent, ruleset, rated, result and end time', async () => {
        const count = (f: (m: Made) => boolean) => made.filter(f).length;
        expect(await stream(`/v1/users/${ann.username}/matches?vs=${cid.username}`)).toHaveLength(100);
        expect(await stream(`/v1/users/${ann.username}/matches?ruleset=scopa-simple`)).toHaveLength(100);
        expect(await stream(`/v1/users/${ann.username}/matches?ruleset=scopa&vs=${cid.username}`)).toHaveLength(0);
        const rated = await stream(`/v1/users/${ann.username}/matches?rated=true`);
        expect(rated.map((l) => l.id).sort()).toEqual(
          made
            .filter((m) => m.rated)
            .map((m) => m.id)
            .sort(),
        );
        expect(await stream(`/v1/users/${ann.username}/matches?rated=false`)).toHaveLength(1000 - rated.length);
        expect(await stream(`/v1/users/${ann.username}/matches?result=win`)).toHaveLength(count((m) => m.result === 'win'));
        const losses = await stream(`/v1/users/${ann.username}/matches?result=loss&vs=${bob.username}`);
        expect(losses).toHaveLength(count((m) => m.result === 'loss' && m.opponent === bob.username));
        expect(losses.every((l) => l.result.winner === 1)).toBe(true);
        // bob's side of the same matches
        expect(await stream(`/v1/users/${bob.username}/matches?result=win`)).toHaveLength(count((m) => m.result === 'loss' && m.opponent === bob.username));
        expect(await stream(`/v1/users/${ann.username}/matches?result=draw`)).toHaveLength(0);

        const all = await stream(`/v1/users/${ann.username}/matches`);
        const [since, until] = [all[700].endedAt, all[300].endedAt];
        const window = await stream(`/v1/users/${ann.username}/matches?since=${since}&until=${until}`);
        expect(window.map((l) => l.id)).toEqual(all.filter((l) => l.endedAt >= since && l.endedAt <= until).map((l) => l.id));
        expect(window.length).toBeGreaterThanOrEqual(401);
        expect(await stream(`/v1/users/${ann.username}/matches?max=7`)).toEqual(all.slice(0, 7));
      });

      it('withEvents=true: each line carries the whole export, which the offline audit accepts', async () => {
        const lines = await stream(`/v1/users/${ann.username}/matches?withEvents=true&vs=${cid.username}&max=30`);
        expect(lines).toHaveLength(30);
        for (const line of lines) {
          expect(Object.keys(line).sort()).toEqual(['export', 'match']);
          expect(auditJsonl(line.export)).toMatchObject({ sound: true, matchId: line.match.id });
        }
        const rated = await stream(`/v1/users/${ann.username}/matches?withEvents=true&rated=true`);
        const header = parseJsonl(rated[0].export).header;
        expect(header.ratingChanges?.map((c) => c.player).sort()).toEqual([ann.username, bob.username].sort());
      });

      it('refuses an unknown user (404) and bad filters (400) before streaming', async () => {
        const ask = (path: string) => http_().get(path).set('accept', 'application/x-ndjson');
        expect((await ask('/v1/users/nobody-here/matches')).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
        for (const q of ['result=won', 'since=yesterday', 'rated=maybe', 'max=0', 'after=not-a-cursor']) {
          const res = await ask(`/v1/users/${ann.username}/matches?${q}`);
          expect([res.status, res.body.code, q]).toEqual([400, 'VALIDATION_FAILED', q]);
        }
      });

      it('a client leaving mid-stream: the response ends without an error, nothing is logged, the service keeps answering', async () => {
        // That the source stops being read when the client goes away is shown by src/common/ndjson.spec.ts (in-process, the
        // whole 1,000-match stream fits in the socket buffers before the client here gets its first chunk).
        const errors = jest.spyOn(Logger.prototype, 'error');
        const server = app.getHttpServer() as http.Server;
        if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        const closed: Promise<void>[] = [];
        server.once('request', (_req, res: http.ServerResponse) => closed.push(new Promise((resolve) => res.once('close', () => resolve()))));
        try {
          await new Promise<void>((resolve, reject) => {
            const req = http.get(
              { host: '127.0.0.1', port, path: `/v1/users/${ann.username}/matches?withEvents=true`, headers: { accept: 'application/x-ndjson' } },
              (res) => {
                expect(res.statusCode).toBe(200);
                res.once('data', () => {
                  res.pause();
                  req.destroy();
                  resolve();
                });
              },
            );
            req.on('error', (err) => (/socket hang up|ECONNRESET|aborted/.test(err.message) ? resolve() : reject(err)));
          });
          await Promise.all(closed);
          const next = await http_().get(`/v1/users/${ann.username}/matches?max=1`);
          expect(next.status).toBe(200);
          expect(next.body.matches).toHaveLength(1);
          expect(errors).not.toHaveBeenCalled();
        } finally {
          errors.mockRestore();
        }
      });
    });

    describe('GET /v1/users/{username}/matches as JSON, and GraphQL userMatches', () => {
      it('pages through the same list with the `next` cursor', async () => {
        const all = await stream(`/v1/users/${ann.username}/matches`);
        const seen: string[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const res: request.Response = await http_()
            .get(`/v1/users/${ann.username}/matches`)
            .query({ max: 100, ...(after ? { after } : {}) });
          expect(res.status).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          seen.push(...res.body.matches.map((m: { id: string }) => m.id));
          after = res.body.next;
          pages++;
        } while (after && pages < 20);
        expect(pages).toBe(10);
        expect(seen).toEqual(all.map((l) => l.id));

        const first = await http_().get(`/v1/users/${ann.username}/matches`);
        expect(first.body.matches).toEqual(all.slice(0, 20));
        expect(typeof first.body.next).toBe('string');
        const filtered = await http_().get(`/v1/users/${ann.username}/matches?vs=${cid.username}&max=60`);
        const rest = await http_().get(`/v1/users/${ann.username}/matches?vs=${cid.username}&max=60&after=${filtered.body.next}`);
        expect(rest.body.matches).toHaveLength(40);
        expect(rest.body.next).toBeNull();
        expect((await http_().get(`/v1/users/${ann.username}/matches?max=101`)).body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
        expect((await http_().get('/v1/users/nobody-here/matches')).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });

        const data = await gqlOk(
          app,
          null,
          `query($u: String!, $vs: String) { userMatches(username: $u, vs: $vs, max: 3, result: win) {
            matches { id preset rated imported sourceId issuer verified players { seat side player } result { winner reason totals } createdAt endedAt } next } }`,
          { u: ann.username, vs: cid.username },
        );
        const wins = await stream(`/v1/users/${ann.username}/matches?vs=${cid.username}&result=win&max=3`);
        expect(data.userMatches.matches).toEqual(wins.map(({ rulesetId: _r, ...m }) => m));
        expect(typeof data.userMatches.next).toBe('string');
      });
    });

    describe('exports', () => {
      it('POST /v1/matches/export: one export per line, an error line for an unknown or unfinished match, at most 100 ids', async () => {
        const open = await store.create({ preset: 'scopa', seats: [{ player: ann.username }, {}], createdBy: ann.username });
        const unknown = '00000000-0000-4000-8000-00000000dead';
        const ids = [made[0].id, made[1].id, unknown, open.matchId];
        const res = await http_().post('/v1/matches/export').set('authorization', auth(bob)).send({ ids }).buffer(true).parse(asText);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
        const lines = ndjson(res.body as string);
        expect(lines.map((l) => l.id)).toEqual(ids);
        expect(auditJsonl(lines[0].export)).toMatchObject({ sound: true, matchId: made[0].id });
        expect(auditJsonl(lines[1].export)).toMatchObject({ sound: true, matchId: made[1].id });
        expect(lines[0].export).toBe((await http_().get(`/v1/matches/${made[0].id}/export`).set('authorization', auth(bob))).text);
        expect(lines[2]).toEqual({ id: unknown, error: { code: 'NOT_FOUND', message: expect.any(String) } });
        expect(lines[3]).toEqual({ id: open.matchId, error: { code: 'FORBIDDEN', message: expect.any(String) } });

        const tooMany = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
        expect((await http_().post('/v1/matches/export').set('authorization', auth(bob)).send({ ids: tooMany })).body).toMatchObject({
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(
          (
            await http_()
              .post('/v1/matches/export')
              .set('authorization', auth(bob))
              .send({ ids: ['nope'] })
          ).body,
        ).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
        expect((await http_().post('/v1/matches/export').send({ ids })).status).toBe(401);
      });

      it('GET /v1/matches/{id}/export with Accept: text/plain is the notation; the old /notation route is gone', async () => {
        const res = await http_().get(`/v1/matches/${made[2].id}/export`).set('authorization', auth(cid)).set('accept', 'text/plain');
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(auditNotation(res.text)).toMatchObject({ sound: true });
        const jsonl = await http_().get(`/v1/matches/${made[2].id}/export`).set('authorization', auth(cid));
        expect(jsonl.headers['content-type']).toMatch(/^application\/x-ndjson/);
        expect(auditJsonl(jsonl.text)).toMatchObject({ sound: true });
        expect((await http_().get(`/v1/matches/${made[2].id}/notation`).set('authorization', auth(cid))).status).toBe(404);
      });
    });

    describe('POST /v1/matches/import', () => {
      it("answers this service's own export with the match itself (no duplicate)", async () => {
        const source = made.find((m) => m.rated)!;
        const exported = (await http_().get(`/v1/matches/${source.id}/export`).set('authorization', auth(ann))).text;
        const before = await app.get(PrismaService).match.count();
        for (const who of [cid, bob]) {
          const res = await http_().post('/v1/matches/import').set('authorization', auth(who)).set('content-type', 'text/plain').send(exported);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ id: source.id, sourceId: source.id, created: false, issuer: expect.any(String), verified: true });
        }
        expect(await app.get(PrismaService).match.count()).toBe(before);
      });

      it('stores a sound export of another service as a read-only imported match: listed (for its importer: unsigned), replayable, auditable, never rated; a second import returns the first', async () => {
        const source = made.find((m) => m.rated)!;
        const exported = (await http_().get(`/v1/matches/${source.id}/export`).set('authorization', auth(ann))).text;
        // the same log as another service (unsigned) would write it under its own match id
        const sourceId = '00000000-0000-4000-8000-0000000a0001';
        const foreign = reissue(exported, { matchId: sourceId });
        const ratedBefore = await app.get(PrismaService).ratedMatch.count();
        const profileBefore = (await http_().get(`/v1/users/${ann.username}`)).body;

        const first = await http_().post('/v1/matches/import').set('authorization', auth(cid)).set('content-type', 'text/plain').send(foreign);
        expect(first.status).toBe(201);
        expect(first.body).toEqual({ id: expect.any(String), sourceId, created: true, issuer: null, verified: false });
        const id = first.body.id as string;
        expect(id).not.toBe(source.id);

        const again = await http_().post('/v1/matches/import').set('authorization', auth(bob)).send({ export: foreign });
        expect(again.status).toBe(200);
        expect(again.body).toEqual({ id, sourceId, created: false, issuer: null, verified: false });

        const replay = await http_().get(`/v1/matches/${id}?atSeq=2`).set('authorization', auth(cid));
        expect(replay.status).toBe(200);
        expect(replay.body).toMatchObject({ id, seq: 2, imported: true, sourceId });
        // A match read says whether it was imported, as the archive entry does (REST and GraphQL).
        expect((await http_().get(`/v1/matches/${id}`).set('authorization', auth(cid))).body).toMatchObject({ id, imported: true, sourceId });
        expect((await http_().get(`/v1/matches/${source.id}`).set('authorization', auth(cid))).body).toMatchObject({
          id: source.id,
          imported: false,
          sourceId: null,
        });
        const q = 'query($id: ID!) { match(id: $id) { id imported sourceId } }';
        expect((await gqlOk(app, cid.token, q, { id })).match).toEqual({ id, imported: true, sourceId });
        expect((await gqlOk(app, cid.token, q, { id: source.id })).match).toEqual({ id: source.id, imported: false, sourceId: null });
        const audit = await http_().get(`/v1/matches/${id}/audit`).set('authorization', auth(cid));
        expect(audit.body).toMatchObject({ sound: true, checked: 'chain+rules' });
        const reexport = (await http_().get(`/v1/matches/${id}/export`).set('authorization', auth(cid))).text;
        expect(auditJsonl(reexport)).toMatchObject({ sound: true, matchId: sourceId });
        expect(parseJsonl(reexport).header).toMatchObject({ matchId: sourceId, importedAs: id });

        const own = (
          await http_()
            .get(`/v1/users/${cid.username}/matches?rated=true`)
            .set('authorization', auth(cid))
            .set('accept', 'application/x-ndjson')
            .buffer(true)
            .parse(asText)
        ).body as string;
        expect(ndjson(own).find((l) => l.id === id)).toMatchObject({ id, imported: true, sourceId, rated: true, verified: false });
        expect((await stream(`/v1/users/${ann.username}/matches?vs=${bob.username}&rated=true`)).find((l) => l.id === id)).toBeUndefined();
        expect(await app.get(PrismaService).ratedMatch.count()).toBe(ratedBefore);
        expect((await http_().get(`/v1/users/${ann.username}`)).body).toEqual(profileBefore);

        // read-only: no command is accepted
        const play = await http_().post(`/v1/matches/${id}/resign`).set('authorization', auth(ann)).send({});
        expect(play.status).toBeGreaterThanOrEqual(400);
        expect(play.status).toBeLessThan(500);
      });

      it('refuses a tampered export with the audit seq and reason, and stores nothing', async () => {
        const exported = (await http_().get(`/v1/matches/${made[5].id}/export`).set('authorization', auth(ann))).text;
        const lines = exported.trimEnd().split('\n');
        const event = JSON.parse(lines[3]);
        event.actor = 'mallory';
        lines[3] = JSON.stringify(event);
        const before = await app.get(PrismaService).match.count();
        const res = await http_()
          .post('/v1/matches/import')
          .set('authorization', auth(cid))
          .set('content-type', 'application/x-ndjson')
          .send(lines.join('\n') + '\n');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', audit: 'unsound', seq: 3, reason: expect.stringMatching(/hash/) });
        expect(await app.get(PrismaService).match.count()).toBe(before);
        for (const body of [{ export: 'not an export' }, { export: 42 }, {}]) {
          expect((await http_().post('/v1/matches/import').set('authorization', auth(cid)).send(body)).body).toMatchObject({
            status: 400,
            code: 'VALIDATION_FAILED',
          });
        }
        expect((await http_().post('/v1/matches/import').send({ export: exported })).status).toBe(401);
      });
    });
  });
}
