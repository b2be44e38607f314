/**
 * Follows, blocks and the direct-message setting over REST and GraphQL on
 * PGlite (docs/social.md "Follows and blocks"): follow and unfollow
 * (idempotent), the following and followers lists in cursor pages with who is
 * online now, myself refused with VALIDATION_FAILED, an unknown player with
 * NOT_FOUND; a block ends the follows both ways, is silent (what the blocked
 * player reads does not show it) and refuses challenges and rematches between
 * the two with BLOCKED (403, GraphQL code BLOCKED) either way; the message
 * settings; the scopes (profile:read to read, social:write to write);
 * RelationsService's answers to the other folders; the SDK's methods.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ScopaClient, isScopaError } from '@scopa/sdk';
import { RelationsService } from '../src/relations/relations.service';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { openNdjson } from './support/ndjson-stream';

jest.setTimeout(120_000);

const PAGE = 'items { username online since } nextCursor';
/** Between two writes whose order a list shows (newest first, by the millisecond). */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('follows, blocks and message settings (e2e, PGlite)', () => {
  let app: INestApplication;
  let base: string;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const names = (page: { items: { username: string }[] }) => page.items.map((i) => i.username);

  beforeAll(async () => {
    app = await createTestApp({ REMATCH_TTL: 'PT1M' });
    base = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    await app.close();
  });

  const follow = (a: Account, b: Account | string) =>
    http()
      .put(`/v1/users/${typeof b === 'string' ? b : b.username}/follow`)
      .set('authorization', auth(a));
  const block = (a: Account, b: Account) => http().put(`/v1/users/${b.username}/block`).set('authorization', auth(a));
  const list = async (viewer: Account, whose: Account, which: 'following' | 'followers', query = '') => {
    const res = await http().get(`/v1/users/${whose.username}/${which}${query}`).set('authorization', auth(viewer));
    expect(res.status).toBe(200);
    return res.body as { items: { username: string; online: boolean; since: string }[]; nextCursor: string | null };
  };

  it('follow and unfollow over REST: idempotent, both lists, newest first, in cursor pages', async () => {
    const a = await register(app, 'rfa');
    const others = [await register(app, 'rfb'), await register(app, 'rfc'), await register(app, 'rfd')];
    for (const o of others) {
      await tick();
      const res = await follow(a, o);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ username: o.username, following: true, blocking: false });
    }
    // Again: the same answer, no second row (the list is unchanged, the first time kept).
    const before = await list(a, a, 'following');
    expect((await follow(a, others[0].username.toUpperCase())).body).toEqual({ username: others[0].username, following: true, blocking: false });
    const after = await list(a, a, 'following');
    expect(after).toEqual(before);
    expect(names(after)).toEqual(others.map((o) => o.username).reverse());
    expect(after.items.every((i) => i.online === false && !Number.isNaN(Date.parse(i.since)))).toBe(true);
    expect(after.nextCursor).toBeNull();

    // Pages of two: every follow once, in order.
    const p1 = await list(others[1], a, 'following', '?first=2');
    expect(p1.items).toHaveLength(2);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const p2 = await list(others[1], a, 'following', `?first=2&after=${p1.nextCursor}`);
    expect([...names(p1), ...names(p2)]).toEqual(names(after));
    expect(p2.nextCursor).toBeNull();

    // The other side: a is among each one's followers.
    for (const o of others) expect(names(await list(o, o, 'followers'))).toEqual([a.username]);

    // Unfollow, twice: the same answer.
    for (let i = 0; i < 2; i++) {
      const res = await http().delete(`/v1/users/${others[0].username}/follow`).set('authorization', auth(a));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ username: others[0].username, following: false, blocking: false });
    }
    expect(names(await list(a, a, 'following'))).toEqual([others[2].username, others[1].username]);
    expect(names(await list(a, others[0], 'followers'))).toEqual([]);
  });

  it('refusals: myself (VALIDATION_FAILED), an unknown player (NOT_FOUND), a bad cursor or page size (VALIDATION_FAILED)', async () => {
    const a = await register(app, 'rra');
    for (const path of ['follow', 'block']) {
      for (const method of ['put', 'delete'] as const) {
        const self = await http()[method](`/v1/users/${a.username}/${path}`).set('authorization', auth(a));
        expect([self.status, self.body.code]).toEqual([400, 'VALIDATION_FAILED']);
        const unknown = await http()[method](`/v1/users/nobody-${a.username}/${path}`).set('authorization', auth(a));
        expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
      }
    }
    for (const which of ['following', 'followers']) {
      expect((await http().get(`/v1/users/nobody-${a.username}/${which}`).set('authorization', auth(a))).status).toBe(404);
      expect((await http().get(`/v1/users/${a.username}/${which}?after=not-a-cursor`).set('authorization', auth(a))).body.code).toBe('VALIDATION_FAILED');
      expect((await http().get(`/v1/users/${a.username}/${which}?first=0`).set('authorization', auth(a))).body.code).toBe('VALIDATION_FAILED');
      expect((await http().get(`/v1/users/${a.username}/${which}?first=101`).set('authorization', auth(a))).body.code).toBe('VALIDATION_FAILED');
    }
    expect(errorCode(await gql(app, a.token, `mutation($u: String!) { follow(username: $u) { following } }`, { u: a.username }))).toBe('VALIDATION_FAILED');
    expect(errorCode(await gql(app, a.token, `mutation($u: String!) { block(username: $u) { blocking } }`, { u: `nobody-${a.username}` }))).toBe('NOT_FOUND');
    expect(errorCode(await gql(app, a.token, `query($u: String!) { followers(username: $u) { nextCursor } }`, { u: `nobody-${a.username}` }))).toBe(
      'NOT_FOUND',
    );
    // Nothing was recorded by the refusals.
    expect(names(await list(a, a, 'following'))).toEqual([]);
    expect((await http().get('/v1/account/blocks').set('authorization', auth(a))).body).toEqual({ items: [], nextCursor: null });
  });

  it('who of the followed players is online now (presence: a live connection)', async () => {
    const a = await register(app, 'roa');
    const b = await register(app, 'rob');
    const c = await register(app, 'roc');
    await follow(a, b).expect(200);
    await tick();
    await follow(a, c).expect(200);
    const stream = await openNdjson(`${base}/v1/stream/events`, b.token);
    try {
      expect(stream.status).toBe(200);
      let page = await list(a, a, 'following');
      for (let i = 0; i < 50 && !page.items.find((x) => x.username === b.username)?.online; i++) {
        await new Promise((r) => setTimeout(r, 100));
        page = await list(a, a, 'following');
      }
      expect(page.items.map((i) => [i.username, i.online])).toEqual([
        [c.username, false],
        [b.username, true],
      ]);
      const g = await gqlOk(app, a.token, `query($u: String!) { following(username: $u, first: 10) { ${PAGE} } }`, { u: a.username });
      expect(g.following.items.map((i: { username: string; online: boolean }) => [i.username, i.online])).toEqual([
        [c.username, false],
        [b.username, true],
      ]);
    } finally {
      stream.close();
    }
  });

  it('GraphQL: follow, unfollow, following, followers (first/after), block, unblock, blocks', async () => {
    const a = await register(app, 'rga');
    const b = await register(app, 'rgb');
    const c = await register(app, 'rgc');
    const m = (op: string, u: Account) =>
      gqlOk(app, a.token, `mutation($u: String!) { ${op}(username: $u) { username following blocking } }`, { u: u.username });
    expect((await m('follow', b)).follow).toEqual({ username: b.username, following: true, blocking: false });
    expect((await m('follow', b)).follow).toEqual({ username: b.username, following: true, blocking: false });
    await tick();
    expect((await m('follow', c)).follow.following).toBe(true);
    const p1 = await gqlOk(app, b.token, `query($u: String!) { following(username: $u, first: 1) { ${PAGE} } }`, { u: a.username });
    expect(p1.following.items.map((i: { username: string }) => i.username)).toEqual([c.username]);
    const p2 = await gqlOk(app, b.token, `query($u: String!, $after: String) { following(username: $u, first: 1, after: $after) { ${PAGE} } }`, {
      u: a.username,
      after: p1.following.nextCursor,
    });
    expect(p2.following).toMatchObject({ items: [{ username: b.username }], nextCursor: null });
    const f = await gqlOk(app, c.token, `query($u: String!) { followers(username: $u) { ${PAGE} } }`, { u: b.username });
    expect(f.followers.items.map((i: { username: string }) => i.username)).toEqual([a.username]);
    expect((await m('unfollow', c)).unfollow).toEqual({ username: c.username, following: false, blocking: false });

    expect((await m('block', b)).block).toEqual({ username: b.username, following: false, blocking: true });
    expect((await m('block', b)).block).toEqual({ username: b.username, following: false, blocking: true });
    await tick();
    expect((await m('block', c)).block.blocking).toBe(true);
    const blocks = await gqlOk(app, a.token, `{ blocks { items { username since } nextCursor } }`);
    expect(blocks.blocks.items.map((i: { username: string }) => i.username)).toEqual([c.username, b.username]);
    const firstOnly = await gqlOk(app, a.token, `{ blocks(first: 1) { items { username } nextCursor } }`);
    expect(firstOnly.blocks.items).toEqual([{ username: c.username }]);
    const rest = await gqlOk(app, a.token, `query($after: String) { blocks(first: 1, after: $after) { items { username } nextCursor } }`, {
      after: firstOnly.blocks.nextCursor,
    });
    expect(rest.blocks).toEqual({ items: [{ username: b.username }], nextCursor: null });
    expect((await m('unblock', c)).unblock).toEqual({ username: c.username, following: false, blocking: false });
    expect((await m('unblock', c)).unblock.blocking).toBe(false);
    expect((await http().get('/v1/account/blocks').set('authorization', auth(a))).body.items.map((i: { username: string }) => i.username)).toEqual([
      b.username,
    ]);
  });

  it('a block ends the follows both ways and stays silent: what the blocked player reads does not show it', async () => {
    const a = await register(app, 'rba');
    const b = await register(app, 'rbb');
    const c = await register(app, 'rbc');
    await follow(a, b).expect(200);
    await follow(b, a).expect(200);
    await follow(c, a).expect(200);
    const svc = app.get(RelationsService);
    expect(await svc.followsEachOther(a.id, b.id)).toBe(true);

    const res = await block(a, b);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: b.username, following: false, blocking: true });
    expect(names(await list(a, a, 'following'))).toEqual([]);
    expect(names(await list(a, a, 'followers'))).toEqual([c.username]);
    expect(names(await list(b, b, 'following'))).toEqual([]);
    expect(await svc.followsEachOther(a.id, b.id)).toBe(false);

    await tick();
    // b may follow a again, as anyone may: the answer and b's own reads show the follow, as they would without a block...
    const again = await follow(b, a);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ username: a.username, following: true, blocking: false });
    expect(names(await list(b, b, 'following'))).toEqual([a.username]);
    expect(names(await list(b, a, 'followers'))).toEqual([b.username, c.username]);
    // ...while nobody else sees it, and it counts for nothing.
    expect(names(await list(a, a, 'followers'))).toEqual([c.username]);
    expect(names(await list(c, a, 'followers'))).toEqual([c.username]);
    expect(names(await list(c, b, 'following'))).toEqual([]);
    expect(await svc.isFollowing(b.id, a.id)).toBe(false);
    // The blocker may not follow whom they block (BLOCKED: unblock first); b's relation to a shows no block.
    const refused = await follow(a, b);
    expect([refused.status, refused.body.code]).toEqual([403, 'BLOCKED']);
    expect(errorCode(await gql(app, a.token, `mutation($u: String!) { follow(username: $u) { following } }`, { u: b.username }))).toBe('BLOCKED');
    expect((await http().get('/v1/account/blocks').set('authorization', auth(b))).body.items).toEqual([]);

    // What the other folders ask.
    expect(await svc.isBlockedEitherWay(a.id, b.id)).toBe(true);
    expect(await svc.isBlockedEitherWay(b.id, a.id)).toBe(true);
    expect(await svc.isBlockedEitherWay(a.id, c.id)).toBe(false);
    expect(await svc.blockedIds(a.id)).toEqual([b.id]);
    expect(await svc.blockedIds(b.id)).toEqual([a.id]);
    expect(await svc.blockedIds(c.id)).toEqual([]);
    expect(await svc.anyBlockedAmong([c.username, b.username, a.username])).toBe(true);
    expect(await svc.anyBlockedAmong([c.username, b.username])).toBe(false);

    // Unblocked: b's later follow is shown to everyone again; the follows the block ended stay ended.
    const un = await http().delete(`/v1/users/${b.username}/block`).set('authorization', auth(a));
    expect(un.body).toEqual({ username: b.username, following: false, blocking: false });
    expect(names(await list(c, a, 'followers'))).toEqual([b.username, c.username]);
    expect(names(await list(a, a, 'following'))).toEqual([]);
    expect(await svc.isBlockedEitherWay(a.id, b.id)).toBe(false);
    expect(await svc.blockedIds(a.id)).toEqual([]);
  });

  it('BLOCKED (403, GraphQL BLOCKED): challenges either way, the acceptance of one sent before, rematches, a seat at the other one’s table', async () => {
    const a = await register(app, 'rca');
    const b = await register(app, 'rcb');
    const c = await register(app, 'rcc');
    // A challenge sent before the block, and a finished match of the two.
    const pending = (await http().post('/v1/challenges').set('authorization', auth(b)).send({ username: a.username, preset: 'scopa' })).body;
    expect(pending.status).toBe('pending');
    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(a))
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] })
    ).body;
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(b)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(a)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/resign`).set('authorization', auth(a)).send({}).expect(200);

    await block(a, b).expect(200);

    // b's challenge to a, and a's to b: refused, nothing recorded.
    for (const [from, to] of [
      [b, a],
      [a, b],
    ]) {
      const res = await http().post('/v1/challenges').set('authorization', auth(from)).send({ username: to.username, preset: 'scopa' });
      expect([res.status, res.body.code]).toEqual([403, 'BLOCKED']);
      const g = await gql(app, from.token, `mutation($i: ChallengeInput!) { challenge(input: $i) { id } }`, { i: { username: to.username, preset: 'scopa' } });
      expect(errorCode(g)).toBe('BLOCKED');
    }
    const mine = (await http().get('/v1/challenges').set('authorization', auth(a))).body;
    expect(mine.out).toEqual([]);
    expect(mine.in.map((x: { id: string }) => x.id)).toEqual([pending.id]);
    // The challenge b sent before: its acceptance is refused too, and it stays pending.
    const accept = await http().post(`/v1/challenges/${pending.id}/accept`).set('authorization', auth(a)).send({});
    expect([accept.status, accept.body.code]).toEqual([403, 'BLOCKED']);
    expect((await http().get(`/v1/challenges/${pending.id}`).set('authorization', auth(a))).body).toMatchObject({ status: 'pending', matchId: null });

    // b's rematch offer to a, and a's: refused, no offer recorded.
    const rb = await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(b));
    expect([rb.status, rb.body.code]).toEqual([403, 'BLOCKED']);
    expect(errorCode(await gql(app, a.token, `mutation($id: ID!) { rematch(matchId: $id) { status } }`, { id: m.id }))).toBe('BLOCKED');
    expect((await http().get(`/v1/matches/${m.id}/rematch`).set('authorization', auth(a))).body.code).toBe('NOT_FOUND');

    // b may not take a seat in a match a sits in; c may.
    const open = (await http().post('/v1/matches').set('authorization', auth(a)).send({ preset: 'scopa' })).body;
    const join = await http().post(`/v1/matches/${open.id}/join`).set('authorization', auth(b)).send({});
    expect([join.status, join.body.code]).toEqual([403, 'BLOCKED']);
    expect(errorCode(await gql(app, b.token, `mutation($id: ID!) { joinMatch(matchId: $id) { seq } }`, { id: open.id }))).toBe('BLOCKED');
    expect((await http().post(`/v1/matches/${open.id}/join`).set('authorization', auth(c)).send({})).status).toBe(200);

    // Each still challenges others.
    expect((await http().post('/v1/challenges').set('authorization', auth(b)).send({ username: c.username, preset: 'scopa' })).status).toBe(201);
    expect((await http().post('/v1/challenges').set('authorization', auth(c)).send({ username: a.username, preset: 'scopa' })).status).toBe(201);

    // Unblocked: they may again.
    await http().delete(`/v1/users/${b.username}/block`).set('authorization', auth(a)).expect(200);
    expect((await http().post('/v1/challenges').set('authorization', auth(b)).send({ username: a.username, preset: 'scopa' })).status).toBe(201);
    expect((await http().post(`/v1/matches/${m.id}/rematch`).set('authorization', auth(b))).status).toBe(200);
  });

  it('message settings: everyone by default; followed, nobody; a bad value is VALIDATION_FAILED and changes nothing', async () => {
    const a = await register(app, 'rma');
    expect((await http().get('/v1/account/message-settings').set('authorization', auth(a))).body).toEqual({ directMessages: 'everyone' });
    const put = await http().put('/v1/account/message-settings').set('authorization', auth(a)).send({ directMessages: 'followed' });
    expect([put.status, put.body]).toEqual([200, { directMessages: 'followed' }]);
    const bad = await http().put('/v1/account/message-settings').set('authorization', auth(a)).send({ directMessages: 'friends' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await http().put('/v1/account/message-settings').set('authorization', auth(a)).send({})).status).toBe(400);
    expect((await gqlOk(app, a.token, '{ messageSettings { directMessages } }')).messageSettings).toEqual({ directMessages: 'followed' });
    const set = await gqlOk(app, a.token, 'mutation { setMessageSettings(input: { directMessages: nobody }) { directMessages } }');
    expect(set.setMessageSettings).toEqual({ directMessages: 'nobody' });
    expect(await app.get(RelationsService).directMessageSetting(a.id)).toBe('nobody');
    const other = await register(app, 'rmb');
    expect(await app.get(RelationsService).directMessageSetting(other.id)).toBe('everyone');
  });

  it('scopes: reading needs profile:read, writing social:write', async () => {
    const a = await register(app, 'rsa');
    const b = await register(app, 'rsb');
    const token = async (scopes: string[]) =>
      (
        await http()
          .post('/v1/tokens')
          .set('authorization', auth(a))
          .send({ name: scopes.join('+'), scopes })
          .expect(201)
      ).body.token as string;
    const readOnly = await token(['profile:read']);
    const writeOnly = await token(['social:write']);
    const as = (t: string) => `Bearer ${t}`;
    const w = await http().put(`/v1/users/${b.username}/follow`).set('authorization', as(readOnly));
    expect([w.status, w.body.code, w.body.requiredScope]).toEqual([403, 'FORBIDDEN', 'social:write']);
    expect((await http().put(`/v1/users/${b.username}/follow`).set('authorization', as(writeOnly))).status).toBe(200);
    expect((await http().put(`/v1/users/${b.username}/block`).set('authorization', as(readOnly))).status).toBe(403);
    expect((await http().put('/v1/account/message-settings').set('authorization', as(readOnly)).send({ directMessages: 'nobody' })).status).toBe(403);
    const r = await http().get(`/v1/users/${a.username}/following`).set('authorization', as(writeOnly));
    expect([r.status, r.body.requiredScope]).toEqual([403, 'profile:read']);
    expect((await http().get('/v1/account/blocks').set('authorization', as(writeOnly))).status).toBe(403);
    expect(names((await http().get(`/v1/users/${a.username}/following`).set('authorization', as(readOnly))).body)).toEqual([b.username]);
    expect((await http().get('/v1/account/message-settings').set('authorization', as(readOnly))).body).toEqual({ directMessages: 'everyone' });
  });

  it('the SDK: followUser, following, followers, blockUser, blocks, unblockUser, unfollowUser, message settings; BLOCKED as a ScopaError', async () => {
    const a = await register(app, 'rka');
    const b = await register(app, 'rkb');
    const alice = new ScopaClient({ baseUrl: base, token: a.token });
    const bob = new ScopaClient({ baseUrl: base, token: b.token });
    expect(await alice.followUser(b.username)).toEqual({ username: b.username, following: true, blocking: false });
    expect(await bob.followUser(a.username)).toEqual({ username: a.username, following: true, blocking: false });
    expect((await bob.following(a.username)).items.map((i) => i.username)).toEqual([b.username]);
    expect((await bob.followers(a.username, { first: 5 })).items.map((i) => i.username)).toEqual([b.username]);
    expect(await alice.unfollowUser(b.username)).toEqual({ username: b.username, following: false, blocking: false });
    expect(await alice.blockUser(b.username)).toEqual({ username: b.username, following: false, blocking: true });
    expect((await alice.blocks()).items.map((i) => i.username)).toEqual([b.username]);
    expect((await bob.followers(a.username)).items).toEqual([]);
    const refused = await bob.challenge({ username: a.username, preset: 'scopa' }).catch((e: unknown) => e);
    expect(isScopaError(refused, 'BLOCKED')).toBe(true);
    expect(await alice.unblockUser(b.username)).toEqual({ username: b.username, following: false, blocking: false });
    expect(await alice.blocks({ first: 1 })).toEqual({ items: [], nextCursor: null });
    expect(await bob.messageSettings()).toEqual({ directMessages: 'everyone' });
    expect(await bob.setMessageSettings({ directMessages: 'followed' })).toEqual({ directMessages: 'followed' });
    expect(await bob.messageSettings()).toEqual({ directMessages: 'followed' });
  });
});
