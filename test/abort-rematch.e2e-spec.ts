/**
 * Abort and rematch over the public API on PGlite (docs/lobby.md "Abort", "Rematch"):
 * an abort before the first play (open or started; REST and GraphQL) ends
 * the match with no result, unrated, audited sound; after the first play it
 * is ABORT_TOO_LATE and changes nothing. A rematch is made and started once
 * every human asked (bots count as accepting), seats rotated, same rules and
 * clock, rematchOf set; a decline or REMATCH_TTL lapses the offer.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

describe('abort and rematch (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({ REMATCH_TTL: 'PT2S' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A started two-player match of a and b (a in seat 0). */
  async function started(a: Account, b: Account, extra: Record<string, unknown> = {}): Promise<any> {
    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(a))
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }], ...extra })
    ).body;
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(b)).send({}).expect(200);
    return (await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(a)).send({}).expect(200)).body;
  }

  it('abort before the first play: no result, no rating, the log audits sound and exports', async () => {
    const a = await register(app, 'aba');
    const b = await register(app, 'abb');
    const m = await started(a, b, { rated: true });
    expect(m.status).toBe('playing');
    const res = await http().post(`/v1/matches/${m.id}/abort`).set('authorization', auth(b)).send({});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('over');
    expect(res.body.view.result).toEqual({ reason: 'aborted', winner: null });
    const events = (await http().get(`/v1/matches/${m.id}/events`).set('authorization', auth(a))).body.map((e: any) => e.type);
    expect(events.slice(-2)).toEqual(['MatchAborted', 'MatchEnded']);
    expect((await http().get(`/v1/matches/${m.id}/audit`).set('authorization', auth(a))).body).toMatchObject({ sound: true, checked: 'chain+rules' });
    const notation = await http().get(`/v1/matches/${m.id}/export`).set('authorization', auth(a)).set('accept', 'text/plain');
    expect(notation.text).toContain('abort(1)');
    expect(notation.text).toContain('[Result "draw (aborted) 0-0"]');
    // Unrated: no rating for either player, no rating changes.
    // The ratings recorder took the end and did not count it; nobody has a rating.
    const prisma = app.get(PrismaService);
    let row: { counted: boolean; reason: string | null } | null = null;
    for (let i = 0; i < 50 && !row; i++) {
      row = await prisma.ratedMatch.findUnique({ where: { matchId: m.id }, select: { counted: true, reason: true } });
      if (!row) await new Promise((r) => setTimeout(r, 100));
    }
    expect(row).toEqual({ counted: false, reason: 'a match ending by aborted is not rated' });
    expect((await http().get(`/v1/matches/${m.id}`).set('authorization', auth(a))).body.ratingChanges).toEqual([]);
    for (const who of [a, b]) expect((await http().get(`/v1/users/${who.username}`).set('authorization', auth(a))).body.ratings).toEqual([]);
  });

  it('abort of an open match by its seated creator (GraphQL); a spectator may not', async () => {
    const a = await register(app, 'aoa');
    const c = await register(app, 'aoc');
    const m = (await http().post('/v1/matches').set('authorization', auth(a)).send({ preset: 'scopa' })).body;
    expect(errorCode(await gql(app, c.token, `mutation($id: ID!) { abort(matchId: $id) { status } }`, { id: m.id }))).toBe('NOT_SEATED');
    const d = await gqlOk(app, a.token, `mutation($id: ID!) { abort(matchId: $id) { status view { result { reason winner } } } }`, { id: m.id });
    expect(d.abort).toEqual({ status: 'over', view: { result: { reason: 'aborted', winner: null } } });
    expect((await http().get(`/v1/matches/${m.id}/audit`).set('authorization', auth(a))).body).toMatchObject({ sound: true });
  });

  it('abort after the first play is ABORT_TOO_LATE (409) and changes nothing', async () => {
    const a = await register(app, 'ala');
    const b = await register(app, 'alb');
    const m = await started(a, b);
    const toMove = m.view.turn === 0 ? a : b;
    const legal = (await http().get(`/v1/matches/${m.id}/legal-plays`).set('authorization', auth(toMove))).body;
    const played = await http()
      .post(`/v1/matches/${m.id}/plays`)
      .set('authorization', auth(toMove))
      .send({ ...legal.plays[0], expectedSeq: legal.seq });
    expect(played.status).toBe(200);
    for (const who of [a, b]) {
      const res = await http().post(`/v1/matches/${m.id}/abort`).set('authorization', auth(who)).send({});
      expect([res.status, res.body.code]).toEqual([409, 'ABORT_TOO_LATE']);
    }
    expect(errorCode(await gql(app, a.token, `mutation($id: ID!) { abort(matchId: $id) { status } }`, { id: m.id }))).toBe('ABORT_TOO_LATE');
    const after = (await http().get(`/v1/matches/${m.id}`).set('authorization', auth(a))).body;
    expect([after.status, after.seq]).toEqual(['playing', played.body.seq]);
  });

  it('rematch: made and started once both asked, seats rotated, same rules and clock, rematchOf set', async () => {
    const a = await register(app, 'rma');
    const b = await register(app, 'rmb');
    const m = await started(a, b, { overrides: { target: 21 }, turnTimeLimit: 'P2D', onExpiry: 'forfeit' });
    // Not before the end.
    expect((await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body.code).toBe('CONFLICT');
    await http().post(`/v1/matches/${m.id}/resign`).set('authorization', auth(b)).send({}).expect(200);
    const stranger = await register(app, 'rmc');
    expect((await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(stranger))).body.code).toBe('NOT_SEATED');

    const first = await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'open', asked: [a.username], newMatchId: null });
    expect((await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body.asked).toEqual([a.username]);
    const done = await gqlOk(app, b.token, `mutation($id: ID!) { rematch(matchId: $id) { status newMatchId players } }`, { id: m.id });
    expect(done.rematch.status).toBe('accepted');
    const next = done.rematch.newMatchId;
    expect(next).toMatch(/^[0-9a-f-]{36}$/);

    const n = (await http().get(`/v1/matches/${next}`).set('authorization', auth(a))).body;
    expect(n.status).toBe('playing');
    expect(n.rematchOf).toBe(m.id);
    expect(n.view.seats.map((s: any) => s.player)).toEqual([b.username, a.username]);
    expect(n.view.settings).toMatchObject({ turnTimeLimit: 'P2D', onExpiry: 'forfeit' });
    expect(n.view.options).toEqual(m.view.options);
    const g = await gqlOk(app, a.token, `query($id: ID!) { match(id: $id) { rematchOf } }`, { id: next });
    expect(g.match.rematchOf).toBe(m.id);
    expect((await http().get(`/v1/matches/${m.id}`).set('authorization', auth(a))).body.rematchOf).toBeNull();
    // Asking again answers the rematch made; no second match.
    expect((await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body.newMatchId).toBe(next);
    expect((await http().get('/v1/matches?status=playing').set('authorization', auth(a))).body.map((x: any) => x.id)).toEqual([next]);
  });

  it('rematch against a bot: the bot counts as accepting, so one ask makes it', async () => {
    const a = await register(app, 'rba');
    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(a))
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] })
    ).body;
    await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(a)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/resign`).set('authorization', auth(a)).send({}).expect(200);
    const r = (await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body;
    expect(r.status).toBe('accepted');
    const n = (await http().get(`/v1/matches/${r.newMatchId}`).set('authorization', auth(a))).body;
    expect(n.view.seats.map((s: any) => s.player)).toEqual(['bot:random:0', a.username]);
    expect(n.status).toBe('playing');
  });

  it('a declined offer lapses, as does one past REMATCH_TTL; asking again starts a new one', async () => {
    const a = await register(app, 'rda');
    const b = await register(app, 'rdb');
    const m = await started(a, b);
    await http().post(`/v1/matches/${m.id}/abort`).set('authorization', auth(a)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a)).expect(200);
    const declined = await gqlOk(app, b.token, `mutation($id: ID!) { declineRematch(matchId: $id) { status declinedBy } }`, { id: m.id });
    expect(declined.declineRematch).toEqual({ status: 'declined', declinedBy: b.username });
    expect((await http().post(`/v1/matches/${m.id}/rematch/decline`).set('authorization', auth(b))).body.code).toBe('CONFLICT');
    // b asking now starts a new offer with b alone: no match yet.
    const fresh = (await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(b))).body;
    expect(fresh).toMatchObject({ status: 'open', asked: [b.username], newMatchId: null });
    await new Promise((r) => setTimeout(r, 2200));
    expect((await http().get(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body.status).toBe('expired');
    // a's ask after the lapse does not complete b's lapsed offer.
    const late = (await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body;
    expect(late).toMatchObject({ status: 'open', asked: [a.username], newMatchId: null });
    expect((await http().get('/v1/matches?status=playing').set('authorization', auth(a))).body).toEqual([]);
  });
});
