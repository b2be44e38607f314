/**
 * The store suites, written once and run on two databases: PGlite
 * (match-store.e2e-spec.ts, in npm test) and PostgreSQL (match-store.pg-spec.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { allCards, cardCode, mulberry32, replay, seedFromHex } from '../../src/engine';
import type { MatchState } from '../../src/engine';
import { DomainError } from '../../src/common/domain-error';
import { prismaRowReader } from '../../src/database/database';
import { readMigrations } from '../../src/database/migrator';
import { eventHash, joinEvent } from '../../src/match-formats/chain';
import { EventStore } from '../../src/match-store/event-store';
import { auditJsonl } from '../../src/match-formats/export';
import type { ExportRatingChange } from '../../src/match-formats/export';
import { auditNotation, parseNotation } from '../../src/match-formats/notation';
import { MatchArchive } from '../../src/match-store/match-archive';
import { MatchStore } from '../../src/match-store/match-store';
import type { CommandKey, MatchStoreOptions } from '../../src/match-store/match-store';
import { viewFor } from '../support/views';
import { CONFIGS, players, randomCommand } from './helpers';
import type { DatabaseFactory, TestDatabase } from './helpers';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}

async function secretSeed(db: TestDatabase, matchId: string): Promise<string> {
  const rows = await db.prisma.$queryRawUnsafe<{ seed: string }[]>('SELECT seed FROM matches WHERE id = $1::uuid', matchId);
  return rows[0].seed;
}

/** Plays a started match with random legal plays, to its end or for `limit` plays. */
async function playToEnd(store: MatchStore, matchId: string, seed: number, limit = Infinity): Promise<number> {
  const rng = mulberry32(seed);
  let plays = 0;
  for (;;) {
    const state = await store.state(matchId);
    if (state.phase !== 'playing' || plays >= limit) return plays;
    const cmd = randomCommand(state, rng);
    await store.execute(matchId, cmd, { actor: (cmd as { player: string }).player });
    if (++plays > 10_000) throw new Error('match does not end');
  }
}

async function startedMatch(store: MatchStore, preset = 'scopa', overrides: Record<string, unknown> = {}, n = 2): Promise<string> {
  const { matchId } = await store.create({ preset, overrides: { ...overrides, players: n }, seats: players(n), createdBy: 'p0' });
  await store.execute(matchId, { type: 'start', player: 'p0' }, { actor: 'p0' });
  return matchId;
}

// Client keys, as the matches service gives them (one key space per username; src/match-store/command-key.ts).
const K1: CommandKey = { client: 'p0', key: 'k-1' };
const SHARED_K: CommandKey = { client: 'p0', key: 'shared-k' };

