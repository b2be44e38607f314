/**
 * Issue 42 on PGlite: the cost of what a GraphQL document reads (item 1,
 * "Cost"), the anonymous budget, the response size bound, prototype
 * members in JSON bodies, and the listen address (HOST). The same flood on
 * PostgreSQL: test/cost.pg-spec.ts.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { listen } from '../src/app.setup';
import { PrismaService } from '../src/database/prisma.service';
import { ANALYSIS_DECISIONS_PRICED, TOURNAMENT_PLAYERS_PRICED } from '../src/limits/request-cost';
import { TOURNAMENT_INVITED_MAX, TOURNAMENT_MAX_PLAYERS } from '../src/tournaments/tournaments.service';
import { createTestApp } from './support/app';
import { STANDING_FIELDS, floodCases, get, graphql, post, standingsDocument, startedSwiss } from './cost/flood-suite';
import type { Field } from './cost/flood-suite';

jest.setTimeout(600_000);

const SETTINGS = [
  'RATE_LIMIT',
  'ARGON2_MEMORY_KIB',
  'ARGON2_PASSES',
  'RESPONSE_MAX_BYTES',
  'GRAPHQL_MAX_COST_ANONYMOUS',
  'HOST',
  'CLOCK_POLL_MS',
  'WEBHOOK_POLL_MS',
];
const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
function restoreEnv(): void {
  for (const k of SETTINGS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
}
/** An app built with these settings; the process's environment is restored after it is built. */
async function appWith(env: Record<string, string>): Promise<INestApplication> {
  try {
    return await createTestApp(env);
  } finally {
    restoreEnv();
  }
}

