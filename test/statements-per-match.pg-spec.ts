/**
 * Issue 44, "Only the matches a reaction concerns pay for it": the SQL
 * statements each operation on a match sends to PostgreSQL, counted at the
 * driver (pg's Client.query, which Prisma's adapter and the store's own
 * statements go through), keeping those whose parameters name the match (so
 * that the instance's periodic work, which names none, does not count).
 *
 * A plain match (a person's create with a seat open or reserved, not a
 * tournament table, no pending start, no rematch) pays no lookup for what it
 * is not: its snapshot knows, from its first event, that it was not created
 * with every seat seated (src/match-store/snapshot-cache.ts createdFull), so
 * it is neither a rematch nor a table; a start is asked for only once every
 * seat is taken; and the lobby entry of a public one comes from the snapshot.
 * The matches those lookups concern still get them (the last three tests).
 */
import { jest } from '@jest/globals';
import pg from 'pg';
import type { INestApplication } from '@nestjs/common';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { post, get, startedSwiss } from './cost/flood-suite';
import { MatchStore } from '../src/match-store/match-store';
import { rowFromSnapshot } from '../src/lobby/lobby.service';

jest.setTimeout(300_000);

interface Sent {
  text: string;
  values: string;
}
const sent: Sent[] = [];
let recording = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: unknown }).query = function (this: unknown, q: unknown, ...rest: unknown[]) {
  if (recording) {
    const text = typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? '');
    const values = typeof q === 'object' && q !== null && 'values' in q ? (q as { values: unknown }).values : Array.isArray(rest[0]) ? rest[0] : [];
    sent.push({ text: text.replace(/\s+/g, ' ').trim(), values: JSON.stringify(values) ?? '' });
  }
  return query.call(this, q, ...rest);
};

/** Runs `op` (an HTTP call whose reactions it waits for) and returns its answer and the statements that named the match. */
async function statementsOf<T>(op: () => Promise<T>, matchIdOf: (answer: T) => string): Promise<{ answer: T; texts: string[] }> {
  sent.length = 0;
  recording = true;
  let answer: T;
  try {
    answer = await op();
    await new Promise((r) => setTimeout(r, 150)); // anything the request left running after its answer
  } finally {
    recording = false;
  }
  const id = matchIdOf(answer);
  return { answer, texts: sent.filter((s) => s.values.includes(id)).map((s) => s.text) };
}

/** The lookups a plain match no longer pays for, by their statements. */
const LOOKUPS = {
  pendingStart: /FROM match_clocks WHERE match_id = \$1::uuid AND kind = 'start'/,
  rematch: /FROM rematch_offers WHERE new_match_id/,
  tournamentTable: /FROM tournament_tables WHERE match_id/,
  lobbyRow: /payload->'settings'->>'rated'/,
};
const lookupsIn = (texts: string[]) => Object.entries(LOOKUPS).flatMap(([name, re]) => (texts.some((t) => re.test(t)) ? [name] : []));

