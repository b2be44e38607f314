/** A client can send back a legal play exactly as legalPlays gave it, over REST and GraphQL. */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

describe('a legal play sent back as it was given (e2e)', () => {
  let app: INestApplication;
  let alice: Account;

  beforeAll(async () => {
    app = await createTestApp();
    alice = await register(app, 'alice');
  });
  afterAll(async () => {
    await app?.close();
  });

  async function startedAgainstBot(): Promise<string> {
    const created = await request(app.getHttpServer())
      .post('/v1/matches')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
    const started = await request(app.getHttpServer()).post(`/v1/matches/${created.body.id}/start`).set('authorization', `Bearer ${alice.token}`).send({});
    expect(started.status).toBe(200);
    return created.body.id;
  }

  it('over REST: the first play of legal-plays, scopa flag included, is accepted', async () => {
    const id = await startedAgainstBot();
    const legal = await request(app.getHttpServer()).get(`/v1/matches/${id}/legal-plays`).set('authorization', `Bearer ${alice.token}`);
    const play = legal.body.plays[0];
    expect(play).toHaveProperty('scopa');
    const res = await request(app.getHttpServer()).post(`/v1/matches/${id}/plays`).set('authorization', `Bearer ${alice.token}`).send(play);
    expect(res.status).toBe(200);
    expect(res.body.seq).toBeGreaterThan(legal.body.seq);
  });

  it('over GraphQL: legalPlays { card capture scopa } goes back into play(input:) as it is', async () => {
    const id = await startedAgainstBot();
    const { legalPlays } = await gqlOk(app, alice.token, 'query($id: ID!) { legalPlays(matchId: $id) { seq plays { card capture scopa } } }', { id });
    const { play } = await gqlOk(app, alice.token, 'mutation($id: ID!, $p: PlayInput!) { play(matchId: $id, input: $p) { seq } }', {
      id,
      p: legalPlays.plays[0],
    });
    expect(play.seq).toBeGreaterThan(legalPlays.seq);
  });
});
