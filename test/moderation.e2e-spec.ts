/**
 * Reports and moderation (issue 46) on PGlite, over REST and GraphQL: any
 * player reports a user, a chat message or a match (exactly one target;
 * unknown ones NOT_FOUND); a moderator (MODERATORS here; the admin command:
 * test/moderation-admin.e2e-spec.ts) lists and resolves reports, mutes until
 * a time and unmutes (what chat reads: activeMute), bans (sessions, refresh
 * and API tokens dead, login refused with ACCOUNT_BANNED); everyone else is
 * FORBIDDEN; a lifted ban lets the account log in again. Every action lands in the hash-chained moderation log, whose
 * JSON Lines export `npm run audit` finds sound, and a tampered line not.
 * `me` names the moderator role (`roles`), and follows a grant and a revoke;
 * a message report keeps the message's author and text as they were.
 * Responses are checked against openapi.yaml.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { auditModerationLog } from '../src/moderation/moderation-log';
import { ModerationService } from '../src/moderation/moderation.service';
import { ScopaClient, ScopaError } from '@scopa/sdk';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(60_000);

function audit(file: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', file], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

describe('reports and moderation (e2e, PGlite)', () => {
  let app: INestApplication;
  let mod: Account;
  let ann: Account;
  let bob: Account;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account | string) => `Bearer ${typeof a === 'string' ? a : a.token}`;
  /** The app on a loopback port, once (for the SDK). */
  let listening: Promise<string> | undefined;
  const base = () => (listening ??= listenOnLoopback(app).then((l) => l.http));
  const ENV = { JOB_WORKERS: '0' };
  let dir: string;

  beforeAll(async () => {
    // the moderator's name is made before the app, so that MODERATORS names it
    const modName = `mod${process.pid % 1000}${Math.floor(Math.random() * 1e6)}`;
    app = await createTestApp({ ...ENV, MODERATORS: `${modName}, someone-else` });
    const res = await http()
      .post('/v1/auth/register')
      .send({ username: modName, password: `password-of-${modName}` });
    expect(res.status).toBe(201);
    mod = { username: modName, token: res.body.accessToken, id: res.body.account.id };
    ann = await register(app, 'ann');
    bob = await register(app, 'bob');
    dir = mkdtempSync(path.join(tmpdir(), 'scopa-moderation-'));
  });
  afterAll(async () => {
    await app?.close();
    for (const k of [...Object.keys(ENV), 'MODERATORS']) delete process.env[k];
    rmSync(dir, { recursive: true, force: true });
  });

  it('MODERATORS names the moderators: isModerator says so, for them only', async () => {
    const moderation = app.get(ModerationService);
    expect(await moderation.isModerator(mod.id)).toBe(true);
    expect(await moderation.isModerator(ann.id)).toBe(false);
    expect(await moderation.isModerator('not-a-uuid')).toBe(false);
  });

  describe('reports', () => {
    it('any player reports a user, a chat message (by its id) or a match, with a reason; a moderator lists them open, in cursor pages, and resolves them', async () => {
      const match = await http().post('/v1/matches').set('authorization', auth(bob)).send({ preset: 'scopa' });
      expect(match.status).toBe(201);
      const said = await http().post('/v1/lobby/chat').set('authorization', auth(bob)).send({ text: 'you all play like bots' });
      expect(said.status).toBe(201);
      const messageId = said.body.id as string;
      const targets = [{ username: bob.username.toUpperCase() }, { messageId }, { matchId: match.body.id }];
      const made = [];
      for (const target of targets) {
        const res = await http().post('/v1/reports').set('authorization', auth(ann)).send({ target, reason: 'not nice' });
        expect(res.status).toBe(201);
        made.push(res.body);
      }
      // a message's report keeps its author and text as they were when reported
      expect(made.map((r) => r.target)).toEqual([
        { kind: 'user', username: bob.username, messageId: null, text: null, matchId: null },
        { kind: 'message', username: bob.username, messageId, text: 'you all play like bots', matchId: null },
        { kind: 'match', username: null, messageId: null, text: null, matchId: match.body.id },
      ]);
      expect(made[0]).toMatchObject({ reporter: ann.username, reason: 'not nice', status: 'open', resolvedAt: null, resolvedBy: null });

      // oldest first, one per page
      const seen: string[] = [];
      let after: string | null = null;
      do {
        const page: request.Response = await http()
          .get(`/v1/admin/reports?status=open&first=1${after ? `&after=${after}` : ''}`)
          .set('authorization', auth(mod));
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((r: { id: string }) => r.id));
        after = page.body.nextCursor;
      } while (after);
      // every open report once, these three last (two made in the same millisecond are ordered by id)
      expect(new Set(seen).size).toBe(seen.length);
      expect(new Set(seen.slice(-3))).toEqual(new Set(made.map((r) => r.id)));

      const resolved = await http().post(`/v1/admin/reports/${made[0].id}/resolve`).set('authorization', auth(mod)).send({ resolution: 'warned bob' });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ id: made[0].id, status: 'resolved', resolvedBy: mod.username, resolution: 'warned bob' });
      const again = await http().post(`/v1/admin/reports/${made[0].id}/resolve`).set('authorization', auth(mod)).send({});
      expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
      const open = await http().get('/v1/admin/reports').set('authorization', auth(mod));
      expect(open.body.items.map((r: { id: string }) => r.id)).not.toContain(made[0].id);
      const done = await http().get('/v1/admin/reports?status=resolved').set('authorization', auth(mod));
      expect(done.body.items.map((r: { id: string }) => r.id)).toContain(made[0].id);
      expect((await http().post('/v1/admin/reports/00000000-0000-4000-8000-000000000000/resolve').set('authorization', auth(mod)).send({})).status).toBe(404);
    });

    it('refuses anything but exactly one target, a missing reason and oneself (VALIDATION_FAILED); an unknown user or match is NOT_FOUND', async () => {
      const bad = [
        { target: {}, reason: 'x' },
        { target: { username: bob.username, matchId: '0b9a3f6e-2c1d-4e5f-8a7b-6c5d4e3f2a1b' }, reason: 'x' },
        { reason: 'x' },
        { target: { username: bob.username } },
        { target: { username: bob.username }, reason: '   ' },
        { target: { username: bob.username }, reason: 'x'.repeat(1001) },
        { target: { messageId: 'not-an-id' }, reason: 'x' },
        { target: { username: ann.username }, reason: 'me' },
        { target: { username: 42 }, reason: 'x' },
      ];
      for (const body of bad) {
        const res = await http().post('/v1/reports').set('authorization', auth(ann)).send(body);
        expect([res.status, res.body.code, JSON.stringify(body)]).toEqual([400, 'VALIDATION_FAILED', JSON.stringify(body)]);
      }
      for (const target of [{ username: 'nobody-here' }, { matchId: '00000000-0000-4000-8000-000000000000' }, { matchId: 'nope' }]) {
        const res = await http().post('/v1/reports').set('authorization', auth(ann)).send({ target, reason: 'x' });
        expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
      }
      expect(
        (
          await http()
            .post('/v1/reports')
            .send({ target: { username: bob.username }, reason: 'x' })
        ).status,
      ).toBe(401);
    });

    it('GraphQL: report and reports, the latter for moderators only', async () => {
      const made = await gqlOk(
        app,
        ann.token,
        `mutation($u: String!) { report(input: {target: {username: $u}, reason: "spam"}) { id reporter status target { kind username } } }`,
        { u: bob.username },
      );
      expect(made.report).toMatchObject({ reporter: ann.username, status: 'open', target: { kind: 'user', username: bob.username } });
      const listed = await gqlOk(app, mod.token, `{ reports(status: open, first: 100) { items { id } nextCursor } }`);
      expect(listed.reports.items.map((r: { id: string }) => r.id)).toContain(made.report.id);
      expect(errorCode(await gql(app, ann.token, `{ reports { items { id } } }`))).toBe('FORBIDDEN');
      const resolved = await gqlOk(app, mod.token, `mutation($id: ID!) { resolveReport(id: $id, input: {resolution: "ok"}) { status resolution } }`, {
        id: made.report.id,
      });
      expect(resolved.resolveReport).toEqual({ status: 'resolved', resolution: 'ok' });
    });
  });

  it("a message's report keeps its author and text: the moderator reads them once the message is removed; an unknown message is NOT_FOUND, one's own refused", async () => {
    const said = await http().post('/v1/lobby/chat').set('authorization', auth(bob)).send({ text: 'meet me at table 3, I hold the settebello' });
    expect(said.status).toBe(201);
    const made = await gqlOk(
      app,
      ann.token,
      `mutation($m: String!) { report(input: {target: {messageId: $m}, reason: "table talk"}) { id target { kind username messageId text } } }`,
      { m: said.body.id },
    );
    expect(made.report.target).toEqual({ kind: 'message', username: bob.username, messageId: said.body.id, text: 'meet me at table 3, I hold the settebello' });
    const removed = await http().delete(`/v1/chat/messages/${said.body.id}?reason=table%20talk`).set('authorization', auth(mod));
    expect(removed.status).toBe(200);
    const history = await http().get('/v1/lobby/chat').set('authorization', auth(ann));
    expect(history.body.items.map((m: { id: string }) => m.id)).not.toContain(said.body.id);
    const open = await http().get('/v1/admin/reports?status=open&first=100').set('authorization', auth(mod));
    expect(open.body.items.find((r: { id: string }) => r.id === made.report.id)?.target).toEqual({
      kind: 'message',
      username: bob.username,
      messageId: said.body.id,
      text: 'meet me at table 3, I hold the settebello',
      matchId: null,
    });

    const unknown = await http()
      .post('/v1/reports')
      .set('authorization', auth(ann))
      .send({ target: { messageId: '0b9a3f6e-2c1d-4e5f-8a7b-6c5d4e3f2a1b' }, reason: 'x' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const own = await http()
      .post('/v1/reports')
      .set('authorization', auth(bob))
      .send({ target: { messageId: said.body.id }, reason: 'x' });
    expect([own.status, own.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('`roles` of me names the moderator role, on REST and GraphQL: [] for a player, ["moderator"] for a moderator, and it follows a grant and a revoke at once', async () => {
    const roles = async (a: Account) => {
      const rest = await http().get('/v1/me').set('authorization', auth(a));
      expect(rest.status).toBe(200);
      const graph = await gqlOk(app, a.token, '{ me { username roles } }');
      expect(graph.me.username).toBe(a.username);
      expect(graph.me.roles).toEqual(rest.body.roles);
      return rest.body.roles as string[];
    };
    expect(await roles(ann)).toEqual([]);
    expect(await roles(mod)).toEqual(['moderator']); // named by MODERATORS

    const moderation = app.get(ModerationService);
    const fay = await register(app, 'fay');
    expect(await roles(fay)).toEqual([]);
    // the operator's grant, as `npm run admin -- grant moderator fay` makes it (test/moderation-admin.e2e-spec.ts: the command itself)
    expect(await moderation.setRole('operator:test', 'grant', 'moderator', fay.username, 'new moderator')).toEqual({ username: fay.username, changed: true });
    expect(await roles(fay)).toEqual(['moderator']);
    expect((await http().get('/v1/admin/reports').set('authorization', auth(fay))).status).toBe(200);
    expect(await moderation.setRole('operator:test', 'revoke', 'moderator', fay.username, null)).toEqual({ username: fay.username, changed: true });
    expect(await roles(fay)).toEqual([]);
    expect((await http().get('/v1/admin/reports').set('authorization', auth(fay))).status).toBe(403);
    // the SDK's me()
    const baseUrl = await base();
    expect(await new ScopaClient({ baseUrl, token: mod.token }).me()).toMatchObject({ username: mod.username, roles: ['moderator'] });
    expect(await new ScopaClient({ baseUrl, token: fay.token }).me()).toMatchObject({ username: fay.username, roles: [] });
  });

  it('every moderator endpoint is FORBIDDEN to a player, and the writes to a moderator without a password session', async () => {
    const calls: [string, string, object?][] = [
      ['get', '/v1/admin/reports?status=open'],
      ['post', '/v1/admin/reports/00000000-0000-4000-8000-000000000000/resolve', {}],
      ['post', `/v1/admin/users/${bob.username}/mute`, { until: new Date(Date.now() + 60_000).toISOString(), reason: 'x' }],
      ['delete', `/v1/admin/users/${bob.username}/mute`],
      ['post', `/v1/admin/users/${bob.username}/ban`, { reason: 'x' }],
      ['delete', `/v1/admin/users/${bob.username}/ban`],
      ['get', '/v1/admin/moderation-log'],
    ];
    for (const [method, url, body] of calls) {
      const res = await (http() as any)[method](url).set('authorization', auth(ann)).send(body);
      expect([res.status, res.body.code, url]).toEqual([403, 'FORBIDDEN', url]);
    }
    const token = await http()
      .post('/v1/tokens')
      .set('authorization', auth(mod))
      .send({ name: 'mod bot', scopes: ['read'] });
    expect(token.status).toBe(201);
    const viaToken = await http().post(`/v1/admin/users/${bob.username}/ban`).set('authorization', auth(token.body.token)).send({ reason: 'x' });
    expect([viaToken.status, viaToken.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await http().get('/v1/admin/reports').set('authorization', auth(token.body.token))).status).toBe(200);
    expect(await app.get(ModerationService).activeMute(bob.id)).toBeNull(); // nothing was done
  });

  describe('mutes', () => {
    it('a mute runs until its end (what chat reads), can be lifted, and is refused for a time not in the future', async () => {
      const moderation = app.get(ModerationService);
      for (const until of [new Date(Date.now() - 1000).toISOString(), 'tomorrow', new Date(Date.now() + 11 * 365 * 24 * 3600_000).toISOString()]) {
        const res = await http().post(`/v1/admin/users/${bob.username}/mute`).set('authorization', auth(mod)).send({ until, reason: 'flood' });
        expect([res.status, res.body.code, until]).toEqual([400, 'VALIDATION_FAILED', until]);
      }
      expect(
        (
          await http()
            .post(`/v1/admin/users/${bob.username}/mute`)
            .set('authorization', auth(mod))
            .send({ until: new Date(Date.now() + 60_000).toISOString() })
        ).status,
      ).toBe(400);
      expect(
        (
          await http()
            .post('/v1/admin/users/nobody-here/mute')
            .set('authorization', auth(mod))
            .send({ until: new Date(Date.now() + 60_000).toISOString(), reason: 'x' })
        ).status,
      ).toBe(404);
      expect(await moderation.activeMute(bob.id)).toBeNull();

      const until = new Date(Date.now() + 3600_000);
      const muted = await http()
        .post(`/v1/admin/users/${bob.username}/mute`)
        .set('authorization', auth(mod))
        .send({ until: until.toISOString(), reason: 'flood' });
      expect(muted.status).toBe(200);
      expect(muted.body).toMatchObject({ username: bob.username, until: until.toISOString(), reason: 'flood', mutedBy: mod.username });
      expect(await moderation.activeMute(bob.id)).toEqual({ until, reason: 'flood' });
      expect(await moderation.activeMute(ann.id)).toBeNull();

      expect((await http().delete(`/v1/admin/users/${bob.username}/mute?reason=served`).set('authorization', auth(mod))).status).toBe(204);
      expect(await moderation.activeMute(bob.id)).toBeNull();
      const again = await http().delete(`/v1/admin/users/${bob.username}/mute`).set('authorization', auth(mod));
      expect([again.status, again.body.code]).toEqual([404, 'NOT_FOUND']);
    });

    it('ends by itself at its end time (GraphQL muteUser)', async () => {
      const moderation = app.get(ModerationService);
      const until = new Date(Date.now() + 1500);
      const r = await gqlOk(
        app,
        mod.token,
        `mutation($u: String!, $t: DateTime!) { muteUser(username: $u, input: {until: $t, reason: "cool down"}) { until reason } }`,
        {
          u: ann.username,
          t: until.toISOString(),
        },
      );
      expect(r.muteUser).toEqual({ until: until.toISOString(), reason: 'cool down' });
      expect(await moderation.activeMute(ann.id)).toEqual({ until, reason: 'cool down' });
      await new Promise((resolve) => setTimeout(resolve, until.getTime() - Date.now() + 50));
      expect(await moderation.activeMute(ann.id)).toBeNull();
      expect(errorCode(await gql(app, ann.token, `mutation { unmuteUser(username: "${bob.username}") }`))).toBe('FORBIDDEN');
    });
  });

  describe('bans', () => {
    it("a ban ends the account's session, refresh and API tokens, and refuses its login with ACCOUNT_BANNED; a second ban is CONFLICT", async () => {
      const carl = await register(app, 'carl');
      const login = await http()
        .post('/v1/auth/login')
        .send({ username: carl.username, password: `password-of-${carl.username}` });
      expect(login.status).toBe(200);
      const pat = await http()
        .post('/v1/tokens')
        .set('authorization', auth(carl))
        .send({ name: 'bot', scopes: ['read'] });
      expect(pat.status).toBe(201);
      for (const token of [carl.token, login.body.accessToken, pat.body.token])
        expect((await http().get('/v1/me').set('authorization', auth(token))).status).toBe(200);

      expect((await http().post(`/v1/admin/users/${carl.username}/ban`).set('authorization', auth(mod)).send({})).status).toBe(400);
      const self = await http().post(`/v1/admin/users/${mod.username}/ban`).set('authorization', auth(mod)).send({ reason: 'oops' });
      expect([self.status, self.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      const banned = await http().post(`/v1/admin/users/${carl.username}/ban`).set('authorization', auth(mod)).send({ reason: 'cheating' });
      expect(banned.status).toBe(200);
      expect(banned.body).toMatchObject({ username: carl.username, reason: 'cheating', bannedBy: mod.username });

      for (const token of [carl.token, login.body.accessToken, pat.body.token]) {
        const me = await http().get('/v1/me').set('authorization', auth(token));
        expect([me.status, me.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      }
      const refreshed = await http().post('/v1/auth/refresh').send({ refreshToken: login.body.refreshToken });
      expect(refreshed.status).toBe(401);
      const again = await http()
        .post('/v1/auth/login')
        .send({ username: carl.username, password: `password-of-${carl.username}` });
      expect([again.status, again.body.code]).toEqual([403, 'ACCOUNT_BANNED']);
      expect(again.body.bannedAt).toBe(banned.body.bannedAt);
      const wrong = await http().post('/v1/auth/login').send({ username: carl.username, password: 'not-the-password' });
      expect(wrong.status).toBe(401);
      const twice = await http().post(`/v1/admin/users/${carl.username}/ban`).set('authorization', auth(mod)).send({ reason: 'again' });
      expect([twice.status, twice.body.code]).toEqual([409, 'CONFLICT']);
      expect((await http().post('/v1/admin/users/nobody-here/ban').set('authorization', auth(mod)).send({ reason: 'x' })).status).toBe(404);
    });

    it('a lifted ban lets the account log in again (what the ban revoked stays revoked); NOT_FOUND when not banned; GraphQL unbanUser; logged', async () => {
      const gus = await register(app, 'gus');
      const password = `password-of-${gus.username}`;
      expect((await http().post(`/v1/admin/users/${gus.username}/ban`).set('authorization', auth(mod)).send({ reason: 'spam' })).status).toBe(200);
      expect((await http().post('/v1/auth/login').send({ username: gus.username, password })).body.code).toBe('ACCOUNT_BANNED');

      const lifted = await http().delete(`/v1/admin/users/${gus.username}/ban?reason=appeal%20accepted`).set('authorization', auth(mod));
      expect(lifted.status).toBe(204);
      const login = await http().post('/v1/auth/login').send({ username: gus.username, password });
      expect(login.status).toBe(200);
      const me = await http().get('/v1/me').set('authorization', auth(login.body.accessToken));
      expect([me.status, me.body.username]).toEqual([200, gus.username]);
      // the session the ban ended stays ended
      expect((await http().get('/v1/me').set('authorization', auth(gus))).status).toBe(401);
      const twice = await http().delete(`/v1/admin/users/${gus.username}/ban`).set('authorization', auth(mod));
      expect([twice.status, twice.body.code]).toEqual([404, 'NOT_FOUND']);
      expect((await http().delete('/v1/admin/users/nobody-here/ban').set('authorization', auth(mod))).status).toBe(404);
      // and banned again, then lifted over GraphQL
      expect((await http().post(`/v1/admin/users/${gus.username}/ban`).set('authorization', auth(mod)).send({ reason: 'spam again' })).status).toBe(200);
      const r = await gqlOk(app, mod.token, `mutation($u: String!) { unbanUser(username: $u, input: {reason: "second chance"}) }`, { u: gus.username });
      expect(r.unbanUser).toBe(true);
      expect((await http().post('/v1/auth/login').send({ username: gus.username, password })).status).toBe(200);
      expect(errorCode(await gql(app, ann.token, `mutation { unbanUser(username: "${gus.username}") }`))).toBe('FORBIDDEN');

      const log = await gqlOk(app, mod.token, `{ moderationLog(first: 100) { items { action actor target reason } } }`);
      expect(log.moderationLog.items.filter((e: { action: string }) => e.action === 'userUnbanned')).toEqual([
        { action: 'userUnbanned', actor: mod.username, target: gus.username, reason: 'appeal accepted' },
        { action: 'userUnbanned', actor: mod.username, target: gus.username, reason: 'second chance' },
      ]);
    });

    it('GraphQL banUser', async () => {
      const dan = await register(app, 'dan');
      const r = await gqlOk(app, mod.token, `mutation($u: String!) { banUser(username: $u, input: {reason: "alt account"}) { username reason bannedBy } }`, {
        u: dan.username,
      });
      expect(r.banUser).toEqual({ username: dan.username, reason: 'alt account', bannedBy: mod.username });
      expect(errorCode(await gql(app, dan.token, '{ me { username } }'))).toBe('UNAUTHENTICATED');
    });
  });

  describe('the moderation log', () => {
    it('holds every action with who, what, why and when; its export audits as sound, and a tampered line is found', async () => {
      const moderation = app.get(ModerationService);
      // what chat records when a moderator removes a message
      await moderation.recordAction({
        moderator: mod.username,
        action: 'messageRemoved',
        target: '0b9a3f6e-2c1d-4e5f-8a7b-6c5d4e3f2a1b',
        reason: 'slur',
        details: { room: 'lobby' },
      });

      const res = await http().get('/v1/admin/moderation-log').set('authorization', auth(mod));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
      const lines = res.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const [header, ...events] = lines;
      expect(header).toMatchObject({ format: 'scopa-moderation-log/1', events: events.length, lastHash: events[events.length - 1].hash });
      expect(header.signature).toEqual(expect.any(String));
      const types = events.map((e) => e.type);
      for (const t of ['reportResolved', 'userMuted', 'userUnmuted', 'userBanned', 'userUnbanned', 'messageRemoved']) expect(types).toContain(t);
      const muted = events.find((e) => e.type === 'userMuted' && e.payload.target === bob.username);
      expect(muted).toMatchObject({ actor: mod.username, payload: { target: bob.username, reason: 'flood', until: expect.any(String) } });
      expect(Date.parse(muted.time)).not.toBeNaN();
      expect(events.find((e) => e.type === 'userUnmuted')).toMatchObject({ payload: { reason: 'served' } });
      expect(events[events.length - 1]).toMatchObject({ type: 'messageRemoved', actor: mod.username, payload: { reason: 'slur', details: { room: 'lobby' } } });
      // refused actions logged nothing: no ban of the moderator, one ban of carl
      expect(events.filter((e) => e.type === 'userBanned').map((e) => e.payload.reason)).toEqual(['cheating', 'spam', 'spam again', 'alt account']);

      expect(auditModerationLog(res.text).problems).toEqual([]);
      const sound = path.join(dir, 'moderation.jsonl');
      writeFileSync(sound, res.text);
      const ok = await audit(sound);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/sound: moderation log, \d+ actions/);

      // tamper one line: the ban's reason
      const at = lines.findIndex((l) => l.type === 'userBanned');
      const tampered = lines.map((l, i) => (i === at ? { ...l, payload: { ...l.payload, reason: 'nothing' } } : l));
      const bad = path.join(dir, 'tampered.jsonl');
      writeFileSync(bad, tampered.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const found = await audit(bad);
      expect(found.code).toBe(1);
      expect(found.stdout).toContain(`UNSOUND: moderation log`);
      expect(found.stdout).toContain(`seq ${lines[at].seq} (userBanned): hash does not match`);
      // a line removed at the end: the header says more
      const cut = path.join(dir, 'cut.jsonl');
      writeFileSync(cut, res.text.trim().split('\n').slice(0, -1).join('\n') + '\n');
      expect((await audit(cut)).stdout).toContain('header: ');
    });

    it('GraphQL moderationLog pages the entries in order, for moderators only', async () => {
      const first = await gqlOk(app, mod.token, `{ moderationLog(first: 2) { items { seq action actor target reason details time hash } nextCursor } }`);
      expect(first.moderationLog.items.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
      const next = await gqlOk(app, mod.token, `query($a: String) { moderationLog(first: 100, after: $a) { items { seq action } nextCursor } }`, {
        a: first.moderationLog.nextCursor,
      });
      expect(next.moderationLog.items[0].seq).toBe(3);
      expect(next.moderationLog.items[next.moderationLog.items.length - 1].action).toBe('messageRemoved');
      expect(next.moderationLog.nextCursor).toBeNull();
      expect(errorCode(await gql(app, bob.token, '{ moderationLog { items { seq } } }'))).toBe('FORBIDDEN');
    });
  });

  it('the SDK: report, reports, resolveReport, muteUser, unmuteUser, banUser, unbanUser, moderationLog', async () => {
    const baseUrl = await base();
    const player = new ScopaClient({ baseUrl, token: ann.token });
    const moderator = new ScopaClient({ baseUrl, token: mod.token });
    const eve = await register(app, 'eve');
    const made = await player.report({ target: { username: eve.username }, reason: 'rude' });
    expect(made).toMatchObject({ status: 'open', target: { kind: 'user', username: eve.username } });
    const page = await moderator.reports({ status: 'open', first: 100 });
    expect(page.items.map((r) => r.id)).toContain(made.id);
    expect((await moderator.resolveReport(made.id, 'talked to eve')).status).toBe('resolved');
    const until = new Date(Date.now() + 600_000);
    expect((await moderator.muteUser(eve.username, until, 'rude')).until).toBe(until.toISOString());
    await moderator.unmuteUser(eve.username, 'apologized');
    expect((await moderator.banUser(eve.username, 'rude again')).username).toBe(eve.username);
    await moderator.unbanUser(eve.username, 'apologized again');
    await expect(moderator.unbanUser(eve.username)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const text = await moderator.moderationLog();
    expect(auditModerationLog(text).problems).toEqual([]);
    await expect(player.reports()).rejects.toBeInstanceOf(ScopaError);
    await expect(player.reports()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
