/**
 * Player-contributed seeds over the public API (PGlite): seeds given with the
 * join or on their own, public at once; a start that waits for the missing
 * ones (202 with startsAt) and deals when the last one comes in or when
 * CLIENT_SEED_WINDOW runs out (the clock scheduler, polled by hand here:
 * CLOCK_POLL_MS = 0); a finished match whose export `npm run audit`
 * (scripts/audit.ts, run as a child process) finds sound.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ClockScheduler } from '../src/clocks/clock-scheduler';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { PrismaService } from '../src/database/prisma.service';
import { MatchStore } from '../src/match-store/match-store';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { playToEnd, restTransport } from './support/play';

jest.setTimeout(300_000);

const SEED_A = 'c0ffee00' + '11'.repeat(28); // 32 bytes
const SEED_B = 'DEADBEEF'; // either case; the log keeps lowercase

function withEnv(env: Record<string, string>): { app: () => INestApplication; http: () => ReturnType<typeof request> } {
  let app: INestApplication;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const k of Object.keys(env)) saved[k] = process.env[k];
    app = await createTestApp(env);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  return { app: () => app, http: () => request(app.getHttpServer()) };
}

const auth = (a: Account) => `Bearer ${a.token}`;

function helpers(http: () => ReturnType<typeof request>) {
  return {
    async create(owner: Account, body: Record<string, unknown>): Promise<any> {
      const res = await http().post('/v1/matches').set('authorization', auth(owner)).send(body);
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
      return res.body;
    },
    post: (who: Account, p: string, body: Record<string, unknown> = {}) => http().post(p).set('authorization', auth(who)).send(body),
    async get(who: Account, id: string): Promise<any> {
      const res = await http().get(`/v1/matches/${id}`).set('authorization', auth(who));
      if (res.status !== 200) throw new Error(`get: ${res.status} ${res.text}`);
      return res.body;
    },
  };
}

function audit(file: string): Promise<{ code: number; stdout: string }> {
  // node itself with tsx's loader: the same script `npm run audit` runs.
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', file], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

describe('client seeds (e2e, PGlite), CLIENT_SEED_WINDOW = 60 s', () => {
  const { app, http } = withEnv({ CLIENT_SEED_WINDOW: '60', CLOCK_POLL_MS: '0', BOT_SWEEP_MS: '0' });
  const h = helpers(http);

  it('two accounts give their seeds, play to the end, and `npm run audit` recomputes every deal from the export', async () => {
    const [alice, bob, carol] = [await register(app(), 'sda'), await register(app(), 'sdb'), await register(app(), 'sdc')];
    const m = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    expect(m.view.rulesVersion).toBe('scopa-rules/5');
    expect(m.view.clientSeeds).toEqual([null, null]);

    // The creator gives hers right after creating (GraphQL), bob with his join (REST).
    const given = await gqlOk(
      app(),
      alice.token,
      `mutation($id: ID!, $i: ClientSeedInput!) { setClientSeed(matchId: $id, input: $i) { status startsAt view { clientSeeds } } }`,
      {
        id: m.id,
        i: { clientSeed: SEED_A },
      },
    );
    expect(given.setClientSeed).toEqual({ status: 'open', startsAt: null, view: { clientSeeds: [SEED_A, null] } });
    const joined = await h.post(bob, `/v1/matches/${m.id}/join`, { clientSeed: SEED_B });
    expect(joined.status).toBe(200);
    expect(joined.body.view.clientSeeds).toEqual([SEED_A, SEED_B.toLowerCase()]);

    // Public at once: a spectator sees both seeds before the start, and the log has them.
    expect((await h.get(carol, m.id)).view.clientSeeds).toEqual([SEED_A, SEED_B.toLowerCase()]);
    const log = (await http().get(`/v1/matches/${m.id}/events`).set('authorization', auth(carol))).body as any[];
    expect(log.map((e) => e.type)).toEqual(['MatchCreated', 'ClientSeedGiven', 'SeatTaken']);
    expect(log[1].payload).toEqual({ seat: 0, clientSeed: SEED_A });
    expect(log[2].payload).toEqual({ seat: 1, player: bob.username, clientSeed: SEED_B.toLowerCase() });

    // Every human seat gave its seed: the start deals at once.
    const started = await h.post(alice, `/v1/matches/${m.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('playing');
    expect(started.body.startsAt).toBeNull();

    const end = await playToEnd(
      restTransport(app(), () => undefined),
      [alice, bob],
      m.id,
    );
    expect(end.status).toBe('over');

    const exported = await http().get(`/v1/matches/${m.id}/export`).set('authorization', auth(carol));
    expect(exported.status).toBe(200);
    const lines = exported.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const ended = lines.find((l) => l.type === 'MatchEnded');
    // The deck seed by the byte layout of docs/fairness.md "Player-contributed seeds", with Node's own SHA-256: what the audit must have recomputed.
    const server = Buffer.from(ended.payload.seed, 'hex');
    const deckSeed = createHash('sha256')
      .update('scopa-seed/2')
      .update(server)
      .update(Buffer.from([SEED_A.length / 2]))
      .update(Buffer.from(SEED_A, 'hex'))
      .update(Buffer.from([SEED_B.length / 2]))
      .update(Buffer.from(SEED_B, 'hex'))
      .digest('hex');
    expect(deckSeed).not.toBe(ended.payload.seed);

    const dir = mkdtempSync(path.join(tmpdir(), 'scopa-seeds-'));
    try {
      const file = path.join(dir, 'match.jsonl');
      writeFileSync(file, exported.text);
      const sound = await audit(file);
      expect(sound.stdout).toContain(`sound: match ${m.id}`);
      expect(sound.code).toBe(0);

      // Another client seed in the export is found (the deal no longer follows), not waved through.
      const forged = exported.text.replace(SEED_B.toLowerCase(), 'deadbeee');
      expect(forged).not.toBe(exported.text);
      writeFileSync(file, forged);
      const unsound = await audit(file);
      expect(unsound.stdout).toContain('UNSOUND');
      expect(unsound.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a start with a human seed missing waits (202, startsAt), and the last seed deals at once in the name of who asked', async () => {
    const [alice, bob] = [await register(app(), 'swa'), await register(app(), 'swb')];
    const m = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    await h.post(bob, `/v1/matches/${m.id}/join`);
    const before = Date.now();
    const asked = await h.post(alice, `/v1/matches/${m.id}/start`, { idempotencyKey: 'go' });
    expect(asked.status).toBe(202);
    expect(asked.body.status).toBe('open');
    const startsAt = Date.parse(asked.body.startsAt);
    expect(startsAt).toBeGreaterThanOrEqual(before + 55_000);
    expect(startsAt).toBeLessThanOrEqual(Date.now() + 65_000);
    // Nothing was appended: the pending start is not an event.
    expect(asked.body.seq).toBe(m.seq + 1);

    // Asked again (by anyone seated): the same deadline.
    const again = await h.post(bob, `/v1/matches/${m.id}/start`);
    expect(again.status).toBe(202);
    expect(again.body.startsAt).toBe(asked.body.startsAt);
    const read = await gqlOk(app(), bob.token, `query($id: ID!) { match(id: $id) { status startsAt } }`, { id: m.id });
    expect(read.match).toEqual({ status: 'open', startsAt: asked.body.startsAt });

    // One seed of two: still waiting.
    const first = await h.post(bob, `/v1/matches/${m.id}/client-seed`, { clientSeed: SEED_B });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'open', startsAt: asked.body.startsAt });

    // The last one: dealt at once, in the response already.
    const last = await h.post(alice, `/v1/matches/${m.id}/client-seed`, { clientSeed: SEED_A });
    expect(last.status).toBe(200);
    expect(last.body.status).toBe('playing');
    expect(last.body.startsAt).toBeNull();
    expect(last.body.view.hand).toHaveLength(3);
    const log = (await http().get(`/v1/matches/${m.id}/events`).set('authorization', auth(bob))).body as any[];
    const startedAt = log.findIndex((e) => e.type === 'MatchStarted');
    expect(log[startedAt - 1].type).toBe('ClientSeedGiven');
    expect(log[startedAt].actor).toBe(alice.username);

    // Alice's retry of her start finds the start made for her (same key), not a conflict.
    const retry = await h.post(alice, `/v1/matches/${m.id}/start`, { idempotencyKey: 'go' });
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('playing');
  });

  it('refuses a seed after the start, a second seed, a malformed one, and a seed from a spectator, changing nothing', async () => {
    const [alice, bob, carol] = [await register(app(), 'sra'), await register(app(), 'srb'), await register(app(), 'src')];
    const m = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    expect((await h.post(alice, `/v1/matches/${m.id}/client-seed`, { clientSeed: SEED_A })).status).toBe(200);

    const twice = await h.post(alice, `/v1/matches/${m.id}/client-seed`, { clientSeed: SEED_B });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('CLIENT_SEED_ALREADY_GIVEN');
    for (const bad of ['abc', 'xyz0', '', 'ff'.repeat(65)]) {
      const r = await h.post(bob, `/v1/matches/${m.id}/join`, { clientSeed: bad });
      expect([r.status, r.body.code]).toEqual([400, 'INVALID_CLIENT_SEED']);
    }
    const spectator = await h.post(carol, `/v1/matches/${m.id}/client-seed`, { clientSeed: SEED_B });
    expect([spectator.status, spectator.body.code]).toEqual([403, 'NOT_SEATED']);
    expect((await h.get(alice, m.id)).seq).toBe(m.seq + 1);

    await h.post(bob, `/v1/matches/${m.id}/join`, { clientSeed: SEED_B });
    expect((await h.post(alice, `/v1/matches/${m.id}/start`)).status).toBe(200);
    const playing = await h.get(alice, m.id);

    const late = await h.post(bob, `/v1/matches/${m.id}/client-seed`, { clientSeed: '00' });
    expect([late.status, late.body.code]).toEqual([409, 'MATCH_ALREADY_STARTED']);
    const lateGql = await gql(app(), alice.token, `mutation($id: ID!) { setClientSeed(matchId: $id, input: { clientSeed: "00" }) { seq } }`, { id: m.id });
    expect(errorCode(lateGql)).toBe('MATCH_ALREADY_STARTED');
    const after = await h.get(alice, m.id);
    expect(after.seq).toBe(playing.seq);
    expect(after.view.clientSeeds).toEqual([SEED_A, SEED_B.toLowerCase()]);
  });

  it('takes no client seed in createMatch (the server has not committed yet): an unknown field', async () => {
    const alice = await register(app(), 'sca');
    const rest = await h.post(alice, '/v1/matches', { preset: 'scopa', clientSeed: SEED_A });
    expect([rest.status, rest.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const seat = await h.post(alice, '/v1/matches', { preset: 'scopa', seats: [{ type: 'creator', clientSeed: SEED_A }] });
    expect([seat.status, seat.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const graph = await gql(app(), alice.token, `mutation { createMatch(input: { preset: "scopa", clientSeed: "${SEED_A}" }) { id } }`);
    expect(graph.status).toBe(400);
    expect(graph.errors?.[0]?.message).toMatch(/clientSeed/);
    const mine = (await http().get('/v1/matches').set('authorization', auth(alice))).body as any[];
    expect(mine).toEqual([]);
  });

  it('bots give no seed: with a bot seat, the seeded human alone lets the start deal at once; unseeded, it waits', async () => {
    const alice = await register(app(), 'sba');
    const seeded = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
    await h.post(alice, `/v1/matches/${seeded.id}/client-seed`, { clientSeed: SEED_A });
    const started = await h.post(alice, `/v1/matches/${seeded.id}/start`);
    expect([started.status, started.body.status]).toEqual([200, 'playing']);
    expect(started.body.view.clientSeeds).toEqual([SEED_A, null]);

    const unseeded = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
    const waiting = await h.post(alice, `/v1/matches/${unseeded.id}/start`);
    expect([waiting.status, waiting.body.status]).toEqual([202, 'open']);
    expect(typeof waiting.body.startsAt).toBe('string');
  });

  it('keeps a pending start in the database: a scheduler of another instance (fresh store) deals it at the deadline', async () => {
    const [alice, bob] = [await register(app(), 'spa'), await register(app(), 'spb')];
    const m = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    // Bob asks to start with the key his join used: the deferred start must still happen (without the key).
    await h.post(bob, `/v1/matches/${m.id}/join`, { idempotencyKey: 'same' });
    expect((await h.post(bob, `/v1/matches/${m.id}/start`, { idempotencyKey: 'same' })).status).toBe(202);
    const prisma = app().get(PrismaService);
    const other = new ClockScheduler(prisma, new MatchStore(prisma));
    expect(await other.tick()).toEqual([]); // not due yet
    await prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, m.id);
    expect(await other.tick()).toEqual(['expired']);
    const now = await h.get(alice, m.id);
    expect(now.status).toBe('playing');
    expect(now.startsAt).toBeNull();
    expect(now.view.clientSeeds).toEqual([null, null]);
    // The append that started the match removed the pending start.
    expect(await prisma.$queryRawUnsafe(`SELECT kind FROM match_clocks WHERE match_id = $1::uuid`, m.id)).toEqual([]);
  });
});

describe('client seeds (e2e, PGlite), CLIENT_SEED_WINDOW = 1 s', () => {
  const { app, http } = withEnv({ CLIENT_SEED_WINDOW: '1', CLOCK_POLL_MS: '0', BOT_SWEEP_MS: '0' });
  const h = helpers(http);

  it('the window running out deals the match with the seeds given so far, at the scheduler poll after the deadline', async () => {
    const [alice, bob] = [await register(app(), 'sta'), await register(app(), 'stb')];
    const m = await h.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    await h.post(bob, `/v1/matches/${m.id}/join`, { clientSeed: SEED_B });
    const asked = await h.post(alice, `/v1/matches/${m.id}/start`);
    expect(asked.status).toBe(202);
    const clocks = app().get(ClockSchedulerService);
    const deadline = Date.parse(asked.body.startsAt);
    if (Date.now() < deadline - 200) {
      await clocks.poll();
      expect((await h.get(alice, m.id)).status).toBe('open');
    }
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) + 100));
    await clocks.poll();
    const started = await h.get(bob, m.id);
    expect(started.status).toBe('playing');
    expect(started.view.clientSeeds).toEqual([null, SEED_B.toLowerCase()]);
    expect(started.view.hand).toHaveLength(3);
  });
});
