/**
 * Chat rooms over REST and GraphQL on PGlite (docs/social.md "Chat"): two
 * players chat in a match and read the history; a spectator's message reaches
 * the players only after the end; in scopone every message reaches all four
 * seats at once and no request shape delivers one to a partner alone; the
 * match setting chat: off; a duplicate tournament's room is CHAT_CLOSED while
 * its round runs; direct messages (a shared match, never partners in play);
 * plain text kept verbatim (`<img src=x onerror=alert(1)>`), the 500
 * characters, control characters, the flood guard and the rate limits;
 * the recipient's direct-message setting, blocks, a team's room, a mute
 * (CHAT_MUTED until its end) and a moderator's removal.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { openNdjson } from './support/ndjson-stream';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel } from '../src/realtime/channels';
import type { PlayerEvent } from '../src/inbox/player-events';
import { randomUUID } from 'node:crypto';
import { ChatService } from '../src/chat/chat.service';
import { PrismaService } from '../src/database/prisma.service';

jest.setTimeout(120_000);

const MESSAGE = 'id room { kind id matchRoom participants } author text sentAt';
/** A moderator by MODERATORS (src/moderation). */
const MODERATOR = `chatmod${process.pid % 10000}`;

async function registerNamed(app: INestApplication, username: string): Promise<Account> {
  const res = await request(app.getHttpServer())
    .post('/v1/auth/register')
    .send({ username, password: `password-of-${username}` });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { username, token: res.body.accessToken, id: res.body.account.id };
}
const XSS = '<img src=x onerror=alert(1)>';

