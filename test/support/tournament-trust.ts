/**
 * The tournament trust pass (issue 42, items 3, 4, 6 and 7) as scenarios any
 * number of instances run (test/tournament-trust.e2e-spec.ts on PGlite, one
 * instance; test/tournament-trust.pg-spec.ts on PostgreSQL, two): every call
 * goes through the public API of instance `i % n`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@jest/globals';
import request from 'supertest';
import { auditTournament } from '../../src/tournaments/tournament-audit';
import { verifyTournamentSignature } from '../../src/tournaments/tournament-export';
import type { TournamentExportHeader } from '../../src/tournaments/tournament-export';
import { canonicalJson, sha256Hex } from '../../src/match-formats/chain';
import { openNdjson } from './ndjson-stream';

export interface Player {
  username: string;
  token: string;
  auth: string;
}

export interface Cluster {
  /** Requests through instance i (mod the number of instances). */
  via(i: number): ReturnType<typeof request>;
  /** The base URL (http://127.0.0.1:port) of instance i. */
  base(i: number): string;
  register(i: number, prefix: string): Promise<Player>;
}

/** `npm run audit -- args...` (node with tsx's loader: the same script), its exit code and output. */
export function audit(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...args], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

interface Table {
  table: number;
  players: string[];
  matchId: string | null;
  outcome: string | null;
}

async function ok(res: Promise<request.Response> | request.Response, status = 200): Promise<any> {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r.body;
}

async function field(c: Cluster, n: number, prefix: string): Promise<Player[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => c.register(i, prefix)));
}

/** A tournament of `players` created by the first, everyone joined, started. */
async function started(c: Cluster, players: Player[], body: Record<string, unknown>): Promise<string> {
  const t = await ok(
    c
      .via(0)
      .post('/v1/tournaments')
      .set('authorization', players[0].auth)
      .send({ name: 'Trust', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, ...body }),
    201,
  );
  for (const [i, p] of players.entries()) await ok(c.via(i).post(`/v1/tournaments/${t.id}/join`).set('authorization', p.auth).send({}));
  await ok(c.via(1).post(`/v1/tournaments/${t.id}/start`).set('authorization', players[0].auth).send({}));
  return t.id;
}

const round = async (c: Cluster, id: string, n: number): Promise<{ tables: Table[]; ended: boolean; seed: string | null }> =>
  ok(c.via(n).get(`/v1/tournaments/${id}/rounds/${n}`));

/** Item 3: abort at a tournament table once dealt is 409 ABORT_NOT_ALLOWED over REST and GraphQL, for either player, and changes nothing. */
export async function abortRefused(c: Cluster): Promise<void> {
  for (const duplicate of [false, true]) {
    const players = await field(c, 2, duplicate ? 'abd' : 'abn');
    const id = await started(c, players, { rounds: 1, duplicate });
    const [t] = (await round(c, id, 1)).tables;
    const who = new Map(players.map((p) => [p.username, p]));
    const before = await ok(c.via(0).get(`/v1/matches/${t.matchId}`).set('authorization', players[0].auth));
    expect(before.status).toBe('playing');
    for (const [i, name] of t.players.entries()) {
      const res = await c.via(i).post(`/v1/matches/${t.matchId}/abort`).set('authorization', who.get(name)!.auth).send({});
      expect([res.status, res.body.code]).toEqual([409, 'ABORT_NOT_ALLOWED']);
      const g = await c
        .via(i + 1)
        .post('/graphql')
        .set('authorization', who.get(name)!.auth)
        .send({ query: 'mutation($id: ID!) { abort(matchId: $id) { status } }', variables: { id: t.matchId } });
      expect(g.body.errors?.[0]?.extensions?.code).toBe('ABORT_NOT_ALLOWED');
    }
    const after = await ok(c.via(1).get(`/v1/matches/${t.matchId}`).set('authorization', players[0].auth));
    expect([after.status, after.seq]).toEqual(['playing', before.seq]);
    expect((await round(c, id, 1)).tables[0].outcome).toBeNull();
    // resigning stays the way out: the table's result is recorded
    await ok(c.via(0).post(`/v1/matches/${t.matchId}/resign`).set('authorization', who.get(t.players[1])!.auth).send({}));
    expect((await round(c, id, 1)).tables[0].outcome).toBe('first');
  }
}

