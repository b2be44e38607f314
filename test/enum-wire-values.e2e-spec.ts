/**
 * The GraphQL enums that were strings keep their wire values: the same match
 * read over GraphQL and REST gives the same strings (status, phase, onExpiry,
 * result reason, seat bot levels, options), and an enum input is taken as a
 * variable exactly as the string it was.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

describe('GraphQL enums keep the wire values (e2e)', () => {
  let app: INestApplication;
  let alice: Account;

  beforeAll(async () => {
    app = await createTestApp();
    alice = await register(app, 'wire');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a resigned match against a bot reads the same over GraphQL and REST', async () => {
    // onExpiry as a variable: the string a client sent before it was an enum
    const { createMatch } = await gqlOk(app, alice.token, 'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }', {
      input: { preset: 'scopa', turnTimeLimit: 'PT1H', onExpiry: 'forfeit', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] },
    });
    const id = createMatch.id as string;
    const auth = { authorization: `Bearer ${alice.token}` };
    expect((await request(app.getHttpServer()).post(`/v1/matches/${id}/start`).set(auth).send({})).status).toBe(200);
    expect((await request(app.getHttpServer()).post(`/v1/matches/${id}/resign`).set(auth).send({})).status).toBe(200);

    const { match } = await gqlOk(
      app,
      alice.token,
      `query($id: ID!) { match(id: $id) { status view { phase settings { onExpiry } result { reason } seats { bot } options { capture cardsPoint denariPoint primiera } } } }`,
      { id },
    );
    const rest = (await request(app.getHttpServer()).get(`/v1/matches/${id}`).set(auth)).body;
    expect(match.status).toBe('over');
    expect(match.view.settings.onExpiry).toBe('forfeit');
    expect(match.view.result.reason).toBe('resignation');
    expect(match.view.seats.map((s: { bot: string | null }) => s.bot)).toEqual([null, 'greedy']);
    expect({
      status: rest.status,
      phase: rest.view.phase,
      onExpiry: rest.view.settings.onExpiry,
      reason: rest.view.result.reason,
      bots: rest.view.seats.map((s: { bot: string | null }) => s.bot),
      options: {
        capture: rest.view.options.capture,
        cardsPoint: rest.view.options.cardsPoint,
        denariPoint: rest.view.options.denariPoint,
        primiera: rest.view.options.primiera,
      },
    }).toEqual({
      status: match.status,
      phase: match.view.phase,
      onExpiry: match.view.settings.onExpiry,
      reason: match.view.result.reason,
      bots: match.view.seats.map((s: { bot: string | null }) => s.bot),
      options: match.view.options,
    });

    const { myMatches } = await gqlOk(app, alice.token, '{ myMatches(status: over) { id status seats { bot } } }');
    expect(myMatches.find((m: { id: string }) => m.id === id)).toEqual({ id, status: 'over', seats: [{ bot: null }, { bot: 'greedy' }] });
  });
});
