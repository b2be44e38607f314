/**
 * Ratings over the public API on PGlite: accounts play rated matches (one to
 * the end, the others by resignation, one with bots); every rating must move
 * as Glicko-2 says, checked against a computation written here from
 * Glickman's paper (not from the implementation); an unrated match changes
 * nothing; a rebuild from the logs gives the same rows; hints are refused;
 * profiles, rating history, leaderboard and crosstable answer.
 * RATING_PERIOD is one second here, so that inactivity steps happen too.
 */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { auditJsonl } from '../src/match-formats/export';
import { RatingStore } from '../src/ratings/rating-store';
import { RatingsService } from '../src/ratings/ratings.service';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { playOneCardEach, playToEnd, restTransport } from './support/play';

// ------------------------------------------------------------ reference Glicko-2
// Glickman, "Example of the Glicko-2 system", steps 1 to 8; tau 0.5; start 1500/350/0.06.

interface R {
  rating: number;
  rd: number;
  volatility: number;
}
const SCALE = 173.7178;
const TAU = 0.5;
const NEW: R = { rating: 1500, rd: 350, volatility: 0.06 };

function referencePeriod(me: R, games: { opp: R; score: number }[]): R {
  const mu = (me.rating - 1500) / SCALE;
  const phi = me.rd / SCALE;
  const sigma = me.volatility;
  const g = (p: number) => 1 / Math.sqrt(1 + (3 * p * p) / (Math.PI * Math.PI));
  let vInv = 0;
  let sum = 0;
  for (const { opp, score } of games) {
    const muj = (opp.rating - 1500) / SCALE;
    const phij = opp.rd / SCALE;
    const e = 1 / (1 + Math.exp(-g(phij) * (mu - muj)));
    vInv += g(phij) ** 2 * e * (1 - e);
    sum += g(phij) * (score - e);
  }
  const v = 1 / vInv;
  const delta = v * sum;
  // Step 5: the new volatility by the Illinois algorithm.
  const a = Math.log(sigma * sigma);
  const f = (x: number) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (TAU * TAU);
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * TAU) < 0) k++;
    B = a - k * TAU;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-10) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const sigma2 = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigma2 * sigma2);
  const phi2 = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  return { rating: 1500 + SCALE * (mu + phi2 * phi2 * sum), rd: SCALE * phi2, volatility: sigma2 };
}

/** The no-game step n times: φ² grows by σ² each time; RD at most 350. */
function referenceInactivity(r: R, periods: number): R {
  const phi = r.rd / SCALE;
  return { ...r, rd: Math.min(350, SCALE * Math.sqrt(phi * phi + periods * r.volatility * r.volatility)) };
}

const PERIOD_MS = 1000;

class Reference {
  readonly ratings = new Map<string, R & { last: number; games: number; wins: number; losses: number; draws: number }>();
  inactivitySteps = 0;
  readonly changes = new Map<string, Map<string, { before: R; after: R }>>();

  /**
   * One rated match: sides of players, the winning side (null: draw), when it ended; `ranks` (1 = best)
   * for more than two sides, where each pair of players scores by rank.
   */
  match(id: string, pool: string, sides: string[][], winner: number | null, endedAt: number, ranks?: number[]): void {
    const rank = ranks ?? sides.map((_, s) => (winner === null || winner === s ? 1 : 2));
    const key = (p: string) => `${pool}|${p}`;
    const before = new Map<string, R>();
    for (const side of sides) {
      for (const p of side) {
        const cur = this.ratings.get(key(p));
        const periods = cur ? Math.floor((endedAt - cur.last) / PERIOD_MS) : 0;
        this.inactivitySteps += periods;
        before.set(p, cur ? referenceInactivity(cur, periods) : NEW);
      }
    }
    const changes = new Map<string, { before: R; after: R }>();
    sides.forEach((side, s) => {
      for (const p of side) {
        const games = sides.flatMap((other, o) =>
          o === s ? [] : other.map((q) => ({ opp: before.get(q)!, score: rank[s] < rank[o] ? 1 : rank[s] > rank[o] ? 0 : 0.5 })),
        );
        const after = referencePeriod(before.get(p)!, games);
        changes.set(p, { before: before.get(p)!, after });
      }
    });
    sides.forEach((side, s) => {
      for (const p of side) {
        const old = this.ratings.get(key(p));
        this.ratings.set(key(p), {
          ...changes.get(p)!.after,
          last: endedAt,
          games: (old?.games ?? 0) + 1,
          wins: (old?.wins ?? 0) + (winner === s ? 1 : 0),
          losses: (old?.losses ?? 0) + (winner !== s && !(winner === null && rank[s] === 1) ? 1 : 0),
          draws: (old?.draws ?? 0) + (winner === null && rank[s] === 1 ? 1 : 0),
        });
      }
    });
    this.changes.set(id, changes);
  }
}

