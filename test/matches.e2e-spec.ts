import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { auditNotation } from '../src/match-formats/notation';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { LeakScanner } from './support/leaks';
import { graphqlTransport, playToEnd, restTransport } from './support/play';
import type { Transport } from './support/play';

jest.setTimeout(300_000);

describe('full matches over REST and GraphQL (e2e)', () => {
  let app: INestApplication;
  let scanner: LeakScanner;
  let rest: Transport;
  let graphql: Transport;
  let auditor: Account;
  const finished: string[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    scanner = new LeakScanner(app);
    const observe = (who: Account, matchId: string, label: string, body: string) => scanner.scan(who.username, matchId, label, body);
    rest = restTransport(app, observe);
    graphql = graphqlTransport(app, observe);
    auditor = await register(app, 'auditor');
  });
  afterAll(async () => {
    await app?.close();
  });

  async function twoPlayer(t: Transport, preset: string, overrides: Record<string, unknown>) {
    const alice = await register(app, 'alice');
    const bob = await register(app, 'bob');
    const created = await t.create(alice, { preset, overrides, seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    expect(created.status).toBe('open');
    await t.join(bob, created.id);
    const started = await t.start(alice, created.id);
    expect(started.status).toBe('playing');
    const over = await playToEnd(t, [alice, bob], created.id);
    expect(over.status).toBe('over');
    expect(over.reveal.seed).toMatch(/^[0-9a-f]{64}$/);
    finished.push(created.id);
    return created.id as string;
  }

  it('two accounts play scopa to the end over GraphQL', async () => {
    await twoPlayer(graphql, 'scopa', { target: 3 });
  });

  it('two accounts play scopa-quindici to the end over REST', async () => {
    await twoPlayer(rest, 'scopa-quindici', { target: 3 });
  });

  it('four accounts play a scopone team game to the end over GraphQL', async () => {
    const [a, b, c, d] = await Promise.all([register(app, 'p'), register(app, 'q'), register(app, 'r'), register(app, 's')]);
    const created = await graphql.create(a, { preset: 'scopone', overrides: { target: 2 }, seats: [{ type: 'creator' }] });
    for (const p of [b, c, d]) await graphql.join(p, created.id);
    await graphql.start(a, created.id);
    const over = await playToEnd(graphql, [a, b, c, d], created.id);
    expect(over.view.sides).toHaveLength(2);
    finished.push(created.id);
  });

  it('one account against a greedy bot over REST', async () => {
    const alice = await register(app, 'solo');
    const created = await rest.create(alice, { preset: 're-bello', overrides: { target: 2 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await rest.start(alice, created.id);
    await playToEnd(rest, [alice], created.id);
    finished.push(created.id);
  });

  it('no payload before the end named a hidden card or the seed', () => {
    expect(scanner.scanned).toBeGreaterThan(100);
    expect(scanner.leaks).toEqual([]);
  });

  it('a third account replays and verifies every finished match', async () => {
    expect(finished.length).toBeGreaterThanOrEqual(4);
    const http = () => request(app.getHttpServer());
    for (const id of finished) {
      const audit = await http().get(`/v1/matches/${id}/audit`).set('authorization', `Bearer ${auditor.token}`);
      expect(audit.body).toMatchObject({ sound: true, checked: 'chain+rules' });
      const events = await http().get(`/v1/matches/${id}/events?fromSeq=1&limit=1000`).set('authorization', `Bearer ${auditor.token}`);
      expect(events.body[0].type).toBe('MatchCreated');
      expect(events.body.map((e: { seq: number }) => e.seq)).toEqual(events.body.map((_: unknown, i: number) => i + 1));
      const mid = Math.ceil(events.body.length / 2);
      const replay = await http().get(`/v1/matches/${id}?atSeq=${mid}`).set('authorization', `Bearer ${auditor.token}`);
      expect(replay.status).toBe(200);
      expect(replay.body.seq).toBe(mid);
      expect(replay.headers.etag).toBe(`"${mid}"`);
      expect(replay.body.reveal.hands.length).toBe(replay.body.view.seats.length);
      const gql = await http()
        .post('/graphql')
        .set('authorization', `Bearer ${auditor.token}`)
        .send({ query: 'query($id: ID!) { audit(matchId: $id) { sound checked events } match(id: $id) { status reveal { seed } } }', variables: { id } });
      expect(gql.body.data.audit.sound).toBe(true);
      expect(gql.body.data.match.reveal.seed).toMatch(/^[0-9a-f]{64}$/);
      const exported = await http().get(`/v1/matches/${id}/export`).set('authorization', `Bearer ${auditor.token}`);
      expect(exported.status).toBe(200);
      expect(exported.text.split('\n').filter(Boolean).length).toBe(events.body.length + 1);
    }
  });

  it('serves the notation of a finished match (export, Accept: text/plain), which the offline audit accepts, and refuses it before the end', async () => {
    const http = () => request(app.getHttpServer());
    const notation = await http().get(`/v1/matches/${finished[0]}/export`).set('authorization', `Bearer ${auditor.token}`).set('accept', 'text/plain');
    expect(notation.status).toBe(200);
    expect(notation.headers['content-type']).toMatch(/^text\/plain/);
    expect(notation.text).toMatch(/^\[Event "Scopa match"\]/);
    expect(auditNotation(notation.text)).toMatchObject({ sound: true });
    const open = await rest.create(auditor, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    const early = await http().get(`/v1/matches/${open.id}/export`).set('authorization', `Bearer ${auditor.token}`).set('accept', 'text/plain');
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('FORBIDDEN');
  });
});
