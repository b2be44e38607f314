/**
 * Tournaments over the public API on PGlite (docs/tournaments.md): an
 * 8-player 3-round Swiss, a 6-player Swiss paired by scores before seats
 * (issue 41) and a 4-player round robin played to the end
 * (scripted players: round 1 of the Swiss with real plays, the other games
 * ended by a resignation), standings checked against a reference written
 * here; a duplicate Swiss whose tables deal the same cards, each round's
 * seeds following from the revealed round seed; a table hidden from the
 * other tables of its running duplicate round; a withdrawal mid-event that
 * forfeits; the refusals; the GraphQL names.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, listenOnLoopback } from './support/app';
import { gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { playToEnd, restTransport } from './support/play';
import { auditTournament } from '../src/tournaments/tournament-audit';
import { TournamentsService } from '../src/tournaments/tournaments.service';
import { TournamentSchedulerService } from '../src/tournaments/tournament-scheduler.service';
import type { TournamentUpdate } from '../src/tournaments/tournaments.service';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel } from '../src/realtime/channels';
import type { PlayerEvent } from '../src/inbox/player-events';

jest.setTimeout(300_000);

/** Reads an async iterator from now on (a PubSub iterator subscribes at its first `next`). */
function collect<T>(it: AsyncIterator<T>): { items: T[]; stop: () => void } {
  const items: T[] = [];
  void (async () => {
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      items.push(r.value);
    }
  })();
  return { items, stop: () => void it.return?.() };
}

/** Waits (up to 200 turns of 50 ms) for `ready`. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 50));
}

/** `npm run audit -- files...` (node with tsx's loader: the same script), its exit code and output. */
function audit(files: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...files], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