export function describeStoreSuite(name: string, factory: DatabaseFactory): void {
  describe(`match store on ${name}`, () => {
    let db: TestDatabase;
    let store: MatchStore;
    let archive: MatchArchive;

    // A store as the service builds it: on PostgreSQL its appends and log reads go straight through the driver.
    const storeOn = (options: MatchStoreOptions = {}) => new MatchStore(db.prisma, { statements: db.statements, ...options });
    // What a viewer may see now, chosen by the one view policy (src/matches/match-views.ts).
    const viewOf = async (matchId: string, viewer: string | null) => viewFor(viewer, await store.state(matchId));

    beforeAll(async () => {
      db = await factory();
      store = storeOn();
      archive = new MatchArchive(db.prisma);
    }, 60_000);
    afterAll(async () => {
      await db?.close();
    });

    it('records its migrations in _prisma_migrations as Prisma does', async () => {
      const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }[]>(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      );
      const files = readMigrations();
      expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((m) => [m.name, m.checksum]));
      for (const r of rows) {
        expect(r.finished_at).not.toBeNull();
        expect(r.applied_steps_count).toBe(1);
      }
    });

    it('appends and loads a log with contiguous seqs, and the projection follows it', async () => {
      const { matchId, seq } = await store.create({ preset: 'scopa', seats: [{ player: 'alice' }, {}], createdBy: 'alice' });
      expect(seq).toBe(1);
      const join = await store.execute(matchId, { type: 'join', player: 'bob' }, { actor: 'bob', expectedSeq: 1 });
      expect(join.events.map((e) => [e.seq, e.type])).toEqual([[2, 'SeatTaken']]);
      const start = await store.execute(matchId, { type: 'start', player: 'alice' }, { actor: 'alice' });
      expect(start.events[0].type).toBe('MatchStarted');
      const events = await store.eventsFrom(matchId, 1, 1000);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events[1].prevHash).toBe(events[0].hash);
      const page = await store.eventsFrom(matchId, 2, 1);
      expect(page.map((e) => e.seq)).toEqual([2]);
      const summary = await store.get(matchId);
      expect(summary.status).toBe('playing');
      expect(summary.currentSeq).toBe(events.length);
      const state = await store.state(matchId);
      expect(summary.turnSeat).toBe(state.turn);
      expect(summary.turnPlayer).toBe(state.seats[state.turn].player);
      expect((summary.seats as { player: string }[]).map((s) => s.player)).toEqual(['alice', 'bob']);
      expect((await store.listMatches('bob')).map((m) => m.id)).toContain(matchId);
      expect((await store.listMatches('bob', { status: 'open' })).map((m) => m.id)).not.toContain(matchId);
      const mine = (await store.listMatches(summary.turnPlayer!, { myTurn: true })).map((m) => m.id);
      expect(mine).toContain(matchId);
      const other = summary.turnPlayer === 'alice' ? 'bob' : 'alice';
      expect((await store.listMatches(other, { myTurn: true })).map((m) => m.id)).not.toContain(matchId);
      // state at any seq is the fold of the log up to it
      const at2 = await store.state(matchId, 2);
      expect(at2.phase).toBe('open');
      expect(at2.seats[1].player).toBe('bob');
      // engine rejections come out as DomainErrors with the engine's code
      expect(await codeOf(store.execute(matchId, { type: 'join', player: 'carol' }, { actor: 'carol' }))).toBe('MATCH_ALREADY_STARTED');
      expect(await codeOf(store.get('00000000-0000-0000-0000-000000000000'))).toBe('NOT_FOUND');
      expect(await codeOf(store.get('not-a-uuid'))).toBe('NOT_FOUND');
      expect(await codeOf(store.execute('00000000-0000-0000-0000-000000000000', { type: 'start', player: 'x' }, { actor: 'x' }))).toBe('NOT_FOUND');
    });

    it('lets exactly one of two racing writers win; the other gets VERSION_CONFLICT; no gap, no duplicate', async () => {
      const matchId = await startedMatch(store);
      for (let round = 0; round < 5; round++) {
        // two "processes": separate stores, separate caches
        const a = storeOn();
        const b = storeOn();
        const state = await a.state(matchId);
        await b.state(matchId);
        const seq = (await a.get(matchId)).currentSeq;
        const cmd = randomCommand(state, mulberry32(round));
        const actor = (cmd as { player: string }).player;
        const results = await Promise.all([
          codeOf(a.execute(matchId, cmd, { actor, expectedSeq: seq })),
          codeOf(b.execute(matchId, cmd, { actor, expectedSeq: seq })),
        ]);
        expect(results.sort()).toEqual(['OK', 'VERSION_CONFLICT']);
      }
      // the raw store: many appends at the same seq, one wins
      const events = new EventStore(db.prisma, { statements: db.statements });
      const log = await store.eventsFrom(matchId, 1, 10_000);
      const last = log[log.length - 1];
      const projection = { status: 'playing' as const, turnSeat: 0, turnPlayer: 'p0', turnPaused: false, winner: null, revealedSeed: null, players: [] };
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () =>
          codeOf(events.append(matchId, last.seq, [{ type: 'SeatResigned', seat: 0 }], { actor: 'p0', prevHash: last.hash, projection })),
        ),
      );
      expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'VERSION_CONFLICT')).toHaveLength(5);
      const after = await store.eventsFrom(matchId, 1, 10_000);
      expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
      expect(after).toHaveLength(log.length + 1);
    });

    it('appends plays of many matches in shared statements, each acknowledged or refused on its own', async () => {
      let manyStatements = 0;
      // counts the multi-match append statements, to show the plays did share them: the store's one statement seam,
      // the driver's on PostgreSQL, Prisma's (what a store uses without one) on PGlite
      const through = db.statements ?? prismaRowReader(db.prisma);
      const batched = storeOn({
        appendsInFlight: 1,
        statements: <T>(sql: string, params: readonly unknown[]) => {
          if (sql.includes('AS i(match_id uuid')) manyStatements++;
          return through<T>(sql, params);
        },
      });
      const other = storeOn();
      const ids = await Promise.all(Array.from({ length: 10 }, () => startedMatch(store)));
      const states = await Promise.all(ids.map((id) => batched.state(id)));
      const seqs = await Promise.all(ids.map(async (id) => (await batched.get(id)).currentSeq));
      // another process moves three of them on: their plays here are stale
      for (const i of [1, 4, 7]) {
        const cmd = randomCommand(states[i], mulberry32(100 + i));
        await other.execute(ids[i], cmd, { actor: (cmd as { player: string }).player });
      }
      const wave = async (keys: (CommandKey | undefined)[], seed: number) =>
        Promise.all(
          ids.map(async (id, i) => {
            const snap = await batched.atLeast(id, 0);
            const cmd = randomCommand(snap.state, mulberry32(seed + i));
            return codeOf(batched.execute(id, cmd, { actor: (cmd as { player: string }).player, expectedSeq: snap.seq, commandKey: keys[i] }));
          }),
        );
      const first = await wave([], 1);
      expect(first).toEqual(ids.map((_, i) => ([1, 4, 7].includes(i) ? 'VERSION_CONFLICT' : 'OK')));
      expect(manyStatements).toBeGreaterThan(0);
      // a reused command key spoils the shared statement: every play is retried alone and only that one is refused
      const keyed = ids[3];
      const used = randomCommand(await other.state(keyed), mulberry32(7));
      await other.execute(keyed, used, { actor: (used as { player: string }).player, commandKey: SHARED_K });
      await Promise.all(ids.map((id) => batched.atLeast(id, 0).then(() => batched.current(id))));
      const second = await wave(
        ids.map((_, i) => (i === 3 ? SHARED_K : undefined)),
        50,
      );
      expect(second[3]).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(second.filter((c) => c === 'OK')).toHaveLength(ids.length - 1);
      for (const [i, id] of ids.entries()) {
        const events = await store.eventsFrom(id, 1, 10_000);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, k) => k + 1));
        expect((await archive.verify(id)).sound).toBe(true);
        // every acknowledged play is in the log, once; no refused one is
        const byOther = [1, 3, 4, 7].includes(i) ? 1 : 0;
        const acknowledged = (first[i] === 'OK' ? 1 : 0) + (second[i] === 'OK' ? 1 : 0);
        expect(events.filter((e) => e.seq > seqs[i] && e.type === 'CardPlayed')).toHaveLength(byOther + acknowledged);
      }
    });

    it('tells who is to move and until when: the clock row of a timed turn, no deadline untimed, null once over', async () => {
      const { matchId: timed } = await store.create({
        preset: 'scopa',
        seats: players(2),
        createdBy: 'p0',
        settings: { turnTimeLimit: 'PT1H', onExpiry: 'forfeit' },
      });
      await store.execute(timed, { type: 'start', player: 'p0' }, { actor: 'p0' });
      const before = Date.now();
      const cmd = randomCommand(await store.state(timed), mulberry32(11));
      const played = await store.execute(timed, cmd, { actor: (cmd as { player: string }).player });
      const state = await store.state(timed);
      const turn = await store.turn(timed);
      expect(turn).toMatchObject({ current_seq: played.seq, turn_seat: state.turn, turn_player: state.seats[state.turn].player });
      // the deadline the append's trigger wrote for this turn: an hour from the play, as a Date on either driver
      expect(turn!.deadline).toBeInstanceOf(Date);
      expect(turn!.deadline!.getTime()).toBeGreaterThan(before + 3_590_000);
      expect(turn!.deadline!.getTime()).toBeLessThan(Date.now() + 3_610_000);

      const untimed = await startedMatch(store);
      expect((await store.turn(untimed))?.deadline).toBeNull();
      await store.execute(untimed, { type: 'resign', player: 'p0' }, { actor: 'p0' });
      expect(await store.turn(untimed)).toBeNull();
    });

    it('moves a snapshot on with events appended elsewhere when they link onto it, and ignores them otherwise', async () => {
      const matchId = await startedMatch(store);
      const here = storeOn();
      const elsewhere = storeOn();
      await here.state(matchId);
      const before = here.peek(matchId)!;
      const cmd = randomCommand(await elsewhere.state(matchId), mulberry32(3));
      const played = await elsewhere.execute(matchId, cmd, { actor: (cmd as { player: string }).player });
      // a forged copy (its chain does not link) and events from further on (a gap) change nothing
      here.absorb(
        matchId,
        played.events.map((e) => ({ ...e, prevHash: 'f'.repeat(64) })),
      );
      here.absorb(
        matchId,
        played.events.map((e) => ({ ...e, seq: e.seq + 1 })),
      );
      expect(here.peek(matchId)!.seq).toBe(before.seq);
      here.absorb(matchId, played.events);
      const moved = here.peek(matchId)!;
      expect(moved.seq).toBe(played.seq);
      expect(moved.hash).toBe(played.events[played.events.length - 1].hash);
      expect(moved.state).toEqual(await storeOn().state(matchId));
      // a play decided on the moved snapshot is accepted at the next seq
      const next = randomCommand(moved.state, mulberry32(4));
      const result = await here.execute(matchId, next, { actor: (next as { player: string }).player, expectedSeq: played.seq });
      expect(result.events[0].seq).toBe(played.seq + 1);
      expect((await archive.verify(matchId)).sound).toBe(true);
    });

    it('re-decides after a lost race when the client gave no expected seq', async () => {
      const { matchId } = await store.create({ preset: 'scopa', overrides: { players: 4 }, seats: [{ player: 'p0' }], createdBy: 'p0' });
      const stores = [1, 2, 3].map(() => storeOn());
      await Promise.all(stores.map((s) => s.state(matchId))); // all cached at seq 1
      const joined = await Promise.all(stores.map((s, i) => s.execute(matchId, { type: 'join', player: `q${i}` }, { actor: `q${i}` })));
      expect(joined.map((r) => r.seq).sort()).toEqual([2, 3, 4]);
      const state = await storeOn().state(matchId);
      expect(state.seats.map((s) => s.player).sort()).toEqual(['p0', 'q0', 'q1', 'q2']);
    });

    it('is idempotent per command key: a retry returns the first result and appends nothing', async () => {
      const matchId = await startedMatch(store);
      const state = await store.state(matchId);
      const cmd = randomCommand(state, mulberry32(1));
      const actor = (cmd as { player: string }).player;
      const first = await store.execute(matchId, cmd, { actor, commandKey: K1 });
      const seqAfter = (await store.get(matchId)).currentSeq;
      const again = await store.execute(matchId, cmd, { actor, commandKey: K1 });
      expect(again.replayed).toBe(true);
      expect(again.seq).toBe(first.seq);
      expect(again.events.map((e) => e.hash)).toEqual(first.events.map((e) => e.hash));
      // from another process (cold cache), and with the expected seq the client first sent
      const cold = storeOn();
      const third = await cold.execute(matchId, cmd, { actor, commandKey: K1, expectedSeq: first.events[0].seq - 1 });
      expect(third.replayed).toBe(true);
      expect(third.events.map((e) => e.hash)).toEqual(first.events.map((e) => e.hash));
      expect((await store.get(matchId)).currentSeq).toBe(seqAfter);
      // same key, another command
      const next = randomCommand(await store.state(matchId), mulberry32(2));
      expect(await codeOf(store.execute(matchId, next, { actor: (next as { player: string }).player, commandKey: K1 }))).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await store.get(matchId)).currentSeq).toBe(seqAfter);
      // a stale expected seq without a key is a conflict
      expect(await codeOf(store.execute(matchId, next, { actor: (next as { player: string }).player, expectedSeq: 1 }))).toBe('VERSION_CONFLICT');
    });

    it('refuses UPDATE, DELETE and TRUNCATE on match_events (trigger)', async () => {
      const matchId = await startedMatch(store);
      for (const sql of [
        `UPDATE match_events SET type = 'X' WHERE match_id = '${matchId}'`,
        `DELETE FROM match_events WHERE match_id = '${matchId}' AND seq = 2`,
        'TRUNCATE match_events CASCADE',
      ]) {
        await expect(db.prisma.$executeRawUnsafe(sql)).rejects.toThrow(/append-only/);
      }
      expect((await store.eventsFrom(matchId, 1, 1000)).length).toBe((await store.get(matchId)).currentSeq);
    });

    it('keeps the current state equal to the fold of the whole log, for random matches of every preset', async () => {
      let n = 0;
      for (const { preset, overrides } of CONFIGS) {
        const count = overrides.players as number;
        const matchId = await startedMatch(store, preset, overrides, count);
        const rng = mulberry32(1000 + n++);
        let plays = 0;
        let checked: MatchState | null = null;
        for (;;) {
          const state = await store.state(matchId);
          if (state.phase !== 'playing' || plays >= db.playsPerMatch) break;
          if (plays % 10 === 0) {
            const log = await store.eventsFrom(matchId, 1, 100_000);
            expect(replay(log.map(joinEvent), seedFromHex(await secretSeed(db, matchId)))).toEqual(state);
            checked = state;
          }
          const cmd = randomCommand(state, rng);
          await store.execute(matchId, cmd, { actor: (cmd as { player: string }).player });
          plays++;
        }
        expect(checked).not.toBeNull();
        const log = await store.eventsFrom(matchId, 1, 100_000);
        const final = replay(log.map(joinEvent), seedFromHex(await secretSeed(db, matchId)));
        expect(await store.state(matchId)).toEqual(final);
        expect(await storeOn().state(matchId)).toEqual(final); // cold: folded from the log
        const summary = await store.get(matchId);
        expect(summary.currentSeq).toBe(log.length);
        if (final.phase === 'over') {
          expect(summary.status).toBe('over');
          expect(summary.winner).toBe(final.result!.winner);
          expect(summary.revealedSeed).toBe(await secretSeed(db, matchId));
          expect(summary.endedAt).not.toBeNull();
        } else {
          expect(summary.revealedSeed).toBeNull();
        }
        const verdict = await archive.verify(matchId);
        expect(verdict).toMatchObject({ sound: true, checked: final.phase === 'over' ? 'chain+rules' : 'chain', events: log.length });
      }
    }, 300_000);

    it("never returns the seed, or a hand that is not the viewer's, before the end", async () => {
      const matchId = await startedMatch(store);
      await playToEnd(store, matchId, 5, 3);
      const seed = await secretSeed(db, matchId);
      const seen: unknown[] = [
        await store.get(matchId),
        await store.listMatches('p0'),
        await store.eventsFrom(matchId, 1, 1000),
        await archive.verify(matchId),
        await viewOf(matchId, 'p0'),
        await viewOf(matchId, 'p1'),
        await viewOf(matchId, null),
        await viewOf(matchId, 'stranger'),
        await db.prisma.match.findUnique({ where: { id: matchId } }),
        await db.prisma.match.findMany(),
      ];
      for (const value of seen) expect(JSON.stringify(value)).not.toContain(seed);
      expect((await store.get(matchId)).revealedSeed).toBeNull();
      const state = await store.state(matchId);
      const p0 = (await viewOf(matchId, 'p0')) as { hand: string[] };
      expect(p0.hand.length).toBe(state.hands[0].length);
      expect((await viewOf(matchId, null)) as { hand: string[] }).toMatchObject({ hand: [] });
      expect(JSON.stringify(await viewOf(matchId, 'p0'))).not.toContain('"hands"');
      expect(await codeOf(archive.exportJsonl(matchId))).toBe('FORBIDDEN');
      expect(await codeOf(archive.exportNotation(matchId))).toBe('FORBIDDEN');
      expect(await archive.verify(matchId)).toMatchObject({ sound: true, checked: 'chain' });
      // once over, it is revealed
      await playToEnd(store, matchId, 5);
      expect((await store.get(matchId)).revealedSeed).toBe(seed);
      expect(await viewOf(matchId, null)).toMatchObject({ seed });
    });

    describe('tampering, bypassing the trigger as a superuser would', () => {
      const finished: string[] = [];
      beforeAll(async () => {
        for (let i = 0; i < 5; i++) {
          const id = await startedMatch(store);
          await playToEnd(store, id, 100 + i);
          finished.push(id);
        }
      }, 120_000);

      const K = 7;

      it('finds an altered event at its seq', async () => {
        const id = finished[0];
        expect(await archive.verify(id)).toMatchObject({ sound: true });
        await db.tamper(`UPDATE match_events SET actor = 'mallory' WHERE match_id = '${id}' AND seq = ${K}`);
        expect(await archive.verify(id)).toMatchObject({ sound: false, seq: K });
      });

      it('finds a deleted event at its seq', async () => {
        const id = finished[1];
        await db.tamper(`DELETE FROM match_events WHERE match_id = '${id}' AND seq = ${K}`);
        expect(await archive.verify(id)).toMatchObject({ sound: false, seq: K });
      });

      it('finds a deleted last event', async () => {
        const id = finished[2];
        const last = (await store.get(id)).currentSeq;
        await db.tamper(`DELETE FROM match_events WHERE match_id = '${id}' AND seq = ${last}`);
        expect(await archive.verify(id)).toMatchObject({ sound: false, seq: last });
      });

      it('finds two reordered events at the first of them', async () => {
        const id = finished[3];
        await db.tamper(
          [
            `UPDATE match_events SET seq = -1 WHERE match_id = '${id}' AND seq = ${K}`,
            `UPDATE match_events SET seq = ${K} WHERE match_id = '${id}' AND seq = ${K + 1}`,
            `UPDATE match_events SET seq = ${K + 1} WHERE match_id = '${id}' AND seq = -1`,
          ].join(';\n'),
        );
        expect(await archive.verify(id)).toMatchObject({ sound: false, seq: K });
      });

      it('finds a changed play even when the chain is rebuilt over it (re-deciding from the seed)', async () => {
        const id = finished[4];
        const log = await store.eventsFrom(id, 1, 100_000);
        const victim = log.find((e) => e.type === 'CardPlayed' && e.seq > 10)!;
        // A card the seat did not hold then: the forged play itself breaks the rules, so verify must stop at it.
        const before = await store.state(id, victim.seq - 1);
        const held = new Set(before.hands[victim.payload.seat as number].map(cardCode));
        const forged = allCards()
          .map(cardCode)
          .find((code) => !held.has(code))!;
        const payload = { ...victim.payload, card: forged, capture: [] };
        let prev = victim.prevHash;
        const rows: string[] = [];
        for (const e of log.filter((x) => x.seq >= victim.seq)) {
          const p = e.seq === victim.seq ? payload : e.payload;
          const hash = eventHash(prev, id, { seq: e.seq, type: e.type, payload: p, actor: e.actor });
          rows.push(
            `UPDATE match_events SET payload = '${JSON.stringify(p)}'::jsonb, prev_hash = '${prev}', hash = '${hash}' WHERE match_id = '${id}' AND seq = ${e.seq}`,
          );
          prev = hash;
        }
        await db.tamper(rows.join(';\n'));
        const verdict = await archive.verify(id);
        expect(verdict).toMatchObject({ sound: false, seq: victim.seq });
      });
    });

    it('exports a finished match as JSON Lines that the offline audit finds sound, and finds a forged one', async () => {
      const id = await startedMatch(store, 'scopa-d-assi', {}, 3);
      await playToEnd(store, id, 77);
      const jsonl = await archive.exportJsonl(id);
      const lines = jsonl.trim().split('\n');
      const header = JSON.parse(lines[0]);
      expect(header).toMatchObject({ format: 'scopa-match/2', matchId: id, preset: 'scopa-d-assi', rulesVersion: 'scopa-rules/5', events: lines.length - 1 });
      expect(header.seed).toBe(await secretSeed(db, id));
      expect(Object.keys(JSON.parse(lines[1])).sort()).toEqual(['actor', 'hash', 'payload', 'prevHash', 'seq', 'time', 'type']);
      expect(auditJsonl(jsonl)).toMatchObject({ sound: true, matchId: id, events: lines.length - 1 });
      // forge a capture into event 9's line
      const forged = lines.map((l, i) => (i === 9 ? l.replace('"actor":"p', '"actor":"x') : l)).join('\n');
      expect(auditJsonl(forged)).toMatchObject({ sound: false, seq: 9 });
      const wrongSeed = [JSON.stringify({ ...header, seed: 'f'.repeat(64) }), ...lines.slice(1)].join('\n');
      expect(auditJsonl(wrongSeed)).toMatchObject({ sound: false });
      // and through the command line tool
      const dir = mkdtempSync(path.join(tmpdir(), 'scopa-audit-'));
      try {
        writeFileSync(path.join(dir, 'ok.jsonl'), jsonl);
        writeFileSync(path.join(dir, 'forged.jsonl'), forged);
        writeFileSync(path.join(dir, 'ok.scopa'), await archive.exportNotation(id));
        const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
        const ok = spawnSync(tsx, ['scripts/audit.ts', path.join(dir, 'ok.jsonl'), path.join(dir, 'ok.scopa')], { encoding: 'utf8' });
        expect(ok.stdout).toMatch(/ok\.jsonl: sound/);
        expect(ok.stdout).toMatch(/ok\.scopa: sound/);
        expect(ok.status).toBe(0);
        const bad = spawnSync(tsx, ['scripts/audit.ts', path.join(dir, 'forged.jsonl')], { encoding: 'utf8' });
        expect(bad.stdout).toMatch(/UNSOUND.*seq 9/);
        expect(bad.status).toBe(1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it('exports many matches at once, through the driver as through Prisma, as it exports each alone', async () => {
      const finished = [await startedMatch(store, 'scopa'), await startedMatch(store, 'scopone', {}, 4)];
      await playToEnd(store, finished[0], 5);
      await store.execute(finished[1], { type: 'resign', player: 'p1' }, { actor: 'p1' });
      const unfinished = await startedMatch(store, 'scopa');
      const unknown = '00000000-0000-4000-8000-000000000000';
      const ids = [...finished, unfinished, unknown];
      const change: ExportRatingChange = {
        player: 'p0',
        side: 0,
        result: 'win',
        ratingBefore: 1500,
        ratingAfter: 1662.31,
        rdBefore: 350,
        rdAfter: 290.32,
        volatilityBefore: 0.06,
        volatilityAfter: 0.06,
      };
      const ratingChanges = new Map([[finished[0], [change]]]);
      const written = async (archive: MatchArchive) =>
        new Map([...(await archive.exportWriters(ids, ratingChanges))].map(([id, write]) => [id, write ? write() : null]));
      const throughDriver = await written(new MatchArchive(db.prisma, { rows: db.rows }));
      const throughPrisma = await written(new MatchArchive(db.prisma));
      expect([...throughDriver.keys()]).toEqual(ids);
      expect(throughDriver.get(finished[0])).toBe(await archive.exportJsonl(finished[0], [change]));
      expect(throughDriver.get(finished[1])).toBe(await archive.exportJsonl(finished[1]));
      expect(throughDriver.get(unfinished)).toBeNull();
      expect(throughDriver.get(unknown)).toBeNull();
      expect(throughPrisma).toEqual(throughDriver);
      for (const id of finished) expect(auditJsonl(throughDriver.get(id)!)).toMatchObject({ sound: true, matchId: id });
    }, 60_000);

    it('writes the notation of a finished match and parses it back, re-deciding every play', async () => {
      for (const [preset, n, seed] of [
        ['scopa', 2, 3],
        ['scopone', 4, 4],
        ['scopa-quindici', 3, 5],
      ] as const) {
        const id = await startedMatch(store, preset, preset === 'scopone' ? { teams: true } : {}, n);
        await playToEnd(store, id, seed);
        const text = await archive.exportNotation(id);
        expect(text).toMatch(/^\[Event "Scopa match"\]/);
        for (const h of ['Preset', 'Options', 'Seats', 'Commitment', 'Seed', 'Result', 'RulesVersion']) expect(text).toContain(`[${h} "`);
        const parsed = parseNotation(text);
        const log = (await store.eventsFrom(id, 1, 100_000)).map(joinEvent);
        const plays = log.filter((e) => e.type === 'CardPlayed');
        expect(parsed.tokens.filter((t) => t.kind === 'play')).toHaveLength(plays.length);
        expect(parsed.headers.Seed).toBe(await secretSeed(db, id));
        expect(auditNotation(text)).toMatchObject({ sound: true, plies: plays.length });
        // flip the first scopa mark, or add one where there is none
        const firstPlay = parsed.tokens.find((t) => t.kind === 'play')!;
        const flipped = text.replace(` ${firstPlay.text} `, ` ${firstPlay.text.endsWith('#') ? firstPlay.text.slice(0, -1) : firstPlay.text + '#'} `);
        expect(auditNotation(flipped)).toMatchObject({ sound: false, ply: 1 });
        expect(auditNotation(text.replace(/\[Seed "[0-9a-f]+"\]/, `[Seed "${'0'.repeat(64)}"]`))).toMatchObject({ sound: false });
      }
    }, 60_000);

    it('records resignations and their result in the log, the notation and the audit', async () => {
      const id = await startedMatch(store);
      await playToEnd(store, id, 9, 5);
      await store.execute(id, { type: 'resign', player: 'p1' }, { actor: 'p1' });
      const summary = await store.get(id);
      expect(summary).toMatchObject({ status: 'over', winner: 0 });
      expect(await archive.verify(id)).toMatchObject({ sound: true, checked: 'chain+rules' });
      const text = await archive.exportNotation(id);
      expect(text).toContain('resign(1)');
      expect(auditNotation(text)).toMatchObject({ sound: true });
      expect(auditJsonl(await archive.exportJsonl(id))).toMatchObject({ sound: true });
    });
  });
}