/**
 * Item 3: a duplicate round's table that ends first tells its own players
 * nothing of the deal until the round ends: the command's answer, the view,
 * GraphQL's reveal, the events, the live match stream (opened before the end),
 * the event stream, the export (JSON Lines and notation), the batch export,
 * the archive stream with exports, the summaries' revealedSeed and the
 * analysis. Once the other table ends (the round with it), all of it is there.
 */
export async function duplicateRevealWaits(c: Cluster): Promise<void> {
  const players = await field(c, 4, 'dr');
  const id = await started(c, players, { rounds: 2, duplicate: true });
  const who = new Map(players.map((p) => [p.username, p]));
  const [t1, t2] = (await round(c, id, 1)).tables;
  const [first, second] = t1.players.map((p) => who.get(p)!);
  const m = t1.matchId!;

  // Live feeds opened while the table plays: the match stream and both players' event streams (on the instance that
  // takes the resignation: without Redis, live notices stay on the instance that appended).
  const matchStream = await openNdjson(`${c.base(0)}/v1/matches/${m}/stream`, first.token);
  const events1 = await openNdjson(`${c.base(0)}/v1/stream/events`, first.token);
  const events2 = await openNdjson(`${c.base(0)}/v1/stream/events`, second.token);
  const texts: [string, string][] = [];
  try {
    expect(matchStream.status).toBe(200);
    await matchStream.waitFor((l) => typeof l.event?.seq === 'number', 10_000, 'the match stream');
    const resigned = await ok(c.via(0).post(`/v1/matches/${m}/resign`).set('authorization', second.auth).send({}));
    expect(resigned.status).toBe('over');
    expect(resigned.reveal).toBeNull();
    texts.push(['the resignation', JSON.stringify(resigned)]);

    const ended = await matchStream.waitFor((l) => l.event?.type === 'MatchEnded', 10_000, 'MatchEnded on the match stream');
    expect(ended.event.payload.seed).toBeNull();
    expect(ended.match.reveal).toBeNull();
    await matchStream.ended;
    texts.push(['the match stream', matchStream.raw.join('\n')]);
    for (const [name, s] of [
      ['event stream 1', events1],
      ['event stream 2', events2],
    ] as const) {
      await s.waitFor((l) => l.type === 'matchEnded' && l.matchId === m, 10_000, name);
      texts.push([name, s.raw.join('\n')]);
    }
  } finally {
    matchStream.close();
    events1.close();
    events2.close();
  }
  for (const [i, p] of [first, second].entries()) {
    const view = await ok(c.via(i).get(`/v1/matches/${m}`).set('authorization', p.auth));
    expect([view.status, view.reveal]).toEqual(['over', null]);
    texts.push([`the view (${i})`, JSON.stringify(view)]);
    const replay = await ok(
      c
        .via(i)
        .get(`/v1/matches/${m}?atSeq=${view.seq - 1}`)
        .set('authorization', p.auth),
    );
    expect(replay.reveal).toBeNull();
    texts.push([`the replay (${i})`, JSON.stringify(replay)]);
    const g = await c
      .via(i + 1)
      .post('/graphql')
      .set('authorization', p.auth)
      .send({ query: 'query($id: ID!) { match(id: $id) { status reveal { seed hands } } }', variables: { id: m } });
    expect(g.body.data.match).toEqual({ status: 'over', reveal: null });
    const events = await ok(c.via(i).get(`/v1/matches/${m}/events`).set('authorization', p.auth));
    const end = (events as { type: string; payload: { seed: unknown } }[]).find((e) => e.type === 'MatchEnded');
    expect(end?.payload.seed).toBeNull();
    texts.push([`the events (${i})`, JSON.stringify(events)]);
    for (const accept of ['application/x-ndjson', 'text/plain']) {
      const exp = await c.via(i).get(`/v1/matches/${m}/export`).set('authorization', p.auth).set('accept', accept);
      expect([accept, exp.status, exp.body.code]).toEqual([accept, 403, 'TOURNAMENT_TABLE_HIDDEN']);
    }
    const batch = await c
      .via(i + 1)
      .post('/v1/matches/export')
      .set('authorization', p.auth)
      .send({ ids: [m] });
    expect(JSON.parse(batch.text.trim()).error.code).toBe('TOURNAMENT_TABLE_HIDDEN');
    const archive = await c.via(i).get(`/v1/users/${p.username}/matches?withEvents=true`).set('authorization', p.auth).set('accept', 'application/x-ndjson');
    expect(archive.status).toBe(200);
    texts.push([`the archive stream (${i})`, archive.text]);
    const mine = await ok(
      c
        .via(i + 1)
        .get('/v1/matches?status=over')
        .set('authorization', p.auth),
    );
    const row = (mine as { id: string; revealedSeed: string | null }[]).find((x) => x.id === m);
    expect(row?.revealedSeed).toBeNull();
    texts.push([`my matches (${i})`, JSON.stringify(mine)]);
    const analysis = await c.via(i).post(`/v1/matches/${m}/analysis`).set('authorization', p.auth).send({});
    expect([analysis.status, analysis.body.code]).toEqual([403, 'TOURNAMENT_TABLE_HIDDEN']);
  }
  expect((await round(c, id, 1)).ended).toBe(false);

  // The other table ends, and with it the round: the reveal is everyone's.
  await ok(c.via(0).post(`/v1/matches/${t2.matchId}/resign`).set('authorization', who.get(t2.players[1])!.auth).send({}));
  const r1 = await round(c, id, 1);
  expect(r1.ended).toBe(true);
  const view = await ok(c.via(1).get(`/v1/matches/${m}`).set('authorization', first.auth));
  expect(view.reveal.seed).toMatch(/^[0-9a-f]{64}$/);
  expect(view.reveal.hands).toHaveLength(2);
  const seed: string = view.reveal.seed;
  const exp = await c.via(0).get(`/v1/matches/${m}/export`).set('authorization', second.auth);
  expect(exp.status).toBe(200);
  expect(JSON.parse(exp.text.split('\n')[0]).seed).toBe(seed);
  const events = await ok(c.via(1).get(`/v1/matches/${m}/events`).set('authorization', second.auth));
  expect((events as { type: string; payload: { seed: unknown } }[]).find((e) => e.type === 'MatchEnded')?.payload.seed).toBe(seed);
  // Nothing sent before the round's end held the seed (the same seed deals table 2: the whole point).
  for (const [where, text] of texts) expect([where, text.includes(seed)]).toEqual([where, false]);
}