describe('statements per operation on a match (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  // `a`: no client-seed window (a start deals at once); `b`: a 30 s window, on the same database.
  let a: { app: INestApplication; http: string };
  let b: { app: INestApplication; http: string };
  const quiet = {
    RATE_LIMIT: '100000',
    ARGON2_MEMORY_KIB: '8',
    ARGON2_PASSES: '1',
    CLOCK_POLL_MS: '0',
    WEBHOOK_POLL_MS: '0',
    BOT_SWEEP_MS: '0',
    SEEK_SWEEP_MS: '0',
  };
  let users: { username: string; token: string }[];
  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, quiet);
    b = await startInstance(db.url, { ...quiet, CLIENT_SEED_WINDOW: '30000' });
    users = [];
    for (let i = 0; i < 3; i++) {
      const username = `spm${Math.random().toString(36).slice(2, 8)}${i}`;
      const res = await post(a.http, '/v1/auth/register', { username, password: `password-of-${username}` });
      expect(res.status).toBe(201);
      users.push({ username, token: res.body.accessToken });
    }
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const byId = (r: { body: any }) => String(r.body.id);

  it('a plain private match: create 3, join 1, start 1, play 1, a player reads 2, a stranger reads 2', async () => {
    const [alice, bob, carol] = users;
    // Before (the pending-start, rematch and tournament-table lookups ran for every match): create 5, join 2, start 1,
    // play 1, a player's read 3, a stranger's read 4.
    const created = await statementsOf(
      () =>
        post(
          a.http,
          '/v1/matches',
          { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }], visibility: 'private' },
          alice.token,
        ),
      byId,
    );
    expect(created.answer.status).toBe(201);
    const id = byId(created.answer);
    const joined = await statementsOf(
      () => post(a.http, `/v1/matches/${id}/join`, {}, bob.token),
      () => id,
    );
    expect(joined.answer.status).toBe(200);
    expect(joined.answer.body.startsAt ?? null).toBeNull();
    const started = await statementsOf(
      () => post(a.http, `/v1/matches/${id}/start`, {}, alice.token),
      () => id,
    );
    expect(started.answer.status).toBe(200);
    const turn = started.answer.body.view.turn === 0 ? alice : bob;
    const plays = await get(a.http, `/v1/matches/${id}/legal-plays`, turn.token);
    const played = await statementsOf(
      () => post(a.http, `/v1/matches/${id}/plays`, plays.body.plays[0], turn.token),
      () => id,
    );
    expect(played.answer.status).toBe(200);
    const read = await statementsOf(
      () => get(a.http, `/v1/matches/${id}`, alice.token),
      () => id,
    );
    expect(read.answer.status).toBe(200);
    expect(read.answer.body.rematchOf ?? null).toBeNull();
    const stranger = await statementsOf(
      () => get(a.http, `/v1/matches/${id}`, carol.token),
      () => id,
    );
    expect(stranger.answer.status).toBe(200);

    const counts = [created, joined, started, played, read, stranger].map((o) => o.texts.length);
    expect({ counts, lookups: [created, joined, started, played, read, stranger].flatMap((o) => lookupsIn(o.texts)) }).toEqual({
      counts: [3, 1, 1, 1, 2, 2],
      lookups: [],
    });
  });

  it('a public match with an open seat (as bench:api makes them): create 3, join 1; its lobby changes read nothing', async () => {
    const [alice, bob] = users;
    // Before: create 6 (with the lobby row), join 3 (the lobby row, the pending start).
    const created = await statementsOf(
      () => post(a.http, '/v1/matches', { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] }, alice.token),
      byId,
    );
    expect(created.answer.status).toBe(201);
    const id = byId(created.answer);
    const joined = await statementsOf(
      () => post(a.http, `/v1/matches/${id}/join`, {}, bob.token),
      () => id,
    );
    expect(joined.answer.status).toBe(200);
    expect({ counts: [created.texts.length, joined.texts.length], lookups: [...lookupsIn(created.texts), ...lookupsIn(joined.texts)] }).toEqual({
      counts: [3, 1],
      lookups: [],
    });
  });

  it("the lobby entry made from a match's snapshot is the one its row gives, from the create on", async () => {
    const [alice, bob] = users;
    const store = a.app.get(MatchStore);
    const ruleset = await post(a.http, '/v1/custom-rulesets', { name: 'short', preset: 'scopa-fr', overrides: { target: 5 } }, alice.token);
    expect(ruleset.status).toBe(201);
    const orders = [
      { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] },
      { preset: 'scopa', rated: true, turnTimeLimit: 'PT30S', onExpiry: 'forfeit', seats: [{ type: 'creator' }, { type: 'open' }] },
      { preset: 'scopa', overrides: { players: 3 }, seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }, { type: 'open' }] },
      { preset: 'scopa', overrides: { players: 3 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }, { type: 'open' }] },
      { rulesetId: ruleset.body.id, seats: [{ type: 'creator' }, { type: 'open' }] },
    ];
    const same = async (id: string) => {
      const snap = store.peek(id)!;
      expect(snap.createdFull).toBe(false);
      expect(rowFromSnapshot(id, snap)).toEqual(await store.lobbyRow(id));
    };
    for (const order of orders) {
      const created = await post(a.http, '/v1/matches', order, alice.token);
      expect(created.status).toBe(201);
      await same(created.body.id);
      // A seat taken, another still open (the lobby's update), then the match as this process folds it from the log.
      if (order.seats.length === 3) {
        expect((await post(a.http, `/v1/matches/${created.body.id}/join`, {}, bob.token)).status).toBe(200);
        await same(created.body.id);
      }
      const other = b.app.get(MatchStore);
      await other.current(created.body.id);
      expect(rowFromSnapshot(created.body.id, other.peek(created.body.id)!)).toEqual(await store.lobbyRow(created.body.id));
    }
  });

  it('a rematch still reads what it is a rematch of', async () => {
    const [alice, bob] = users;
    const created = await post(
      a.http,
      '/v1/matches',
      { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] },
      alice.token,
    );
    const id = byId(created);
    expect((await post(a.http, `/v1/matches/${id}/join`, {}, bob.token)).status).toBe(200);
    expect((await post(a.http, `/v1/matches/${id}/start`, {}, alice.token)).status).toBe(200);
    expect((await post(a.http, `/v1/matches/${id}/resign`, {}, alice.token)).status).toBe(200);
    expect((await post(a.http, `/v1/matches/${id}/rematch`, {}, alice.token)).status).toBe(200);
    const offer = await post(a.http, `/v1/matches/${id}/rematch`, {}, bob.token);
    expect(offer.body.newMatchId).toEqual(expect.any(String));
    const read = await statementsOf(
      () => get(a.http, `/v1/matches/${offer.body.newMatchId}`, alice.token),
      () => offer.body.newMatchId as string,
    );
    expect(read.answer.body.rematchOf).toBe(id);
    expect(lookupsIn(read.texts)).toContain('rematch');
  });

  it('a pending start is still read once every seat is taken (not by the join that took the last seat)', async () => {
    const [alice, bob] = users;
    const created = await post(
      b.http,
      '/v1/matches',
      { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] },
      alice.token,
    );
    const id = byId(created);
    const joined = await statementsOf(
      () => post(b.http, `/v1/matches/${id}/join`, {}, bob.token),
      () => id,
    );
    expect(joined.answer.body.startsAt ?? null).toBeNull();
    expect(lookupsIn(joined.texts)).toEqual([]);
    const asked = await post(b.http, `/v1/matches/${id}/start`, {}, alice.token);
    expect(asked.status).toBe(202);
    expect(asked.body.startsAt).toEqual(expect.any(String));
    const read = await statementsOf(
      () => get(b.http, `/v1/matches/${id}`, bob.token),
      () => id,
    );
    expect(read.answer.body.status).toBe('open');
    expect(read.answer.body.startsAt).toBe(asked.body.startsAt);
    expect(lookupsIn(read.texts)).toContain('pendingStart');
    // The seeds come in: the last one deals at once.
    expect((await post(b.http, `/v1/matches/${id}/client-seed`, { clientSeed: 'ab' }, alice.token)).status).toBe(200);
    const dealt = await post(b.http, `/v1/matches/${id}/client-seed`, { clientSeed: 'cd' }, bob.token);
    expect(dealt.body.status).toBe('playing');
  });

  it('a table of a running duplicate round is still hidden from a stranger', async () => {
    const field = await startedSwissOf(a.http);
    let tables: { matchId: string | null; players: string[] }[] = [];
    for (let i = 0; i < 200 && tables.length === 0; i++) {
      const round = await get(a.http, `/v1/tournaments/${field.tournamentId}/rounds/1`, field.players[0].token);
      if (round.status === 200) tables = round.body.tables;
      else await new Promise((r) => setTimeout(r, 50));
    }
    const table = tables.find((t) => t.matchId)!;
    const player = field.players.find((p) => p.username === table.players[0])!;
    const stranger = field.players.find((p) => !table.players.includes(p.username))!;
    const hidden = await statementsOf(
      () => get(a.http, `/v1/matches/${table.matchId}`, stranger.token),
      () => table.matchId!,
    );
    expect(hidden.answer.status).toBe(403);
    expect(hidden.answer.body.code).toBe('TOURNAMENT_TABLE_HIDDEN');
    expect(lookupsIn(hidden.texts)).toContain('tournamentTable');
    expect((await get(a.http, `/v1/matches/${table.matchId}`, player.token)).status).toBe(200);
  });
});

/** A 4-player duplicate Swiss, started (startedSwiss of test/cost/flood-suite.ts, with duplicate deals). */
async function startedSwissOf(http: string): Promise<Awaited<ReturnType<typeof startedSwiss>>> {
  const stamp = Math.random().toString(36).slice(2, 7);
  const players: { username: string; token: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const username = `spt${stamp}${i}`;
    const res = await post(http, '/v1/auth/register', { username, password: `password-of-${username}` });
    players.push({ username, token: res.body.accessToken });
  }
  const created = await post(
    http,
    '/v1/tournaments',
    { name: 'Duplicate', format: 'swiss', preset: 'scopa', maxPlayers: 4, rounds: 2, duplicate: true },
    players[0].token,
  );
  expect(created.status).toBe(201);
  const tournamentId = created.body.id as string;
  for (const p of players) expect((await post(http, `/v1/tournaments/${tournamentId}/join`, {}, p.token)).status).toBe(200);
  expect((await post(http, `/v1/tournaments/${tournamentId}/start`, {}, players[0].token)).status).toBe(200);
  return { tournamentId, players };
}