// Accounts are registered by the hundred: argon2 at its cheapest (the suite is about what follows).
const FAST = { ARGON2_MEMORY_KIB: '8', ARGON2_PASSES: '1', CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0' };

describe('the cost of what a GraphQL document reads: a 256-player Swiss (e2e, PGlite)', () => {
  let app: INestApplication;
  let http: string;
  let field: Field;
  beforeAll(async () => {
    app = await appWith({ ...FAST, RATE_LIMIT: '100000', RESPONSE_MAX_BYTES: '50000' });
    // HOST unset: every interface, as before (the requests go to loopback)
    const address = await listen(app, { PORT: 0, HOST: undefined });
    expect(['::', '0.0.0.0']).toContain(address.address);
    http = `http://127.0.0.1:${address.port}`;
    field = await startedSwiss(http, TOURNAMENT_MAX_PLAYERS, 'fl');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('prices the lists at the caps the tournaments feature sets', () => {
    expect(TOURNAMENT_PLAYERS_PRICED).toBe(TOURNAMENT_MAX_PLAYERS);
    expect(TOURNAMENT_PLAYERS_PRICED).toBe(TOURNAMENT_INVITED_MAX);
    expect(ANALYSIS_DECISIONS_PRICED).toBeGreaterThan(0);
  });

  floodCases(
    () => ({ http }),
    () => field,
    TOURNAMENT_MAX_PLAYERS,
  );

  it('an anonymous document has the lower budget (20 units, nothing spent when refused); with a credential it costs what it reads', async () => {
    const { tournamentId, players } = field;
    const three = standingsDocument(3, 'rank player'); // 3 x 8 units
    const remaining = async (token?: string) => Number((await get(http, '/v1/rulesets', token)).headers.get('ratelimit-remaining'));

    const before = await remaining();
    const anonymous = await graphql(http, three, { id: tournamentId });
    expect(anonymous.body.data ?? null).toBeNull();
    expect(anonymous.body.errors.length).toBeGreaterThan(0);
    for (const e of anonymous.body.errors) expect(e.extensions).toMatchObject({ code: 'VALIDATION_FAILED', cost: 24, maxCost: 20, anonymous: true });
    // refused before it ran: the address paid for the rulesets read after it only
    expect(await remaining()).toBe(before - 1);

    // two aliases (16 units) are within the anonymous budget
    const two = await graphql(http, standingsDocument(2, 'rank player'), { id: tournamentId });
    expect(two.body.errors).toBeUndefined();
    expect([two.body.data.t0.standings.length, two.body.data.t1.standings.length]).toEqual([256, 256]);

    // with a credential the same three aliases run, and cost their 24 units
    const token = players[1].token;
    const mine = await remaining(token);
    const paid = await graphql(http, three, { id: tournamentId }, token);
    expect(paid.body.errors).toBeUndefined();
    expect(paid.body.data.t2.standings).toHaveLength(256);
    expect(Number(paid.headers.get('ratelimit-remaining'))).toBe(mine - 24);
  });

  it('a read whose response is larger than RESPONSE_MAX_BYTES is not sent: VALIDATION_FAILED with its size, over GraphQL and REST', async () => {
    const { tournamentId, players } = field;
    // the full standings of 256 players cost 8 units and come to some 55,000 bytes
    const big = await graphql(http, standingsDocument(1, STANDING_FIELDS), { id: tournamentId }, players[2].token);
    expect(big.status).toBe(400);
    expect(big.body.data ?? null).toBeNull();
    expect(big.body.errors).toHaveLength(1);
    expect(big.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'responseTooLarge', maxResponseBytes: 50000 });
    expect(big.body.errors[0].extensions.responseBytes).toBeGreaterThan(50000);
    const rest = await get(http, `/v1/tournaments/${tournamentId}/standings`);
    expect(rest.status).toBe(400);
    expect(rest.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(rest.body).toMatchObject({ code: 'VALIDATION_FAILED', reason: 'responseTooLarge', maxResponseBytes: 50000 });
    expect(rest.body.responseBytes).toBeGreaterThan(50000);
    // smaller reads are sent as they are
    const fewer = await graphql(http, standingsDocument(1, 'rank player matchPoints'), { id: tournamentId }, players[2].token);
    expect(fewer.body.data.t0.standings).toHaveLength(256);
    const tournament = await get(http, `/v1/tournaments/${tournamentId}`);
    expect(tournament.status).toBe(200);
    expect(tournament.body.players).toHaveLength(256);
  });
});

describe('prototype members in bodies, and HOST (e2e, PGlite)', () => {
  let app: INestApplication;
  let http: string;
  let port: number;
  let alice: { username: string; token: string };
  beforeAll(async () => {
    app = await appWith({ ...FAST, RATE_LIMIT: '100000' });
    const address = await listen(app, { PORT: 0, HOST: '127.0.0.1' });
    port = address.port;
    http = `http://127.0.0.1:${port}`;
    const reg = await post(http, '/v1/auth/register', { username: `proto${Date.now() % 100000}`, password: 'password-of-proto' });
    expect(reg.status).toBe(201);
    alice = { username: reg.body.account.username, token: reg.body.accessToken };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('HOST=127.0.0.1 listens on that address only', async () => {
    const address = app.getHttpServer().address() as AddressInfo;
    expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port });
    expect((await get(http, '/health')).status).toBe(200);
    const reach = (host: string) =>
      new Promise<string>((resolve) => {
        const socket = connect({ host, port });
        socket.once('connect', () => (socket.destroy(), resolve('connected')));
        socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
    expect(await reach('127.0.0.1')).toBe('connected');
    // every other address of this machine is refused (IPv6 loopback, and each non-loopback interface there is)
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const other of [...others, '::1']) expect([other, await reach(other)]).not.toEqual([other, 'connected']);
  });

  const count = async (table: string) => (await app.get(PrismaService).$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  /** A JSON text with `member` as an own key of the object at `at` (JSON.parse keeps __proto__ as one). */
  const withMember = (fields: Record<string, unknown>, member: string) => `{${JSON.stringify(member)}:{"polluted":true},${JSON.stringify(fields).slice(1)}`;

  it('a __proto__ or constructor member of a REST body is 400 VALIDATION_FAILED, like any unknown member, and changes nothing', async () => {
    const tournament = { name: 'Proto', format: 'swiss', preset: 'scopa' };
    const tournaments = await count('tournaments');
    const unknown = await post(http, '/v1/tournaments', { ...tournament, foo: 1 }, alice.token);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    for (const member of ['__proto__', 'constructor', 'prototype']) {
      const res = await post(http, '/v1/tournaments', withMember(tournament, member), alice.token);
      expect({ member, status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
        member,
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ field: member, messages: [`property ${member} should not exist`] }],
      });
    }
    expect(await count('tournaments')).toBe(tournaments);
    // nested, in a seat of a new match
    const matches = await count('matches');
    const nested = await post(http, '/v1/matches', '{"preset":"scopa","seats":[{"type":"open","__proto__":{"type":"bot"}}]}', alice.token);
    expect([nested.status, nested.body.code, nested.body.errors]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ field: 'seats[0].__proto__', messages: ['property __proto__ should not exist'] }],
    ]);
    expect(await count('matches')).toBe(matches);

    // a declaration and a play on a match of alice's: refused, the match's log unchanged
    const created = await post(http, '/v1/matches', { preset: 'cirulla' }, alice.token);
    expect(created.status).toBe(201);
    const seq = (await get(http, `/v1/matches/${created.body.id}`, alice.token)).body.seq;
    const declared = await post(http, `/v1/matches/${created.body.id}/declarations`, withMember({}, 'constructor').replace(',}', '}'), alice.token);
    expect([declared.status, declared.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const played = await post(http, `/v1/matches/${created.body.id}/plays`, withMember({ card: '7D', capture: [] }, '__proto__'), alice.token);
    expect([played.status, played.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await get(http, `/v1/matches/${created.body.id}`, alice.token)).body.seq).toBe(seq);
    // a query string too
    const listed = await get(http, '/v1/tournaments?__proto__=x');
    expect([listed.status, listed.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // a webhook and a token
    const hooks = await count('webhooks');
    const hook = await post(http, '/v1/webhooks', withMember({ url: 'https://example.com/hook', events: ['matchEnded'] }, '__proto__'), alice.token);
    expect([hook.status, hook.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await count('webhooks')).toBe(hooks);
    const token = await post(http, '/v1/tokens', withMember({ name: 'ci', scopes: ['read'] }, 'constructor'), alice.token);
    expect([token.status, token.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('a page sized by a variable counts at its value: over the budget with it, refused before any field runs', async () => {
    const events = (n: number) =>
      `query($m: ID!, $l: Int) { ${Array.from({ length: n }, (_, i) => `e${i}: matchEvents(matchId: $m, limit: $l) { seq }`).join(' ')} }`;
    const created = await post(http, '/v1/matches', { preset: 'scopa' }, alice.token);
    // six pages of 1,000 events: 60 units (validation counted the default page, 6)
    const over = await graphql(http, events(6), { m: created.body.id, l: 1000 }, alice.token);
    expect(over.body.data ?? null).toBeNull();
    for (const e of over.body.errors) expect(e.extensions).toMatchObject({ code: 'VALIDATION_FAILED', cost: 60, maxCost: 50 });
    const within = await graphql(http, events(6), { m: created.body.id, l: 500 }, alice.token);
    expect(within.body.errors).toBeUndefined();
    expect(within.body.data.e5).toEqual(expect.any(Array));
  });

  it('over GraphQL, a __proto__ member of an input object is refused too, and nothing is created', async () => {
    const tournaments = await count('tournaments');
    const input = JSON.parse('{"name":"Proto","format":"swiss","preset":"scopa","__proto__":{"rated":true}}');
    const res = await graphql(http, 'mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }', { i: input }, alice.token);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(await count('tournaments')).toBe(tournaments);
  });
});