/** The documented chain formula (docs/tournaments.md): hash = hex(SHA-256(prevHash ‖ canonical_json({tournamentId, seq, type, payload, actor, time}))). */
function rehash(lines: Record<string, any>[]): Record<string, any>[] {
  let prev = '0'.repeat(64);
  return lines.map((l) => {
    const hash = sha256Hex(prev + canonicalJson({ tournamentId: l.tournamentId, seq: l.seq, type: l.type, payload: l.payload, actor: l.actor, time: l.time }));
    const out = { ...l, prevHash: prev, hash };
    prev = hash;
    return out;
  });
}

const swap = <T>(v: T, from: string, to: string): T => JSON.parse(JSON.stringify(v).split(JSON.stringify(from)).join(JSON.stringify(to))) as T;
const jsonl = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/**
 * Item 4: the tournament export is signed with the match exports' key and
 * audits with them; a player renamed throughout and the chain re-hashed by
 * the documented formula is UNSOUND beside the match exports (players and
 * seats), and its signature fails with --keys; the headerless export of
 * before still audits as sound without --keys.
 */
export async function signedExportAudit(c: Cluster, issuer: string): Promise<void> {
  const players = await field(c, 4, 'au');
  const id = await started(c, players, { rounds: 2 });
  const who = new Map(players.map((p) => [p.username, p]));
  for (let n = 1; n <= 2; n++) {
    for (const t of (await round(c, id, n)).tables)
      await ok(
        c
          .via(n)
          .post(`/v1/matches/${t.matchId}/resign`)
          .set('authorization', who.get(t.players[t.table % 2])!.auth)
          .send({}),
      );
  }
  expect((await ok(c.via(0).get(`/v1/tournaments/${id}`))).status).toBe('finished');
  const text = (await c.via(1).get(`/v1/tournaments/${id}/export`)).text;
  const [headerLine, ...eventLines] = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
  const header = headerLine as unknown as TournamentExportHeader;
  expect(header).toMatchObject({
    format: 'scopa-tournament/2',
    tournamentId: id,
    createdBy: players[0].username,
    status: 'finished',
    events: eventLines.length,
    lastHash: eventLines[eventLines.length - 1].hash,
    issuer,
    keyId: expect.any(String),
    signature: expect.any(String),
  });
  expect(header.players).toEqual(players.map((p) => p.username));
  const keys = JSON.parse((await c.via(0).get('/.well-known/scopa-keys.json')).text);
  expect(verifyTournamentSignature(header, keys).status).toBe('valid');

  const matchExports = new Map<string, string>();
  for (let n = 1; n <= 2; n++) {
    for (const t of (await round(c, id, n)).tables)
      matchExports.set(t.matchId!, (await c.via(n).get(`/v1/matches/${t.matchId}/export`).set('authorization', players[0].auth)).text);
  }
  expect(auditTournament(text, matchExports).problems).toEqual([]);

  // Rename the player of table 1's first seat in round 1 throughout (events and header), then re-hash the chain.
  const victim = (await round(c, id, 1)).tables[0].players[0];
  const forger = `${victim}x`;
  const forgedEvents = rehash(swap(eventLines, victim, forger));
  const forgedHeader = { ...swap(headerLine, victim, forger), lastHash: forgedEvents[forgedEvents.length - 1].hash };
  const forged = jsonl([forgedHeader, ...forgedEvents]);
  const headerless = jsonl(forgedEvents);
  // The chain and the pairings hold: only who played tells it apart.
  expect(auditTournament(headerless).problems).toEqual([]);
  const unsound = auditTournament(headerless, matchExports).problems;
  expect(unsound.length).toBeGreaterThan(0);
  expect(unsound.join('; ')).toMatch(/players .* are not the seats of match/);
  expect(auditTournament(forged, matchExports).problems.join('; ')).toMatch(/are not the seats of match/);
  expect(verifyTournamentSignature(forgedHeader as unknown as TournamentExportHeader, keys).status).toBe('invalid');
  // An edit of the log under an untouched header: the header's last hash says so.
  expect(auditTournament(jsonl([headerLine, ...forgedEvents])).problems.join('; ')).toMatch(/header: lastHash/);

  const dir = mkdtempSync(path.join(tmpdir(), 'tournament-trust-'));
  try {
    const file = (name: string, body: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, body);
      return p;
    };
    const keysFile = file('keys.json', JSON.stringify(keys));
    const matchFiles = [...matchExports].map(([mid, body]) => file(`${mid}.jsonl`, body));
    const sound = await audit(['--keys', keysFile, file('tournament.jsonl', text), ...matchFiles]);
    expect(sound.stdout).toMatch(/tournament\.jsonl: sound: .*signature valid: signed by /);
    expect(sound.code).toBe(0);
    const renamed = await audit([file('renamed.jsonl', forged), ...matchFiles]);
    expect(renamed.stdout).toMatch(/renamed\.jsonl: UNSOUND: .*are not the seats of match/);
    expect(renamed.code).toBe(1);
    const signatureFails = await audit(['--keys', keysFile, file('renamed-alone.jsonl', forged)]);
    expect(signatureFails.stdout).toMatch(/renamed-alone\.jsonl: sound: .*SIGNATURE FAILS/);
    expect(signatureFails.code).toBe(1);
    // The export of before (no header): still sound without --keys; with --keys, unsigned.
    const old = file('old.jsonl', jsonl(eventLines));
    const oldAudit = await audit([old, ...matchFiles]);
    expect(oldAudit.stdout).toMatch(/old\.jsonl: sound: .*UNSIGNED/);
    expect(oldAudit.code).toBe(0);
    const oldKeys = await audit(['--keys', keysFile, old]);
    expect(oldKeys.stdout).toMatch(/old\.jsonl: sound: .*UNSIGNED: the export carries no signature/);
    expect(oldKeys.code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Item 6: at most `limit` open tournaments per creator (409 LIMIT_REACHED, nothing created); cancelling one frees a place; `parallel` racing creations admit exactly the cap. */
export async function creationCap(c: Cluster, limit: number, parallel: number): Promise<void> {
  const [a, b] = await field(c, 2, 'cap');
  const create = (i: number, p: Player) =>
    c
      .via(i)
      .post('/v1/tournaments')
      .set('authorization', p.auth)
      .send({ name: `cap ${i}`, format: 'swiss', preset: 'scopa', startsAt: '9999-01-01T00:00:00.000Z' });
  const answers = await Promise.all(Array.from({ length: parallel }, (_, i) => create(i, a)));
  const statuses = answers.map((r) => r.status).sort();
  expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
  expect(statuses.filter((s) => s !== 201)).toEqual(Array(parallel - limit).fill(409));
  for (const r of answers.filter((x) => x.status !== 201)) expect(r.body).toMatchObject({ code: 'LIMIT_REACHED', limit, live: limit });
  const listed = await ok(c.via(1).get('/v1/tournaments?status=created&first=100'));
  expect((listed.items as { createdBy: string }[]).filter((t) => t.createdBy === a.username)).toHaveLength(limit);
  const g = await c
    .via(1)
    .post('/graphql')
    .set('authorization', a.auth)
    .send({
      query: 'mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }',
      variables: { i: { name: 'one more', format: 'swiss', preset: 'scopa' } },
    });
  expect(g.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_REACHED', limit });
  // another account has its own count; a cancelled tournament is no longer open
  expect((await create(0, b)).status).toBe(201);
  const first = answers.find((r) => r.status === 201)!.body.id as string;
  await ok(c.via(0).post(`/v1/tournaments/${first}/cancel`).set('authorization', a.auth).send({}));
  expect((await create(1, a)).status).toBe(201);
  expect((await create(0, a)).status).toBe(409);
}

/** Item 7: join and withdraw flap at most `joins` times per player and tournament: one more join is 409 LIMIT_REACHED and adds no event. */
export async function flappingBound(c: Cluster, joins: number): Promise<void> {
  const [owner, flapper] = await field(c, 2, 'fl');
  const t = await ok(c.via(0).post('/v1/tournaments').set('authorization', owner.auth).send({ name: 'Flap', format: 'swiss', preset: 'scopa' }), 201);
  for (let k = 0; k < joins; k++) {
    await ok(c.via(k).post(`/v1/tournaments/${t.id}/join`).set('authorization', flapper.auth).send({}));
    await ok(
      c
        .via(k + 1)
        .post(`/v1/tournaments/${t.id}/withdraw`)
        .set('authorization', flapper.auth)
        .send({}),
    );
  }
  const before = await ok(c.via(0).get(`/v1/tournaments/${t.id}`));
  expect(before.seq).toBe(1 + 2 * joins);
  for (let k = 0; k < 3; k++) {
    const res = await c.via(k).post(`/v1/tournaments/${t.id}/join`).set('authorization', flapper.auth).send({});
    expect([res.status, res.body.code, res.body.limit]).toEqual([409, 'LIMIT_REACHED', joins]);
  }
  // concurrent joins past the bound on every instance: still refused, the log unchanged
  const raced = await Promise.all([0, 1, 2, 3].map((i) => c.via(i).post(`/v1/tournaments/${t.id}/join`).set('authorization', flapper.auth).send({})));
  expect(raced.map((r) => r.status)).toEqual([409, 409, 409, 409]);
  const after = await ok(c.via(1).get(`/v1/tournaments/${t.id}`));
  expect(after.seq).toBe(before.seq);
  expect(after.players).toEqual([]);
  // the others are not held back by it
  await ok(c.via(1).post(`/v1/tournaments/${t.id}/join`).set('authorization', owner.auth).send({}));
  const log = (await c.via(0).get(`/v1/tournaments/${t.id}/export`)).text.trimEnd().split('\n');
  expect(log).toHaveLength(1 + 1 + 2 * joins + 1);
}