const ENV = { CLIENT_SEED_WINDOW: '0', CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0' };

interface Table {
  table: number;
  players: string[];
  matchId: string | null;
  outcome: string | null;
  points: number[] | null;
  forfeit: boolean;
}

/** The standings by the book, from the rounds as the API shows them (match points, Buchholz, Sonneborn-Berger, game points). */
function referenceStandings(players: string[], rounds: { tables: Table[]; bye: string | null }[]) {
  const mp = new Map(players.map((p) => [p, 0]));
  const games: { a: string; b: string; sa: number; sb: number; pa: number; pb: number; forfeit: boolean }[] = [];
  for (const r of rounds) {
    if (r.bye) mp.set(r.bye, mp.get(r.bye)! + 1);
    for (const t of r.tables) {
      const [a, b] = t.players;
      const sa = t.outcome === 'first' ? 1 : t.outcome === 'draw' ? 0.5 : 0;
      games.push({ a, b, sa, sb: 1 - sa, pa: t.points![0], pb: t.points![1], forfeit: t.forfeit });
      mp.set(a, mp.get(a)! + sa);
      mp.set(b, mp.get(b)! + 1 - sa);
    }
  }
  const rows = players.map((p, order) => {
    let buchholz = 0;
    let sb = 0;
    let gpd = 0;
    for (const g of games) {
      if (g.a === p) {
        buchholz += mp.get(g.b)!;
        sb += g.sa * mp.get(g.b)!;
        if (!g.forfeit) gpd += g.pa - g.pb;
      } else if (g.b === p) {
        buchholz += mp.get(g.a)!;
        sb += g.sb * mp.get(g.a)!;
        if (!g.forfeit) gpd += g.pb - g.pa;
      }
    }
    return { player: p, matchPoints: mp.get(p)!, buchholz, sonnebornBerger: sb, gamePointsDifference: gpd, order };
  });
  rows.sort(
    (x, y) =>
      y.matchPoints - x.matchPoints ||
      y.buchholz - x.buchholz ||
      y.sonnebornBerger - x.sonnebornBerger ||
      y.gamePointsDifference - x.gamePointsDifference ||
      x.order - y.order,
  );
  return rows.map(({ order: _o, ...r }) => r);
}

describe('tournaments (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const byName = new Map<string, Account>();

  const post = async (who: Account, path: string, body: Record<string, unknown> = {}, status = 200) => {
    const res = await http().post(path).set('authorization', auth(who)).send(body);
    if (res.status !== status) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const get = async (path: string) => {
    const res = await http().get(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const players = async (n: number, prefix: string) => {
    const out: Account[] = [];
    for (let i = 0; i < n; i++) {
      const a = await register(app, prefix);
      byName.set(a.username, a);
      out.push(a);
    }
    return out;
  };
  const resign = (matchId: string, who: string) => post(byName.get(who)!, `/v1/matches/${matchId}/resign`, {});
  /** Ends every match of round n: with real plays, or by the second seat resigning (the first seat resigns at even tables when asked). */
  const playRound = async (id: string, n: number, how: 'play' | 'resign') => {
    const round = await get(`/v1/tournaments/${id}/rounds/${n}`);
    for (const t of round.tables as Table[]) {
      if (!t.matchId) continue;
      if (how === 'play')
        await playToEnd(
          restTransport(app, () => undefined),
          t.players.map((p) => byName.get(p)!),
          t.matchId,
        );
      else await resign(t.matchId, t.players[t.table % 2 === 0 ? 0 : 1]);
    }
    return round;
  };

  beforeAll(async () => {
    app = await createTestApp(ENV);
  });
  afterAll(async () => {
    await app.close();
  });

  it('an 8-player, 3-round Swiss played to the end: no rematch, standings as the reference computes them, the audit agrees', async () => {
    const field = await players(8, 'sw');
    const t = await post(field[0], '/v1/tournaments', { name: 'Club Swiss', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 3 }, 201);
    expect(t).toMatchObject({ status: 'created', format: 'swiss', rounds: 3, currentRound: 0 });
    for (const p of field) await post(p, `/v1/tournaments/${t.id}/join`);
    const started = await post(field[0], `/v1/tournaments/${t.id}/start`);
    expect(started).toMatchObject({ status: 'started', roundsToPlay: 3, currentRound: 1 });

    const rounds = [];
    for (let n = 1; n <= 3; n++) rounds.push(await playRound(t.id, n, n === 1 ? 'play' : 'resign'));
    const done = await get(`/v1/tournaments/${t.id}`);
    expect(done).toMatchObject({ status: 'finished', endReason: 'completed', currentRound: 3 });

    const final = await Promise.all([1, 2, 3].map((n) => get(`/v1/tournaments/${t.id}/rounds/${n}`)));
    const pairs = final.flatMap((r) => (r.tables as Table[]).map((x) => [...x.players].sort().join('-')));
    expect(pairs).toHaveLength(12);
    expect(new Set(pairs).size).toBe(12);
    for (const r of final) expect((r.tables as Table[]).every((x) => x.outcome !== null && x.matchId !== null)).toBe(true);
    // round 1 was played card by card: its game points are real ones
    expect((final[0].tables as Table[]).some((x) => x.points!.some((p) => p > 0))).toBe(true);

    const standings = await get(`/v1/tournaments/${t.id}/standings`);
    expect(
      standings.map((s: Record<string, unknown>) => ({
        player: s.player,
        matchPoints: s.matchPoints,
        buchholz: s.buchholz,
        sonnebornBerger: s.sonnebornBerger,
        gamePointsDifference: s.gamePointsDifference,
      })),
    ).toEqual(
      referenceStandings(
        field.map((p) => p.username),
        final,
      ),
    );
    expect(standings.reduce((s: number, r: { matchPoints: number }) => s + r.matchPoints, 0)).toBe(12);

    // The export audits: every pairing and the standings recomputed from the log.
    const exported = await http().get(`/v1/tournaments/${t.id}/export`);
    expect(exported.headers['content-type']).toMatch(/application\/x-ndjson/);
    const report = auditTournament(exported.text);
    expect(report.problems).toEqual([]);
    expect(report.rounds).toBe(3);
    expect(report.standings.map((r) => r.player)).toEqual(standings.map((s: { player: string }) => s.player));

    // The tables, as NDJSON
    const lines = (await http().get(`/v1/tournaments/${t.id}/matches`)).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(12);
    expect(lines[0]).toMatchObject({ round: 1, table: 1 });
  });

  it('a 6-player, 2-round Swiss whose round 1 every first seat wins: round 2 pairs by scores first (score difference 1, not 3), the audit agrees (issue 41)', async () => {
    const field = await players(6, 'six');
    const t = await post(field[0], '/v1/tournaments', { name: 'Six', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 2 }, 201);
    for (const p of field) await post(p, `/v1/tournaments/${t.id}/join`);
    await post(field[0], `/v1/tournaments/${t.id}/start`);
    const round1 = await get(`/v1/tournaments/${t.id}/rounds/1`);
    expect(round1.tables).toHaveLength(3);
    // Every second seat resigns: the three winners all sat first.
    for (const x of round1.tables as Table[]) await resign(x.matchId!, x.players[1]);
    const score = new Map(field.map((p) => [p.username, 0]));
    for (const x of round1.tables as Table[]) score.set(x.players[0], 1);
    const round2 = await get(`/v1/tournaments/${t.id}/rounds/2`);
    const tables = round2.tables as Table[];
    expect(tables).toHaveLength(3);
    const met = new Set((round1.tables as Table[]).map((x) => [...x.players].sort().join('-')));
    for (const x of tables) expect(met.has([...x.players].sort().join('-'))).toBe(false);
    // Two winners meet, two losers meet, one winner meets one loser.
    expect(tables.reduce((d, x) => d + Math.abs(score.get(x.players[0])! - score.get(x.players[1])!), 0)).toBe(1);
    expect(
      tables
        .map((x) =>
          x.players
            .map((p) => score.get(p)!)
            .sort()
            .join(''),
        )
        .sort(),
    ).toEqual(['00', '01', '11']);
    // Nobody beyond ±2 first seats, nobody in one seat a third time (two rounds: trivially), recorded under version 2.
    for (const x of tables) await resign(x.matchId!, x.players[1]);
    expect(await get(`/v1/tournaments/${t.id}`)).toMatchObject({ status: 'finished', endReason: 'completed' });
    const exported = await http().get(`/v1/tournaments/${t.id}/export`);
    const log = exported.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.find((e) => e.type === 'TournamentStarted').payload.pairingVersion).toBe(2);
    expect(auditTournament(exported.text).problems).toEqual([]);
  });

  it('a 4-player round robin: everyone meets everyone once (6 games), standings by the reference', async () => {
    const field = await players(4, 'rr');
    const t = await post(field[0], '/v1/tournaments', { name: 'Friends', format: 'roundRobin', preset: 'scopa', overrides: { target: 1 } }, 201);
    for (const p of field) await post(p, `/v1/tournaments/${t.id}/join`);
    await post(field[0], `/v1/tournaments/${t.id}/start`);
    for (let n = 1; n <= 3; n++) await playRound(t.id, n, 'resign');
    const done = await get(`/v1/tournaments/${t.id}`);
    expect(done).toMatchObject({ status: 'finished', roundsToPlay: 3 });
    const final = await Promise.all([1, 2, 3].map((n) => get(`/v1/tournaments/${t.id}/rounds/${n}`)));
    const pairs = final.flatMap((r) => (r.tables as Table[]).map((x) => [...x.players].sort().join('-')));
    expect(new Set(pairs).size).toBe(6);
    const standings = await get(`/v1/tournaments/${t.id}/standings`);
    expect(
      standings.map((s: Record<string, unknown>) => ({
        player: s.player,
        matchPoints: s.matchPoints,
        buchholz: s.buchholz,
        sonnebornBerger: s.sonnebornBerger,
        gamePointsDifference: s.gamePointsDifference,
      })),
    ).toEqual(
      referenceStandings(
        field.map((p) => p.username),
        final,
      ),
    );
    expect(auditTournament((await http().get(`/v1/tournaments/${t.id}/export`)).text).problems).toEqual([]);
  });

  it('a withdrawal mid-event forfeits the game in play and the games to come; the opponent scores the win', async () => {
    const field = await players(4, 'wd');
    const t = await post(field[0], '/v1/tournaments', { name: 'Withdrawals', format: 'roundRobin', preset: 'scopa', overrides: { target: 1 } }, 201);
    for (const p of field) await post(p, `/v1/tournaments/${t.id}/join`);
    await post(field[0], `/v1/tournaments/${t.id}/start`);
    const r1 = await get(`/v1/tournaments/${t.id}/rounds/1`);
    const leaver = (r1.tables as Table[])[0].players[0];
    const other = (r1.tables as Table[])[0].players[1];
    const left = await post(byName.get(leaver)!, `/v1/tournaments/${t.id}/withdraw`);
    expect(left.players.find((p: { player: string }) => p.player === leaver)).toEqual({ player: leaver, withdrawn: true });
    const after = await get(`/v1/tournaments/${t.id}/rounds/1`);
    expect((after.tables as Table[])[0]).toMatchObject({ outcome: 'second', forfeit: true, reason: 'withdrawn' });
    // the match in play was resigned for the leaver
    const m = (
      await http()
        .get(`/v1/matches/${(r1.tables as Table[])[0].matchId}`)
        .set('authorization', auth(byName.get(other)!))
    ).body;
    expect(m.status).toBe('over');
    // a second withdrawal is refused
    const again = await http()
      .post(`/v1/tournaments/${t.id}/withdraw`)
      .set('authorization', auth(byName.get(leaver)!))
      .send({});
    expect([again.status, again.body.code]).toEqual([403, 'NOT_IN_TOURNAMENT']);
    for (let n = 1; n <= 3; n++) {
      const round = await get(`/v1/tournaments/${t.id}/rounds/${n}`);
      for (const x of round.tables as Table[]) if (x.matchId && x.outcome === null) await resign(x.matchId, x.players[1]);
    }
    const final = await Promise.all([1, 2, 3].map((n) => get(`/v1/tournaments/${t.id}/rounds/${n}`)));
    // every game of the leaver is a forfeit they lost; no match was made for rounds 2 and 3 at their table
    const theirs = final.flatMap((r) => (r.tables as Table[]).filter((x) => x.players.includes(leaver)));
    expect(theirs).toHaveLength(3);
    for (const x of theirs) {
      expect(x.forfeit).toBe(true);
      expect(x.outcome).toBe(x.players[0] === leaver ? 'second' : 'first');
    }
    expect(theirs.slice(1).every((x) => x.matchId === null)).toBe(true);
    const standings = await get(`/v1/tournaments/${t.id}/standings`);
    expect(standings.find((s: { player: string }) => s.player === leaver)).toMatchObject({ matchPoints: 0, withdrawn: true });
    expect(auditTournament((await http().get(`/v1/tournaments/${t.id}/export`)).text).problems).toEqual([]);
  });

  it('refusals are typed: full, started, not in it, not the creator, not enough players, private', async () => {
    const [a, b, c] = await players(3, 'rf');
    const code = async (res: request.Response) => [res.status, res.body.code];
    const small = await post(a, '/v1/tournaments', { name: 'Two', format: 'swiss', preset: 'scopa', maxPlayers: 2 }, 201);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/start`).set('authorization', auth(a)).send({}))).toEqual([409, 'NOT_ENOUGH_PLAYERS']);
    await post(a, `/v1/tournaments/${small.id}/join`);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/join`).set('authorization', auth(a)).send({}))).toEqual([409, 'ALREADY_IN_TOURNAMENT']);
    await post(b, `/v1/tournaments/${small.id}/join`);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/join`).set('authorization', auth(c)).send({}))).toEqual([409, 'TOURNAMENT_FULL']);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/withdraw`).set('authorization', auth(c)).send({}))).toEqual([403, 'NOT_IN_TOURNAMENT']);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/start`).set('authorization', auth(b)).send({}))).toEqual([403, 'FORBIDDEN']);
    await post(a, `/v1/tournaments/${small.id}/start`);
    expect(await code(await http().post(`/v1/tournaments/${small.id}/cancel`).set('authorization', auth(a)).send({}))).toEqual([409, 'TOURNAMENT_STARTED']);
    const priv = await post(
      a,
      '/v1/tournaments',
      { name: 'Private', format: 'roundRobin', preset: 'scopa', visibility: 'private', invited: [b.username] },
      201,
    );
    expect(await code(await http().post(`/v1/tournaments/${priv.id}/join`).set('authorization', auth(c)).send({}))).toEqual([403, 'NOT_INVITED']);
    await post(b, `/v1/tournaments/${priv.id}/join`);
    await post(a, `/v1/tournaments/${priv.id}/cancel`);
    expect(await code(await http().post(`/v1/tournaments/${priv.id}/join`).set('authorization', auth(a)).send({}))).toEqual([409, 'TOURNAMENT_OVER']);
    expect(await code(await http().post('/v1/tournaments').set('authorization', auth(a)).send({ name: 'Four', format: 'swiss', preset: 'scopone' }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(await code(await http().get('/v1/tournaments/00000000-0000-4000-8000-000000000000'))).toEqual([404, 'NOT_FOUND']);
    // listing: cursor pages, filtered; a private tournament is listed to its creator and players only
    expect((await get('/v1/tournaments?status=cancelled&first=100')).items.map((x: { id: string }) => x.id)).not.toContain(priv.id);
    const page1 = (await http().get('/v1/tournaments?status=cancelled&first=1').set('authorization', auth(a))).body;
    expect(page1.items.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([[priv.id, 'cancelled']]);
    const all: string[] = [];
    for (let after: string | null = null, pages = 0; pages < 50; pages++) {
      const page: { items: { id: string }[]; nextCursor: string | null } = await get(`/v1/tournaments?first=2${after ? `&after=${after}` : ''}`);
      all.push(...page.items.map((x) => x.id));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(small.id);
  });

  it('starts by itself at startsAt (the scheduler: a durable row, any instance), once; with fewer than two players it is cancelled', async () => {
    const [a, b] = await players(2, 'at');
    const startsAt = new Date(Date.now() + 1500).toISOString();
    const t = await post(a, '/v1/tournaments', { name: 'At time', format: 'roundRobin', preset: 'scopa', startsAt }, 201);
    const lonely = await post(a, '/v1/tournaments', { name: 'Alone', format: 'swiss', preset: 'scopa', startsAt }, 201);
    for (const p of [a, b]) await post(p, `/v1/tournaments/${t.id}/join`);
    await post(a, `/v1/tournaments/${lonely.id}/join`);
    const scheduler = app.get(TournamentSchedulerService);
    await scheduler.tick();
    expect((await get(`/v1/tournaments/${t.id}`)).status).toBe('created');
    await until(() => Date.now() > Date.parse(startsAt) + 50);
    await Promise.all([scheduler.tick(), scheduler.tick()]);
    const started = await get(`/v1/tournaments/${t.id}`);
    expect(started).toMatchObject({ status: 'started', currentRound: 1, startsAt: null });
    const log = (await http().get(`/v1/tournaments/${t.id}/export`)).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.filter((e) => e.type === 'TournamentStarted')).toHaveLength(1);
    expect(log.find((e) => e.type === 'TournamentStarted').actor).toBeNull();
    expect((await get(`/v1/tournaments/${lonely.id}`)).status).toBe('cancelled');
  });

  it('GraphQL: createTournament, joinTournament, startTournament, tournament(id) with standings and rounds, tournaments(status, format, first, after)', async () => {
    const [a, b] = await players(2, 'gq');
    const created = await gqlOk(app, a.token, `mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id status format } }`, {
      i: { name: 'GQL', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 },
    });
    expect(created.createTournament).toMatchObject({ status: 'created', format: 'swiss' });
    const id = created.createTournament.id;
    // tournamentUpdated(id) (the iterator the subscription serves) and b's player channel, read from now on
    const updates = collect<TournamentUpdate>(await app.get(TournamentsService).follow(id));
    const mine = collect<PlayerEvent>(app.get<PubSubEngine>(PUB_SUB).asyncIterableIterator<PlayerEvent>(playerChannel(b.username)));
    for (const p of [a, b]) await gqlOk(app, p.token, `mutation($id: ID!) { joinTournament(id: $id) { id } }`, { id });
    await gqlOk(app, a.token, `mutation($id: ID!) { startTournament(id: $id) { status } }`, { id });
    await until(() => updates.items.length >= 4 && mine.items.some((e) => e.type === 'tournamentRoundPaired'));
    expect(updates.items.map((u) => u.kind)).toEqual(['joined', 'joined', 'started', 'paired']);
    expect(mine.items.find((e) => e.type === 'tournamentRoundPaired')).toMatchObject({
      tournamentId: id,
      round: 1,
      seat: expect.any(Number),
      matchId: expect.any(String),
    });
    updates.stop();
    mine.stop();
    const q = await gqlOk(
      app,
      null,
      `query($id: ID!) { tournament(id: $id) { status currentRound standings { rank player matchPoints } round(n: 1) { tables { players matchId } } } }`,
      { id },
    );
    expect(q.tournament.currentRound).toBe(1);
    expect(q.tournament.round.tables).toHaveLength(1);
    const list = await gqlOk(app, null, `{ tournaments(status: started, format: swiss, first: 5) { items { id } nextCursor } }`);
    expect(list.tournaments.items.map((x: { id: string }) => x.id)).toContain(id);
    const refused = await gql(app, b.token, `mutation($id: ID!) { cancelTournament(id: $id) { id } }`, { id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('Subscription.tournamentUpdated over graphql-ws: joins, the start and the pairing, as they happen', async () => {
    const field = await players(4, 'ws');
    const { ws } = await listenOnLoopback(app);
    const t = await post(field[0], '/v1/tournaments', { name: 'Live', format: 'roundRobin', preset: 'scopa' }, 201);
    const c = createClient({
      url: ws,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${field[1].token}` },
      retryAttempts: 0,
      lazy: true,
    });
    const kinds: string[] = [];
    const errors: unknown[] = [];
    const stop = c.subscribe(
      { query: 'subscription($id: ID!) { tournamentUpdated(id: $id) { tournamentId kind seq round status } }', variables: { id: t.id } },
      {
        next: (msg) => void kinds.push((msg.data as { tournamentUpdated: { kind: string } }).tournamentUpdated.kind),
        error: (e) => void errors.push(e),
        complete: () => undefined,
      },
    );
    try {
      // Join one by one until the subscription (set up asynchronously) has heard a join.
      for (const p of field) {
        await post(p, `/v1/tournaments/${t.id}/join`);
        await until(() => kinds.length > 0);
      }
      expect(kinds).toContain('joined');
      await post(field[0], `/v1/tournaments/${t.id}/start`);
      await until(() => kinds.includes('paired'));
      expect(kinds.slice(-2)).toEqual(['started', 'paired']);
      expect(errors).toEqual([]);
    } finally {
      stop();
      await c.dispose();
    }
  });

  it("a duplicate Swiss: every table of a round deals the same cards, from the revealed round seed and the players' seeds; another table is hidden while the round runs", async () => {
    const field = await players(4, 'dup');
    const t = await post(
      field[0],
      '/v1/tournaments',
      { name: 'Duplicate', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 2, duplicate: true },
      201,
    );
    expect(t.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    const seeds = field.map((_, i) => createHash('sha256').update(`seed${i}`).digest('hex'));
    for (const [i, p] of field.entries()) await post(p, `/v1/tournaments/${t.id}/join`, { clientSeed: seeds[i] });
    await post(field[0], `/v1/tournaments/${t.id}/start`);

    // While round 1 runs, a player of table 1 cannot read table 2 (view, events, export); its own players can.
    const r1 = await get(`/v1/tournaments/${t.id}/rounds/1`);
    const [t1, t2] = r1.tables as Table[];
    const outsider = byName.get(t1.players[0])!;
    for (const path of [`/v1/matches/${t2.matchId}`, `/v1/matches/${t2.matchId}/events`, `/v1/matches/${t2.matchId}/export`]) {
      const res = await http().get(path).set('authorization', auth(outsider));
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'TOURNAMENT_TABLE_HIDDEN']);
    }
    const hidden = await gql(app, outsider.token, `query($id: ID!) { match(id: $id) { id } }`, { id: t2.matchId });
    expect(hidden.errors?.[0]?.extensions?.code).toBe('TOURNAMENT_TABLE_HIDDEN');
    expect(
      (
        await http()
          .get(`/v1/matches/${t2.matchId}`)
          .set('authorization', auth(byName.get(t2.players[0])!))
      ).status,
    ).toBe(200);

    for (let n = 1; n <= 2; n++) await playRound(t.id, n, n === 1 ? 'play' : 'resign');
    expect((await get(`/v1/tournaments/${t.id}`)).status).toBe('finished');
    // once the round is over, everyone reads every table
    expect((await http().get(`/v1/matches/${t2.matchId}`).set('authorization', auth(outsider))).status).toBe(200);

    const exportOf = async (matchId: string) =>
      (await http().get(`/v1/matches/${matchId}/export`).set('authorization', auth(field[0]))).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    for (let n = 1; n <= 2; n++) {
      const round = await get(`/v1/tournaments/${t.id}/rounds/${n}`);
      expect(round.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(createHash('sha256').update(Buffer.from(round.seed, 'hex')).digest('hex')).toBe(round.seedCommitment);
      const exports = await Promise.all((round.tables as Table[]).map((x) => exportOf(x.matchId!)));
      const revealed = exports.map((lines) => lines.find((l) => l.type === 'MatchEnded')?.payload?.seed);
      const committed = exports.map((lines) => lines.find((l) => l.type === 'MatchCreated')?.payload?.seedCommitment);
      expect(new Set(revealed).size).toBe(1);
      expect(new Set(committed).size).toBe(1);
      // the table seed follows from the round seed and the seeds of the round's players, in table order
      const inOrder = (round.tables as Table[]).flatMap((x) => x.players).map((p) => seeds[field.findIndex((f) => f.username === p)]);
      const h = createHash('sha256').update('scopa-duplicate/1').update(Buffer.from(round.seed, 'hex'));
      for (const s of inOrder) h.update(Uint8Array.of(s.length / 2)).update(Buffer.from(s, 'hex'));
      expect(revealed[0]).toBe(h.digest('hex'));
      // and the first deal of the match is the same at both tables
      const dealt = exports.map((lines) => JSON.stringify(lines.find((l) => l.type === 'RoundDealt')?.payload ?? null));
      expect(new Set(dealt).size).toBe(1);
    }
    const exported = (await http().get(`/v1/tournaments/${t.id}/export`)).text;
    const matchExports = new Map<string, string>();
    for (let n = 1; n <= 2; n++) {
      for (const x of (await get(`/v1/tournaments/${t.id}/rounds/${n}`)).tables as Table[]) {
        matchExports.set(x.matchId!, (await http().get(`/v1/matches/${x.matchId}/export`).set('authorization', auth(field[0]))).text);
      }
    }
    const report = auditTournament(exported, matchExports);
    expect(report.problems).toEqual([]);
    expect(report.seedsChecked).toBe(4);

    // `npm run audit` on the tournament export and its matches' exports: sound; a forged round seed is not.
    const dir = mkdtempSync(path.join(tmpdir(), 'tournament-audit-'));
    try {
      const files = [path.join(dir, 'tournament.jsonl')];
      writeFileSync(files[0], exported);
      for (const [id, text] of matchExports) {
        files.push(path.join(dir, `${id}.jsonl`));
        writeFileSync(files[files.length - 1], text);
      }
      const sound = await audit(files);
      expect(sound.code).toBe(0);
      expect(sound.stdout).toMatch(/tournament\.jsonl: sound: tournament .*duplicate seeds checked at 4 tables/);
      const forged = exported
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((e) => (e.type === 'RoundEnded' && e.payload.round === 1 ? { ...e, payload: { ...e.payload, seed: 'ab'.repeat(32) } } : e))
        .map((e) => JSON.stringify(e))
        .join('\n');
      writeFileSync(files[0], forged);
      const unsound = await audit(files);
      expect(unsound.code).toBe(1);
      expect(unsound.stdout).toMatch(/tournament\.jsonl: UNSOUND/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const standings = await get(`/v1/tournaments/${t.id}/standings`);
    expect(standings.every((s: { duplicateScore: number | null }) => typeof s.duplicateScore === 'number')).toBe(true);
  });
});