describe('chat rooms (e2e, PGlite)', () => {
  let app: INestApplication;
  let wsUrl: string;
  let base: string;
  const clients: Client[] = [];
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({
      MODERATORS: MODERATOR,
      CHAT_RATE_LIMIT: '8',
      CHAT_RATE_LIMIT_WINDOW_MS: '60000',
      CHAT_FLOOD_WINDOW_MS: '30000',
      STREAM_KEEPALIVE: '0.2',
    });
    const listening = await listenOnLoopback(app);
    wsUrl = listening.ws;
    base = listening.http;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  /** A graphql-ws subscription to a room: what it has received so far, and a wait for a count. */
  async function subscribe(
    a: Account,
    room: Record<string, unknown>,
  ): Promise<{ got: any[]; errors: unknown[]; until: (n: number, ms?: number) => Promise<void> }> {
    const c = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: auth(a) }, retryAttempts: 0 });
    clients.push(c);
    const got: any[] = [];
    const errors: unknown[] = [];
    c.subscribe(
      { query: `subscription($r: ChatRoomInput!) { chatMessage(room: $r) { ${MESSAGE} } }`, variables: { r: room } },
      { next: (r) => (r.errors ? errors.push(r.errors) : got.push((r.data as any).chatMessage)), error: (e) => void errors.push(e), complete: () => undefined },
    );
    // subscribed once a probe published now is heard: wait for the server to have the subscription (see below)
    await new Promise((r) => setTimeout(r, 300));
    return {
      got,
      errors,
      until: async (n, ms = 5000) => {
        for (let i = 0; i < ms / 20 && got.length < n; i++) await new Promise((r) => setTimeout(r, 20));
      },
    };
  }

  /** A graphql-ws subscription to a room's removals (`chatMessageRemoved`): what it has received so far. */
  async function subscribeRemovals(a: Account, room: Record<string, unknown>): Promise<{ got: any[]; errors: unknown[]; until: (n: number) => Promise<void> }> {
    const c = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: auth(a) }, retryAttempts: 0 });
    clients.push(c);
    const got: any[] = [];
    const errors: unknown[] = [];
    c.subscribe(
      { query: `subscription($r: ChatRoomInput!) { chatMessageRemoved(room: $r) { id room { kind id matchRoom } removedAt } }`, variables: { r: room } },
      {
        next: (r) => (r.errors ? errors.push(r.errors) : got.push((r.data as any).chatMessageRemoved)),
        error: (e) => void errors.push(e),
        complete: () => undefined,
      },
    );
    await new Promise((r) => setTimeout(r, 300));
    return {
      got,
      errors,
      until: async (n) => {
        for (let i = 0; i < 250 && got.length < n; i++) await new Promise((r) => setTimeout(r, 20));
      },
    };
  }

  async function match(players: Account[], preset: string, extra: Record<string, unknown> = {}): Promise<string> {
    const [creator, ...others] = players;
    const made = await http()
      .post('/v1/matches')
      .set('authorization', auth(creator))
      .send({ preset, seats: [{ type: 'creator' }], ...extra });
    expect(made.status).toBe(201);
    for (const p of others) expect((await http().post(`/v1/matches/${made.body.id}/join`).set('authorization', auth(p)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${made.body.id}/start`).set('authorization', auth(creator)).send({})).status).toBe(200);
    return made.body.id as string;
  }

  const say = (a: Account, path: string, text: string) => http().post(path).set('authorization', auth(a)).send({ text });
  const read = (a: Account, path: string) => http().get(path).set('authorization', auth(a));
  const resign = async (a: Account, id: string) =>
    expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(a)).send({})).status).toBe(200);

  it('two players chat in a match and read the history (REST and GraphQL); a spectator reads it too, and cannot write there', async () => {
    const [ann, bob, sam] = await Promise.all([register(app, 'cha'), register(app, 'chb'), register(app, 'chs')]);
    const id = await match([ann, bob], 'scopa');
    const sent = await say(ann, `/v1/matches/${id}/chat`, '  buona fortuna  ');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ room: { kind: 'match', id, matchRoom: 'players', participants: null }, author: ann.username, text: 'buona fortuna' });
    const reply = await gqlOk(app, bob.token, `mutation($r: ChatRoomInput!, $t: String!) { sendChatMessage(room: $r, text: $t) { ${MESSAGE} } }`, {
      r: { kind: 'match', id },
      t: 'grazie',
    });
    expect(reply.sendChatMessage).toMatchObject({ author: bob.username, text: 'grazie', room: { kind: 'match', matchRoom: 'players' } });

    for (const reader of [ann, bob, sam]) {
      const page = await read(reader, `/v1/matches/${id}/chat?room=players`);
      expect(page.status).toBe(200);
      expect(page.body.items.map((m: any) => [m.author, m.text])).toEqual([
        [bob.username, 'grazie'],
        [ann.username, 'buona fortuna'],
      ]);
      expect(page.body.nextCursor).toBeNull();
    }
    // cursor pages, newest first, over GraphQL
    const first = await gqlOk(app, ann.token, `query($r: ChatRoomInput!) { chatMessages(room: $r, first: 1) { items { text } nextCursor } }`, {
      r: { kind: 'match', id },
    });
    expect(first.chatMessages.items).toEqual([{ text: 'grazie' }]);
    const second = await gqlOk(
      app,
      ann.token,
      `query($r: ChatRoomInput!, $a: String) { chatMessages(room: $r, first: 1, after: $a) { items { text } nextCursor } }`,
      {
        r: { kind: 'match', id },
        a: first.chatMessages.nextCursor,
      },
    );
    expect(second.chatMessages).toEqual({ items: [{ text: 'buona fortuna' }], nextCursor: null });

    const spectator = await say(sam, `/v1/matches/${id}/chat?room=players`, 'forza');
    expect([spectator.status, spectator.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it("a spectator's message reaches the players only after the end: neither history nor live before it", async () => {
    const [ann, bob, sam] = await Promise.all([register(app, 'spa'), register(app, 'spb'), register(app, 'sps')]);
    const id = await match([ann, bob], 'scopa');
    const annLive = await subscribe(ann, { kind: 'match', id, matchRoom: 'spectators' });
    const samLive = await subscribe(sam, { kind: 'match', id, matchRoom: 'spectators' });
    const annStream = await openNdjson(`${base}/v1/matches/${id}/stream?chat=true`, ann.token);
    expect(annStream.status).toBe(200);

    expect((await say(sam, `/v1/matches/${id}/chat?room=spectators`, 'ann holds the settebello')).status).toBe(201);
    await samLive.until(1);
    expect(samLive.got.map((m) => m.text)).toEqual(['ann holds the settebello']);
    // the players: no history, no live line
    const before = await read(ann, `/v1/matches/${id}/chat?room=spectators`);
    expect([before.status, before.body.code]).toEqual([409, 'CHAT_CLOSED']);
    const beforeGql = await gql(app, bob.token, `query($r: ChatRoomInput!) { chatMessages(room: $r) { items { text } } }`, {
      r: { kind: 'match', id, matchRoom: 'spectators' },
    });
    expect(errorCode(beforeGql)).toBe('CHAT_CLOSED');
    const playerWrites = await say(ann, `/v1/matches/${id}/chat?room=spectators`, 'hello spectators');
    expect([playerWrites.status, playerWrites.body.code]).toEqual([409, 'CHAT_CLOSED']);
    await new Promise((r) => setTimeout(r, 300));
    expect(annLive.got).toEqual([]);
    expect(annStream.lines.filter((l) => 'chat' in l)).toEqual([]);

    await resign(bob, id);
    const after = await read(ann, `/v1/matches/${id}/chat?room=spectators`);
    expect(after.status).toBe(200);
    expect(after.body.items.map((m: any) => [m.author, m.text])).toEqual([[sam.username, 'ann holds the settebello']]);
    // after the end, what spectators say reaches the players live too
    expect((await say(sam, `/v1/matches/${id}/chat?room=spectators`, 'well played')).status).toBe(201);
    await annLive.until(1);
    expect(annLive.got.map((m) => m.text)).toEqual(['well played']);
    annStream.close();
  });

  it('scopone: every message reaches all four seats at once, the spectators read it, and no request shape delivers one to a partner alone', async () => {
    const seats = await Promise.all([register(app, 'sca'), register(app, 'scb'), register(app, 'scc'), register(app, 'scd')]);
    const watcher = await register(app, 'scw');
    const id = await match(seats, 'scopone');
    const live = await Promise.all([...seats, watcher].map((a) => subscribe(a, { kind: 'match', id })));
    const streams = await Promise.all(seats.map((a) => openNdjson(`${base}/v1/matches/${id}/stream?chat=true`, a.token)));

    for (const [i, a] of seats.entries()) expect((await say(a, `/v1/matches/${id}/chat`, `from seat ${i}`)).status).toBe(201);
    for (const l of live) await l.until(4);
    for (const l of live) expect(l.got.map((m) => m.text).sort()).toEqual(['from seat 0', 'from seat 1', 'from seat 2', 'from seat 3']);
    for (const s of streams) await s.waitUntil(() => s.lines.filter((l) => 'chat' in l).length >= 4, 5000, 'four chat lines');
    for (const s of streams)
      expect(
        s.lines
          .filter((l) => 'chat' in l)
          .map((l) => l.chat.text)
          .sort(),
      ).toEqual(['from seat 0', 'from seat 1', 'from seat 2', 'from seat 3']);

    // Every shape that might name one seat or one partner: refused, or it is the one room everybody hears.
    const view = (await read(seats[0], `/v1/matches/${id}`)).body.view;
    const sideOfName = (name: string) => (view.seats as { side: number; player: string }[]).find((x) => x.player === name)!.side;
    const partner = seats.find((p) => p !== seats[0] && sideOfName(p.username) === sideOfName(seats[0].username))!.username;
    const shapes: Record<string, unknown>[] = [
      { kind: 'match', id, username: partner },
      { kind: 'direct', id, username: partner },
      { kind: 'match', id, matchRoom: 'partners' },
      { kind: 'team', id },
    ];
    for (const r of shapes) {
      const res = await gql(app, seats[0].token, `mutation($r: ChatRoomInput!) { sendChatMessage(room: $r, text: "psst") { id } }`, { r });
      expect(res.errors?.length).toBeGreaterThan(0);
    }
    const seat = await gql(app, seats[0].token, `mutation($r: ChatRoomInput!) { sendChatMessage(room: $r, text: "psst", seat: 2) { id } }`, {
      r: { kind: 'match', id },
    });
    expect(seat.errors?.length).toBeGreaterThan(0);
    for (const q of [`?seat=2`, `?to=${partner}`, `?username=${partner}`, `?room=team`]) {
      const res = await http()
        .post(`/v1/matches/${id}/chat${q}`)
        .set('authorization', auth(seats[0]))
        .send({ text: `psst ${q}`, to: partner, seat: 2 });
      // unknown parameters are refused: no field of the body or the query names a seat or a partner
      expect([q, res.status, res.body.code]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
    // the direct channel between partners of a team match in play: CHAT_CLOSED
    const dm = await say(seats[0], `/v1/messages/${partner}`, 'psst');
    expect([dm.status, dm.body.code, dm.body.reason]).toEqual([409, 'CHAT_CLOSED', 'partners']);
    await new Promise((r) => setTimeout(r, 300));
    // whatever went through went to all four seats: nobody got a message the others did not
    const texts = live.slice(0, 4).map((l) => l.got.map((m) => m.id).sort());
    for (const t of texts) expect(t).toEqual(texts[0]);
    expect(live[4].got.map((m) => m.id).sort()).toEqual(texts[0]);
    for (const s of streams) s.close();

    // once the match is over, partners may write each other
    await resign(seats[1], id);
    expect((await say(seats[0], `/v1/messages/${partner}`, 'good game')).status).toBe(201);
  });

  it('a match created with chat: off has a closed players’ room (CHAT_CLOSED); the setting shows on the match', async () => {
    const [ann, bob] = await Promise.all([register(app, 'ofa'), register(app, 'ofb')]);
    const id = await match([ann, bob], 'scopa', { chat: 'off' });
    const m = await read(ann, `/v1/matches/${id}`);
    expect(m.body.view.settings.chat).toBe('off');
    const res = await say(ann, `/v1/matches/${id}/chat`, 'ciao');
    expect([res.status, res.body.code]).toEqual([409, 'CHAT_CLOSED']);
    const bad = await http().post('/v1/matches').set('authorization', auth(ann)).send({ preset: 'scopa', chat: 'partners' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("a duplicate tournament's room is CHAT_CLOSED while its round runs; open before it; its chat: off reaches its tables", async () => {
    const field = await Promise.all([register(app, 'dta'), register(app, 'dtb'), register(app, 'dtc'), register(app, 'dtd')]);
    const t = (
      await http()
        .post('/v1/tournaments')
        .set('authorization', auth(field[0]))
        .send({ name: 'Chat duplicate', format: 'swiss', preset: 'scopa', rounds: 1, duplicate: true, chat: 'off' })
    ).body;
    expect(t.chat).toBe('off');
    for (const p of field) expect((await http().post(`/v1/tournaments/${t.id}/join`).set('authorization', auth(p)).send({})).status).toBe(200);
    expect((await say(field[1], `/v1/tournaments/${t.id}/chat`, 'good luck everyone')).status).toBe(201);
    expect((await http().post(`/v1/tournaments/${t.id}/start`).set('authorization', auth(field[0])).send({})).status).toBe(200);

    const closed = await say(field[1], `/v1/tournaments/${t.id}/chat`, 'table 2 has the settebello');
    expect([closed.status, closed.body.code, closed.body.reason]).toEqual([409, 'CHAT_CLOSED', 'duplicateRound']);
    const closedGql = await gql(app, field[2].token, `mutation($r: ChatRoomInput!) { sendChatMessage(room: $r, text: "hi") { id } }`, {
      r: { kind: 'tournament', id: t.id },
    });
    expect(errorCode(closedGql)).toBe('CHAT_CLOSED');
    // the history before the round is still there
    expect((await read(field[3], `/v1/tournaments/${t.id}/chat`)).body.items.map((m: any) => m.text)).toEqual(['good luck everyone']);
    // the tables' players' rooms are off
    const round = (await read(field[0], `/v1/tournaments/${t.id}/rounds/1`)).body;
    const table = round.tables[0];
    const player = field.find((p) => p.username === table.players[0])!;
    const atTable = await say(player, `/v1/matches/${table.matchId}/chat`, 'hi');
    expect([atTable.status, atTable.body.code]).toEqual([409, 'CHAT_CLOSED']);
  });

  it('direct messages: between players who share a match, reaching the recipient as the player event directMessage; not to a stranger or oneself', async () => {
    const [ann, bob, eve] = await Promise.all([register(app, 'dma'), register(app, 'dmb'), register(app, 'dme')]);
    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    const events = pubsub.asyncIterableIterator<PlayerEvent>(playerChannel(bob.username));
    const next = (async () => {
      for (;;) {
        const e = await events.next();
        if (e.done || e.value.type === 'directMessage') return e;
      }
    })();
    await match([ann, bob], 'scopa');
    const sent = await say(ann, `/v1/messages/${bob.username.toUpperCase()}`, 'rematch later?');
    expect(sent.status).toBe(201);
    expect(sent.body.room).toEqual({ kind: 'direct', id: null, matchRoom: null, participants: [ann.username, bob.username].sort() });
    const event = (await next).value as Extract<PlayerEvent, { type: 'directMessage' }>;
    expect(event).toMatchObject({ type: 'directMessage', message: { id: sent.body.id, author: ann.username, text: 'rematch later?' } });
    void events.return?.();
    const history = await gqlOk(app, bob.token, `query($r: ChatRoomInput!) { chatMessages(room: $r) { items { author text } } }`, {
      r: { kind: 'direct', username: ann.username },
    });
    expect(history.chatMessages.items).toEqual([{ author: ann.username, text: 'rematch later?' }]);

    const stranger = await say(eve, `/v1/messages/${ann.username}`, 'hi');
    expect([stranger.status, stranger.body.code, stranger.body.reason]).toEqual([403, 'FORBIDDEN', 'notConnected']);
    expect((await say(ann, `/v1/messages/${ann.username}`, 'me')).body.code).toBe('VALIDATION_FAILED');
    expect((await say(ann, `/v1/messages/nobody-such-${Date.now()}`, 'hi')).body.code).toBe('NOT_FOUND');
    // a third party's conversation with ann is its own: nothing of ann and bob's is in it
    const peek = await gql(app, eve.token, `query($r: ChatRoomInput!) { chatMessages(room: $r) { items { text } } }`, {
      r: { kind: 'direct', username: ann.username },
    });
    expect(peek.data.chatMessages.items).toEqual([]);
  });

  it('plain text: `<img src=x onerror=alert(1)>` is stored and returned verbatim; 500 characters at most; no control characters; a repeat is refused; the per-account limit', async () => {
    const [ann, bob] = await Promise.all([register(app, 'txa'), register(app, 'txb')]);
    const sent = await say(ann, '/v1/lobby/chat', XSS);
    expect(sent.status).toBe(201);
    expect(sent.body.text).toBe(XSS);
    expect(sent.headers['content-type']).toMatch(/^application\/json/);
    const lobby = await read(bob, '/v1/lobby/chat?first=5');
    expect(lobby.body.items.find((m: any) => m.id === sent.body.id).text).toBe(XSS);
    const overGql = await gqlOk(app, bob.token, `query { chatMessages(room: { kind: lobby }, first: 5) { items { id text } } }`);
    expect(overGql.chatMessages.items.find((m: any) => m.id === sent.body.id).text).toBe(XSS);

    expect((await say(ann, '/v1/lobby/chat', 'é'.repeat(500))).status).toBe(201);
    const long = await say(ann, '/v1/lobby/chat', 'a'.repeat(501));
    expect([long.status, long.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    for (const bad of ['line one\nline two', 'bell\u0007', 'rtl\u202Eoverride', '   ']) {
      const res = await say(ann, '/v1/lobby/chat', bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
    }
    const again = await say(ann, '/v1/lobby/chat', XSS);
    expect([again.status, again.body.code, again.body.reason]).toEqual([429, 'RATE_LIMITED', 'repeated']);
    // CHAT_RATE_LIMIT=8 per minute: three sent above (the refusals of validation spend nothing), the repeat counted
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await say(ann, '/v1/lobby/chat', `message ${i}`)).status);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    const limited = await say(ann, '/v1/lobby/chat', 'one more');
    expect([limited.status, limited.body.code, limited.body.reason]).toEqual([429, 'RATE_LIMITED', 'account']);
  });

  it('the retention sweep deletes messages older than CHAT_RETENTION_DAYS (90) only', async () => {
    const ann = await register(app, 'rta');
    const sent = await say(ann, '/v1/lobby/chat', 'kept');
    expect(sent.status).toBe(201);
    const prisma = app.get(PrismaService);
    const old = randomUUID();
    const recent = randomUUID();
    await prisma.$executeRawUnsafe(
      `INSERT INTO chat_messages (id, room, author, author_id, text, sent_at) VALUES
         ($1::uuid, 'lobby', $3, $4::uuid, 'too old', now() - interval '91 days'), ($2::uuid, 'lobby', $3, $4::uuid, 'old but kept', now() - interval '89 days')`,
      old,
      recent,
      ann.username,
      ann.id,
    );
    expect(await app.get(ChatService).sweep()).toBeGreaterThanOrEqual(1);
    const left = await prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM chat_messages WHERE id IN ($1::uuid, $2::uuid, $3::uuid)`,
      old,
      recent,
      sent.body.id,
    );
    expect(left.map((r) => r.id).sort()).toEqual([recent, sent.body.id].sort());
  });

  it('a moderator-only removal: anyone else is FORBIDDEN', async () => {
    const ann = await register(app, 'mda');
    const sent = await say(ann, '/v1/lobby/chat', 'remove me?');
    const res = await http().delete(`/v1/chat/messages/${sent.body.id}`).set('authorization', auth(ann));
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
  it("direct messages follow the recipient's setting: everyone, followed (the players they follow), nobody", async () => {
    const [ann, bob, cat] = await Promise.all([register(app, 'dsa'), register(app, 'dsb'), register(app, 'dsc')]);
    const put = async (who: Account, path: string, body: Record<string, unknown> = {}) => {
      const res = await http().put(path).set('authorization', auth(who)).send(body);
      expect([path, res.status]).toEqual([path, 200]);
    };
    // ann and bob follow each other; cat shares a match with bob
    await put(ann, `/v1/users/${bob.username}/follow`);
    await put(bob, `/v1/users/${ann.username}/follow`);
    await match([bob, cat], 'scopa');
    // everyone (the default): both may write bob
    expect((await say(ann, `/v1/messages/${bob.username}`, 'from a friend')).status).toBe(201);
    expect((await say(cat, `/v1/messages/${bob.username}`, 'from an opponent')).status).toBe(201);
    // followed: only the players bob follows
    await put(bob, '/v1/account/message-settings', { directMessages: 'followed' });
    expect((await say(ann, `/v1/messages/${bob.username}`, 'still a friend')).status).toBe(201);
    const opponent = await say(cat, `/v1/messages/${bob.username}`, 'hello again');
    expect([opponent.status, opponent.body.code, opponent.body.reason, opponent.body.directMessages]).toEqual([
      403,
      'FORBIDDEN',
      'recipientSetting',
      'followed',
    ]);
    // nobody: nobody at all
    await put(bob, '/v1/account/message-settings', { directMessages: 'nobody' });
    for (const who of [ann, cat]) {
      const res = await say(who, `/v1/messages/${bob.username}`, `anyone there, ${who.username}?`);
      expect([res.status, res.body.code, res.body.reason]).toEqual([403, 'FORBIDDEN', 'recipientSetting']);
    }
    // bob still writes them (their settings are everyone)
    expect((await say(bob, `/v1/messages/${cat.username}`, 'gg')).status).toBe(201);
    const gqlRefused = await gql(app, cat.token, `mutation($r: ChatRoomInput!) { sendChatMessage(room: $r, text: "over GraphQL") { id } }`, {
      r: { kind: 'direct', username: bob.username },
    });
    expect(errorCode(gqlRefused)).toBe('FORBIDDEN');
  });

  it('a blocked pair sees none of each other’s messages (history and live) and cannot message each other (BLOCKED)', async () => {
    const [ann, bob, cat] = await Promise.all([register(app, 'bla'), register(app, 'blb'), register(app, 'blc')]);
    const id = await match([ann, bob], 'scopa');
    expect((await say(bob, `/v1/matches/${id}/chat`, 'before the block')).status).toBe(201);
    expect((await http().put(`/v1/users/${bob.username}/block`).set('authorization', auth(ann)).send({})).status).toBe(200);
    const annLive = await subscribe(ann, { kind: 'match', id });
    const catLive = await subscribe(cat, { kind: 'match', id });
    expect((await say(bob, `/v1/matches/${id}/chat`, 'after the block')).status).toBe(201);
    await catLive.until(1);
    expect(catLive.got.map((m) => m.text)).toEqual(['after the block']);
    await new Promise((r) => setTimeout(r, 300));
    expect(annLive.got).toEqual([]);
    expect((await read(ann, `/v1/matches/${id}/chat`)).body.items).toEqual([]);
    expect((await read(bob, `/v1/matches/${id}/chat`)).body.items.map((m: any) => m.text)).toEqual(['after the block', 'before the block']);
    // and the other way: bob does not see ann's
    expect((await say(ann, `/v1/matches/${id}/chat`, 'ann speaks')).status).toBe(201);
    expect((await read(bob, `/v1/matches/${id}/chat`)).body.items.map((m: any) => m.text)).toEqual(['after the block', 'before the block']);
    expect((await read(cat, `/v1/matches/${id}/chat`)).body.items.map((m: any) => m.text)).toEqual(['ann speaks', 'after the block', 'before the block']);
    for (const [from, to] of [
      [bob, ann],
      [ann, bob],
    ]) {
      const res = await say(from, `/v1/messages/${to.username}`, 'hello?');
      expect([res.status, res.body.code]).toEqual([403, 'BLOCKED']);
    }
  });

  it("a team's room: its members read and write it, others are FORBIDDEN; two members may message each other directly", async () => {
    const [ann, bob, eve] = await Promise.all([register(app, 'tma'), register(app, 'tmb'), register(app, 'tme')]);
    const team = await http()
      .post('/v1/teams')
      .set('authorization', auth(ann))
      .send({ name: `Chat team ${Date.now() % 100000}`, description: 'for the chat test', open: true });
    expect(team.status).toBe(201);
    expect((await http().post(`/v1/teams/${team.body.id}/join`).set('authorization', auth(bob)).send({})).status).toBe(200);
    expect((await say(bob, `/v1/teams/${team.body.id}/chat`, 'forza ragazzi')).status).toBe(201);
    expect((await read(ann, `/v1/teams/${team.body.id}/chat`)).body.items.map((m: any) => [m.author, m.text])).toEqual([[bob.username, 'forza ragazzi']]);
    const outsider = await say(eve, `/v1/teams/${team.body.id}/chat`, 'let me in');
    expect([outsider.status, outsider.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await read(eve, `/v1/teams/${team.body.id}/chat`)).status).toBe(403);
    // sharing a team is a connection for direct messages
    expect((await say(ann, `/v1/messages/${bob.username}`, 'see you at the club')).status).toBe(201);
  });
  it('a muted user is refused with CHAT_MUTED naming the end, until the end time; a moderator removes a message, which leaves every history and is pushed to the room (chatMessageRemoved)', async () => {
    const [ann, bob] = await Promise.all([register(app, 'mua'), register(app, 'mub')]);
    const mod = await registerNamed(app, MODERATOR);
    const id = await match([ann, bob], 'scopa');
    const said = await say(ann, `/v1/matches/${id}/chat`, 'before the mute');
    expect(said.status).toBe(201);
    const until = new Date(Date.now() + 2500).toISOString();
    const muted = await http().post(`/v1/admin/users/${ann.username}/mute`).set('authorization', auth(mod)).send({ until, reason: 'spam' });
    expect(muted.status).toBeLessThan(300);
    for (const path of [`/v1/matches/${id}/chat`, '/v1/lobby/chat', `/v1/messages/${bob.username}`]) {
      const res = await say(ann, path, 'while muted');
      expect([path, res.status, res.body.code, new Date(res.body.until).getTime()]).toEqual([path, 403, 'CHAT_MUTED', new Date(until).getTime()]);
    }
    const overGql = await gql(app, ann.token, `mutation($r: ChatRoomInput!) { sendChatMessage(room: $r, text: "muted?") { id } }`, { r: { kind: 'lobby' } });
    expect(errorCode(overGql)).toBe('CHAT_MUTED');
    expect(new Date(overGql.errors![0].extensions.until as string).getTime()).toBe(new Date(until).getTime());
    // bob is not muted
    expect((await say(bob, `/v1/matches/${id}/chat`, 'not muted')).status).toBe(201);
    // once the end time has passed, ann speaks again
    await new Promise((r) => setTimeout(r, Math.max(0, new Date(until).getTime() - Date.now()) + 200));
    expect((await say(ann, `/v1/matches/${id}/chat`, 'after the mute')).status).toBe(201);

    // the moderator removes a message: pushed live to the room's subscribers (not another room's), gone from the history, in the moderation log
    const [inRoom, inLobby] = await Promise.all([subscribeRemovals(bob, { kind: 'match', id }), subscribeRemovals(bob, { kind: 'lobby' })]);
    const bobStream = await openNdjson(`${base}/v1/matches/${id}/stream?chat=true`, bob.token);
    expect(bobStream.status).toBe(200);
    const removed = await http().delete(`/v1/chat/messages/${said.body.id}?reason=spam`).set('authorization', auth(mod));
    expect([removed.status, removed.body.id]).toEqual([200, said.body.id]);
    await inRoom.until(1);
    expect(inRoom.got).toEqual([{ id: said.body.id, room: { kind: 'match', id, matchRoom: 'players' }, removedAt: expect.any(String) }]);
    // the match's NDJSON stream with chat=true: a chatRemoved line
    await bobStream.waitUntil(() => bobStream.lines.some((l) => 'chatRemoved' in l), 5000, 'a chatRemoved line');
    expect(bobStream.lines.filter((l) => 'chatRemoved' in l)).toEqual([
      { chatRemoved: { id: said.body.id, room: { kind: 'match', id, matchRoom: 'players', participants: null }, removedAt: expect.any(String) } },
    ]);
    bobStream.close();
    expect(inRoom.errors).toEqual([]);
    expect([inLobby.got, inLobby.errors]).toEqual([[], []]);
    expect((await read(bob, `/v1/matches/${id}/chat`)).body.items.map((m: any) => m.text)).toEqual(['after the mute', 'not muted']);
    const again = await gql(app, mod.token, `mutation($id: ID!) { removeChatMessage(id: $id) { id } }`, { id: said.body.id });
    expect(errorCode(again)).toBe('CONFLICT');
    const log = await http().get('/v1/admin/moderation-log').set('authorization', auth(mod));
    expect(log.status).toBe(200);
    expect(log.text).toContain(said.body.id);
    expect(log.text).toContain('messageRemoved');
  });
});