// ------------------------------------------------------------ the suite

describe('ratings (e2e, PGlite)', () => {
  let app: INestApplication;
  let ann: Account;
  let bob: Account;
  let cat: Account;
  const saved: Record<string, string | undefined> = {};
  const ENV = { RATING_PERIOD: 'PT1S', RATE_LIMIT: '1000000' };
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const ref = new Reference();
  /** Rated matches between ann and bob: [matchId, pool, winner's name]. */
  const headToHead: { id: string; pool: string; winner: string | null }[] = [];
  let threePool = '';
  let threeMatch = '';

  beforeAll(async () => {
    for (const k of Object.keys(ENV)) saved[k] = process.env[k];
    app = await createTestApp(ENV);
    [ann, bob, cat] = [await register(app, 'ann'), await register(app, 'bob'), await register(app, 'cat')];
  });

  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  /** The match once its rating changes are recorded (the recorder runs right after the end). */
  async function ratedResult(id: string): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await http().get(`/v1/matches/${id}`).set('authorization', auth(ann));
      expect(res.status).toBe(200);
      if (res.body.ratingChanges) return res.body;
      if (Date.now() > deadline) throw new Error(`match ${id}: no rating changes`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** When the match ended, as the log says (the MatchEnded event's time). */
  async function endTime(id: string): Promise<number> {
    const events = (await http().get(`/v1/matches/${id}/events?limit=1000`).set('authorization', auth(ann))).body as { type: string; time: string }[];
    const ended = events.find((e) => e.type === 'MatchEnded')!;
    return new Date(ended.time).getTime();
  }

  /** Creates a match of two accounts (the first creates, the second joins), started. */
  async function twoPlayerMatch(a: Account, b: Account, rated: boolean): Promise<string> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(a))
      .send({ preset: 'scopa', rated, seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(b)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(a)).send({})).status).toBe(200);
    return id;
  }

  /** A rated scopa match between ann and bob that `loser` resigns (once each has played a card: before, it would be an abort). */
  async function resignedMatch(loser: Account): Promise<void> {
    const id = await twoPlayerMatch(ann, bob, true);
    await playOneCardEach(app, [ann, bob], id);
    expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(loser)).send({})).status).toBe(200);
    await check(id, 'scopa', [[ann.username], [bob.username]], loser === ann ? 1 : 0);
  }

  /** Feeds the reference and compares the match's recorded changes with it. */
  async function check(id: string, pool: string, sides: string[][], winner: number | null, ranks?: number[]): Promise<void> {
    const match = await ratedResult(id);
    ref.match(id, pool, sides, winner, await endTime(id), ranks);
    const expected = ref.changes.get(id)!;
    expect(match.ratingChanges.map((c: { player: string }) => c.player).sort()).toEqual([...expected.keys()].sort());
    for (const c of match.ratingChanges) {
      const e = expected.get(c.player)!;
      expect(c.ratingBefore).toBeCloseTo(e.before.rating, 6);
      expect(c.rdBefore).toBeCloseTo(e.before.rd, 6);
      expect(c.ratingAfter).toBeCloseTo(e.after.rating, 6);
      expect(c.rdAfter).toBeCloseTo(e.after.rd, 6);
      expect(c.volatilityAfter).toBeCloseTo(e.after.volatility, 8);
    }
    if (sides.length === 2 && sides[0].includes(ann.username) && sides[1].includes(bob.username)) {
      headToHead.push({ id, pool, winner: winner === null ? null : winner === 0 ? ann.username : bob.username });
    }
  }

  it('refuses a rated match without two sides of people, or with overrides; the hint in a rated match', async () => {
    const vsBot = await http()
      .post('/v1/matches')
      .set('authorization', auth(ann))
      .send({ preset: 'scopa', rated: true, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    expect(vsBot.status).toBe(400);
    expect(vsBot.body.detail).toMatch(/two sides/);
    const withOverrides = await http()
      .post('/v1/matches')
      .set('authorization', auth(ann))
      .send({ preset: 'scopa', rated: true, overrides: { target: 5 } });
    expect(withOverrides.status).toBe(400);
    expect(withOverrides.body.code).toBe('VALIDATION_FAILED');
    const notBoolean = await http().post('/v1/matches').set('authorization', auth(ann)).send({ preset: 'scopa', rated: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect(
      await http()
        .get('/v1/users/' + ann.username)
        .then((r) => r.body.ratings),
    ).toEqual([]);

    const id = await twoPlayerMatch(ann, bob, true);
    const view = (await http().get(`/v1/matches/${id}`).set('authorization', auth(ann))).body;
    const mover = view.view.turn === view.view.viewer ? ann : bob;
    const hint = await http().get(`/v1/matches/${id}/hint?level=greedy`).set('authorization', auth(mover));
    expect(hint.status).toBe(403);
    expect(hint.body.code).toBe('HINT_NOT_ALLOWED');
    const gqlHint = await gql(app, mover.token, 'query($id: ID!) { hint(matchId: $id) { card } }', { id });
    expect(errorCode(gqlHint)).toBe('HINT_NOT_ALLOWED');
    // An unrated match still gives hints.
    const unrated = await twoPlayerMatch(ann, bob, false);
    const u = (await http().get(`/v1/matches/${unrated}`).set('authorization', auth(ann))).body;
    const uMover = u.view.turn === u.view.viewer ? ann : bob;
    expect((await http().get(`/v1/matches/${unrated}/hint`).set('authorization', auth(uMover))).status).toBe(200);

    // Played to the end: its result rates both.
    const over = await playToEnd(
      restTransport(app, () => undefined),
      [ann, bob],
      id,
    );
    expect(over.status).toBe('over');
    expect(['points', 'allDenari']).toContain(over.view.result.reason);
    await check(id, 'scopa', [[ann.username], [bob.username]], over.view.result.winner);
  });

  it('moves ratings exactly as Glicko-2 says, match after match, with inactivity steps', async () => {
    // Enough matches for RD to fall under 110 (established ratings); some wait past a rating period.
    const losers = [bob, bob, ann, bob, ann, bob, bob, ann, bob, bob, ann, bob, bob, bob, ann, bob, bob, bob, ann, bob];
    for (const [i, loser] of losers.entries()) {
      if (i % 7 === 3) await new Promise((r) => setTimeout(r, 1100));
      await resignedMatch(loser);
    }
    const profile = (await http().get(`/v1/users/${ann.username}`)).body;
    const expected = ref.ratings.get(`scopa|${ann.username}`)!;
    const scopa = profile.ratings.find((r: { ruleset: string }) => r.ruleset === 'scopa');
    expect(scopa.rating).toBeCloseTo(expected.rating, 6);
    expect(scopa.rd).toBeCloseTo(expected.rd, 6);
    expect(scopa.volatility).toBeCloseTo(expected.volatility, 8);
    expect(scopa.games).toBe(expected.games);
    expect([scopa.wins, scopa.losses, scopa.draws]).toEqual([expected.wins, expected.losses, expected.draws]);
    expect(scopa.provisional).toBe(expected.rd > 110);
    expect(expected.rd).toBeLessThan(110);
    expect(profile.username).toBe(ann.username);
    expect(profile.bot).toBe(false);
    expect(new Date(profile.memberSince).getTime()).toBeLessThanOrEqual(Date.now());
    expect([profile.wins, profile.losses, profile.draws]).toEqual([expected.wins, expected.losses, expected.draws]);
    // The pauses crossed rating periods: RD grew for inactivity before some matches (and the changes above agreed).
    expect(ref.inactivitySteps).toBeGreaterThan(0);
  });

  it('an unrated match leaves every rating alone', async () => {
    const before = (await http().get(`/v1/users/${ann.username}`)).body;
    const id = await twoPlayerMatch(ann, bob, false);
    await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(bob)).send({});
    await app.get(RatingsService).record(id); // as the recorder would: a no-op for an unrated match
    const match = (await http().get(`/v1/matches/${id}`).set('authorization', auth(ann))).body;
    expect(match.status).toBe('over');
    expect(match.ratingChanges).toBeUndefined();
    const data = await gqlOk(app, ann.token, 'query($id: ID!) { match(id: $id) { ratingChanges { player } view { settings { rated } } } }', { id });
    expect(data.match).toEqual({ ratingChanges: null, view: { settings: { rated: false } } });
    expect((await http().get(`/v1/users/${ann.username}`)).body).toEqual(before);
  });

  it('rates bot levels as pseudo-accounts (teams: each player against each opponent)', async () => {
    const created = await gqlOk(app, ann.token, `mutation($i: CreateMatchInput!) { createMatch(input: $i) { id view { settings { rated } } } }`, {
      i: {
        preset: 'scopone',
        rated: true,
        seats: [{ type: 'creator' }, { type: 'reserved', username: cat.username }, { type: 'bot', bot: 'greedy' }, { type: 'bot', bot: 'random' }],
      },
    });
    const id = created.createMatch.id as string;
    expect(created.createMatch.view.settings.rated).toBe(true);
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(cat)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(ann)).send({})).status).toBe(200);
    await playOneCardEach(app, [ann, cat], id);
    expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(cat)).send({})).status).toBe(200);
    // Seats 0 and 2 are side 0 (ann and the greedy bot), seats 1 and 3 side 1 (cat and the random bot).
    await check(
      id,
      'scopone',
      [
        [ann.username, 'bot:greedy'],
        [cat.username, 'bot:random'],
      ],
      0,
    );
    const data = await gqlOk(app, cat.token, 'query($id: ID!) { match(id: $id) { ratingChanges { player side result ratingBefore ratingAfter rdAfter } } }', {
      id,
    });
    expect(data.match.ratingChanges.map((c: { player: string; result: string }) => [c.player, c.result])).toEqual([
      [ann.username, 'win'],
      ['bot:greedy', 'win'],
      ['bot:random', 'loss'],
      [cat.username, 'loss'],
    ]);
    const bot = (await http().get('/v1/users/bot:greedy')).body;
    expect(bot).toMatchObject({ username: 'bot:greedy', bot: true, memberSince: null, wins: 1, losses: 0 });
    expect(bot.ratings[0].ruleset).toBe('scopone');
    expect(bot.ratings[0].rating).toBeCloseTo(ref.ratings.get('scopone|bot:greedy')!.rating, 6);
  });

  it('a saved ruleset is its own pool; three players rate each pair by final rank', async () => {
    const saved = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', auth(ann))
      .send({ name: 'three', preset: 'scopa', overrides: { players: 3 } });
    expect(saved.status).toBe(201);
    const rulesetId = saved.body.id as string;
    threePool = rulesetId;
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(ann))
      .send({
        rulesetId,
        rated: true,
        seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }, { type: 'reserved', username: cat.username }],
      });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    threeMatch = id;
    for (const p of [bob, cat]) expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(p)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(ann)).send({})).status).toBe(200);
    await playOneCardEach(app, [ann, bob, cat], id);
    const over = (await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(bob)).send({})).body;
    // bob resigned with 0 points; ann and cat tie on 0: no winner, they share first place, bob is last.
    expect(over.view.result).toEqual({ reason: 'resignation', winner: null });
    await check(id, rulesetId, [[ann.username], [bob.username], [cat.username]], null, [1, 3, 1]);
    const changes = (await ratedResult(id)).ratingChanges as { player: string; result: string }[];
    expect(Object.fromEntries(changes.map((c) => [c.player, c.result]))).toEqual({ [ann.username]: 'draw', [bob.username]: 'loss', [cat.username]: 'draw' });
    const bobRating = (await http().get(`/v1/users/${bob.username}`)).body.ratings.find((r: { ruleset: string }) => r.ruleset === rulesetId);
    expect(bobRating.rating).toBeCloseTo(ref.ratings.get(`${rulesetId}|${bob.username}`)!.rating, 6);
    expect([bobRating.games, bobRating.losses]).toEqual([1, 1]);
    // A rated match under a saved ruleset takes no overrides on top.
    const more = await http()
      .post('/v1/matches')
      .set('authorization', auth(ann))
      .send({ rulesetId, rated: true, overrides: { target: 5 } });
    expect(more.status).toBe(400);
  });

  it('the replay shows the rating changes too', async () => {
    const { id } = headToHead[headToHead.length - 1];
    const replay = (await http().get(`/v1/matches/${id}?atSeq=1`).set('authorization', auth(cat))).body;
    expect(replay.ratingChanges.map((c: { player: string }) => c.player).sort()).toEqual([ann.username, bob.username].sort());
    // The log says it was rated, and audits sound with it (the engine re-decides the rated create).
    expect((await http().get(`/v1/matches/${id}/audit`).set('authorization', auth(cat))).body).toMatchObject({ sound: true, checked: 'chain+rules' });
    const exported = (
      await http()
        .get(`/v1/matches/${id}/export`)
        .set('authorization', auth(cat))
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => done(null, text));
        })
    ).body as string;
    expect(JSON.parse(exported.split('\n')[0]).settings.rated).toBe(true);
    expect(auditJsonl(exported)).toMatchObject({ sound: true });
  });

  it('rating history: one point per rated match, oldest first', async () => {
    const history = (await http().get(`/v1/users/${ann.username}/rating-history?ruleset=scopa`)).body as {
      matchId: string;
      rating: number;
      ratingBefore: number;
    }[];
    const mine = headToHead.filter((m) => m.pool === 'scopa');
    expect(history.map((p) => p.matchId)).toEqual(mine.map((m) => m.id));
    for (const [i, p] of history.entries()) expect(p.rating).toBeCloseTo(ref.changes.get(mine[i].id)!.get(ann.username)!.after.rating, 6);
    const gqlHistory = await gqlOk(app, null, 'query($u: String!) { ratingHistory(username: $u, ruleset: "scopa") { matchId rating } }', { u: ann.username });
    expect(gqlHistory.ratingHistory).toEqual(history.map((p) => ({ matchId: p.matchId, rating: p.rating })));
    expect((await http().get(`/v1/users/${ann.username}/rating-history`)).status).toBe(400);
    expect((await http().get(`/v1/users/${ann.username}/rating-history?ruleset=scopone-trenta`)).body).toEqual([]);
  });

  it('leaderboard: established ratings only, ranked', async () => {
    const board = (await http().get('/v1/leaderboard/scopa?limit=5')).body as { rank: number; username: string; rating: number; rd: number }[];
    const established = [ann.username, bob.username]
      .map((p) => ({ p, r: ref.ratings.get(`scopa|${p}`)! }))
      .filter(({ r }) => r.rd <= 110)
      .sort((x, y) => y.r.rating - x.r.rating);
    expect(established.length).toBeGreaterThan(0);
    expect(board.map((e) => [e.rank, e.username])).toEqual(established.map(({ p }, i) => [i + 1, p]));
    expect(board[0].rating).toBeCloseTo(established[0].r.rating, 6);
    // Everyone in scopone is still provisional.
    expect((await http().get('/v1/leaderboard/scopone')).body).toEqual([]);
    const top1 = await gqlOk(app, null, '{ leaderboard(ruleset: "scopa", limit: 1) { rank username } }');
    expect(top1.leaderboard).toEqual([{ rank: 1, username: established[0].p }]);
    for (const bad of ['0', '101', 'x', '1.5']) {
      const r = await http().get(`/v1/leaderboard/scopa?limit=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
    }
    expect(errorCode(await gql(app, null, '{ leaderboard(ruleset: "scopa", limit: 1000) { rank } }'))).toBe('VALIDATION_FAILED');
  });

  it('crosstable: head to head per pool and the last matches', async () => {
    const table = (await http().get(`/v1/crosstable/${ann.username}/${bob.username}`)).body;
    const annWins = headToHead.filter((m) => m.winner === ann.username).length;
    const bobWins = headToHead.filter((m) => m.winner === bob.username).length;
    const draws = headToHead.length - annWins - bobWins;
    // Besides the two-player matches, the three-player one, where ann (first) ranked above bob (last): a win.
    expect(table).toMatchObject({ a: ann.username, b: bob.username, wins: annWins + 1, losses: bobWins, draws });
    const byRuleset = (x: { ruleset: string }, y: { ruleset: string }) => (x.ruleset < y.ruleset ? -1 : 1);
    expect(table.pools).toEqual(
      [
        { ruleset: 'scopa', wins: annWins, losses: bobWins, draws },
        { ruleset: threePool, wins: 1, losses: 0, draws: 0 },
      ].sort(byRuleset),
    );
    expect(table.lastMatches.map((m: { matchId: string }) => m.matchId)).toEqual([
      threeMatch,
      ...headToHead
        .slice(-9)
        .reverse()
        .map((m) => m.id),
    ]);
    expect(table.lastMatches[0]).toMatchObject({ ruleset: threePool, result: 'win' });
    expect(table.lastMatches[1].result).toBe(headToHead[headToHead.length - 1].winner === ann.username ? 'win' : 'loss'); // a resigned one
    const reverse = await gqlOk(app, null, 'query($a: String!, $b: String!) { crosstable(a: $a, b: $b) { wins losses pools { ruleset } } }', {
      a: bob.username,
      b: ann.username,
    });
    expect(reverse.crosstable).toEqual({ wins: bobWins, losses: annWins + 1, pools: [{ ruleset: 'scopa' }, { ruleset: threePool }].sort(byRuleset) });
    // ann and cat met in scopone (ann's side won) and in the three-player ruleset (shared first place).
    const annCat = (await http().get(`/v1/crosstable/${ann.username}/${cat.username}`)).body;
    const pools = [
      { ruleset: 'scopone', wins: 1, losses: 0, draws: 0 },
      { ruleset: threePool, wins: 0, losses: 0, draws: 1 },
    ].sort(byRuleset);
    expect(annCat.pools).toEqual(pools);
    expect([annCat.wins, annCat.losses, annCat.draws]).toEqual([1, 0, 1]);
  });

  it('unknown users are NOT_FOUND', async () => {
    for (const path of [
      '/v1/users/nobody-here',
      '/v1/users/bot:grandmaster',
      '/v1/users/nobody-here/rating-history?ruleset=scopa',
      `/v1/crosstable/${ann.username}/nobody-here`,
    ]) {
      const r = await http().get(path);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('NOT_FOUND');
    }
    expect(errorCode(await gql(app, null, '{ user(username: "nobody-here") { username } }'))).toBe('NOT_FOUND');
    expect((await http().get(`/v1/crosstable/${ann.username}/${ann.username.toUpperCase()}`)).status).toBe(400);
  });

  it('a rebuild from the logs gives the same ratings, and recording a match twice changes nothing', async () => {
    const prisma = app.get(PrismaService);
    const snapshot = async () => ({
      ratings: await prisma.rating.findMany({ orderBy: [{ pool: 'asc' }, { player: 'asc' }] }),
      changes: await prisma.ratingChange.findMany({ orderBy: [{ matchId: 'asc' }, { player: 'asc' }] }),
      matches: await prisma.ratedMatch.findMany({ orderBy: { matchId: 'asc' } }),
    });
    const before = await snapshot();
    // ann, bob in scopa; ann, cat, bot:greedy, bot:random in scopone; ann, bob, cat in the three-player ruleset
    expect(before.ratings.length).toBe(9);
    expect(await app.get(RatingsService).record(headToHead[0].id)).toBe('already recorded');
    const result = await app.get(RatingsService).rebuild();
    expect(result).toEqual({ matches: headToHead.length + 2, rated: headToHead.length + 2 });
    expect(await snapshot()).toEqual(before);

    // Two instances taking the same ends at once: each match is rated by one of them, the other finds it taken.
    await prisma.$transaction([prisma.ratingChange.deleteMany(), prisma.ratedMatch.deleteMany(), prisma.rating.deleteMany()]);
    const other = new RatingStore(prisma, { periodMs: PERIOD_MS });
    const inEndOrder = [...before.matches].sort((x, y) => x.endedAt.getTime() - y.endedAt.getTime() || (x.matchId < y.matchId ? -1 : 1));
    for (const { matchId } of inEndOrder) {
      const outcomes = await Promise.all([app.get(RatingsService).record(matchId), other.record(matchId)]);
      expect(outcomes.sort()).toEqual(['already recorded', 'rated']);
    }
    expect(await snapshot()).toEqual(before);
  });
});
