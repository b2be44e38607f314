/**
 * The games of other packs over the public API (PGlite): two accounts play a
 * full `cirulla` match (one over REST, the other over GraphQL) in which a
 * hand is declared with the matta and the dealer takes the initial table
 * (the deal chosen through the players' client seeds: test/support/dealt-seeds.ts),
 * and a full `escoba` match; every play and
 * declaration is one legalPlays listed, sent back as listed; a spectator sees
 * the declared cards and the matta's value, and never an undeclared hand; the
 * export and the notation audit sound (`npm run audit`), every seq replays,
 * and a tampered HandDeclared (other cards, other points) is found at its
 * exact event, and so is a tampered InitialTableCaptured.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { eventHash, timedEventHash } from '../src/match-formats/chain';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { clientSeedFor, firstHandDeclarations, holds, initialTableCaptured, serverSeedOf } from './support/dealt-seeds';
import type { Driven } from '../src/engine/testing';

jest.setTimeout(600_000);

const auth = (a: Account) => `Bearer ${a.token}`;

const VIEW = 'viewer phase round turn hand table deckSize captureValues seats { seat handSize declared } sides { side score } result { reason winner }';

interface Moves {
  seq: number;
  plays: { card: string; capture: string[]; scopa: boolean }[];
  declarations: { mattaValue: number | null; points: number }[];
}

/** One player's client: REST or GraphQL. */
interface Client {
  who: Account;
  view(id: string): Promise<any>;
  legal(id: string): Promise<Moves>;
  play(id: string, play: Moves['plays'][number], seq: number): Promise<any>;
  declare(id: string, declaration: Moves['declarations'][number], seq: number): Promise<any>;
}

function audit(file: string): Promise<{ code: number; stdout: string }> {
  // node itself with tsx's loader: the same script `npm run audit` runs.
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', file], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

/** An export's lines with the chain hashed again from the first changed line: only the rules can find the change. */
function rechain(lines: any[]): string {
  const [header, ...events] = lines;
  let prev = events[0].prevHash;
  for (const e of events) {
    e.prevHash = prev;
    // From scopa-match/2 each event's time is inside its hash.
    const event = { seq: e.seq, type: e.type, payload: e.payload, actor: e.actor };
    e.hash = header.format === 'scopa-match/1' ? eventHash(prev, header.matchId, event) : timedEventHash(prev, header.matchId, { ...event, time: e.time });
    prev = e.hash;
  }
  header.lastHash = prev;
  return [header, ...events].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('escoba and cirulla over the API (e2e)', () => {
  let app: INestApplication;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp({ BOT_SWEEP_MS: '0', RATE_LIMIT: '1000000' });
    [alice, bob, carol] = [await register(app, 'va'), await register(app, 'vb'), await register(app, 'vc')];
  });
  afterAll(async () => {
    await app?.close();
  });

  function rest(who: Account): Client {
    const ok = (label: string, res: request.Response) => {
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${res.text}`);
      return res.body;
    };
    return {
      who,
      view: async (id) => ok('match', await http().get(`/v1/matches/${id}`).set('authorization', auth(who))),
      legal: async (id) => ok('legal', await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(who))),
      play: async (id, play, seq) =>
        ok(
          'play',
          await http()
            .post(`/v1/matches/${id}/plays`)
            .set('authorization', auth(who))
            .set('if-match', `"${seq}"`)
            .send({ ...play, idempotencyKey: `p${seq}` }),
        ),
      declare: async (id, declaration, seq) =>
        ok(
          'declare',
          await http()
            .post(`/v1/matches/${id}/declarations`)
            .set('authorization', auth(who))
            .set('if-match', `"${seq}"`)
            .send({ ...declaration, idempotencyKey: `d${seq}` }),
        ),
    };
  }

  function graphql(who: Account): Client {
    const fields = `id seq status view { ${VIEW} }`;
    return {
      who,
      view: async (id) => (await gqlOk(app, who.token, `query($id: ID!) { match(id: $id) { ${fields} } }`, { id })).match,
      legal: async (id) =>
        (
          await gqlOk(app, who.token, `query($id: ID!) { legalPlays(matchId: $id) { seq plays { card capture scopa } declarations { mattaValue points } } }`, {
            id,
          })
        ).legalPlays,
      play: async (id, play, seq) =>
        (
          await gqlOk(app, who.token, `mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { ${fields} } }`, {
            id,
            i: { ...play, expectedSeq: seq, idempotencyKey: `p${seq}` },
          })
        ).play,
      declare: async (id, declaration, seq) =>
        (
          await gqlOk(app, who.token, `mutation($id: ID!, $i: DeclareHandInput!) { declareHand(matchId: $id, input: $i) { ${fields} } }`, {
            id,
            i: { ...declaration, expectedSeq: seq, idempotencyKey: `d${seq}` },
          })
        ).declareHand,
    };
  }

  async function spectate(id: string): Promise<any> {
    const res = await http().get(`/v1/matches/${id}`).set('authorization', auth(carol));
    expect(res.status).toBe(200);
    return res.body;
  }

  /** What every declaration showed, per seat: the cards not played yet (from the log). */
  interface Played {
    id: string;
    declarations: { seat: number; cards: string[]; mattaValue: number | null; scope: number }[];
  }

  /**
   * Plays a match to its end: the seat to move asks for its legal moves,
   * declares when `declare` picks one of those listed, else plays the first
   * capture listed (or the first play). After every move the spectator's view
   * shows no hand, exactly the declared cards still held, and the matta's value.
   * With `deal`, the two players give client seeds chosen so that the first
   * deal is one `deal` accepts (the first player's fixed, the second's searched).
   */
  async function playMatch(
    preset: string,
    clients: Client[],
    declare: (d: Moves['declarations']) => Moves['declarations'][number] | undefined,
    deal?: (started: Driven) => boolean,
  ): Promise<Played> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(clients[0].who))
      .send({ preset, seats: [{ type: 'creator' }, { type: 'reserved', username: clients[1].who.username }] });
    expect(created.status).toBe(201);
    expect(created.body.view.rulesVersion).toBe('scopa-rules/5');
    const id = created.body.id;
    let join = {};
    if (deal) {
      const first = 'c1e115ee';
      const second = clientSeedFor(await serverSeedOf(app, id), preset, [first, null], 1, deal);
      expect((await http().post(`/v1/matches/${id}/client-seed`).set('authorization', auth(clients[0].who)).send({ clientSeed: first })).status).toBe(200);
      join = { clientSeed: second };
    }
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(clients[1].who)).send(join)).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(clients[0].who)).send({})).status).toBe(200);
    const declarations: Played['declarations'] = [];
    // Per seat, the declared cards still in hand, as this test follows them.
    const shown: string[][] = [[], []];
    let mattaValue: number | null = null;
    let round = 1;
    for (let n = 0; n < 2000; n++) {
      const views = await Promise.all(clients.map((c) => c.view(id)));
      if (views[0].status === 'over') return { id, declarations };
      if (views[0].view.round !== undefined && views[0].view.round !== round) {
        round = views[0].view.round;
        shown[0] = [];
        shown[1] = [];
        mattaValue = null;
      }
      const seat = views.findIndex((v) => v.view.turn === v.view.viewer);
      expect(seat).toBeGreaterThanOrEqual(0);
      const client = clients[seat];
      const hand: string[] = views[seat].view.hand;
      const moves = await client.legal(id);
      expect(moves.plays.length).toBeGreaterThan(0);
      const chosen = moves.declarations.length > 0 ? declare(moves.declarations) : undefined;
      let after: any;
      if (chosen) {
        after = await client.declare(id, chosen, moves.seq);
        expect(after.seq).toBe(moves.seq + 1);
        expect(after.view.seats[seat].declared.sort()).toEqual([...hand].sort());
        const log = (await http().get(`/v1/matches/${id}/events?fromSeq=${after.seq}`).set('authorization', auth(carol))).body as any[];
        expect(log.map((e) => e.type)).toEqual(['HandDeclared']);
        expect(log[0].payload).toEqual({ seat, cards: expect.any(Array), mattaValue: chosen.mattaValue, scope: chosen.points });
        expect([...log[0].payload.cards].sort()).toEqual([...hand].sort());
        declarations.push({ seat, ...log[0].payload });
        shown[seat] = [...hand];
        if (chosen.mattaValue !== null) mattaValue = chosen.mattaValue;
        // Still this seat's turn: it plays from the declared hand.
        const again = await client.legal(id);
        expect(again.declarations).toEqual([]);
        const play = again.plays.find((p) => p.capture.length > 0) ?? again.plays[0];
        after = await client.play(id, play, again.seq);
        expect(after.seq).toBeGreaterThan(again.seq);
        shown[seat] = shown[seat].filter((c) => c !== play.card);
      } else {
        const play = moves.plays.find((p) => p.capture.length > 0) ?? moves.plays[0];
        after = await client.play(id, play, moves.seq);
        expect(after.seq).toBeGreaterThan(moves.seq);
        shown[seat] = shown[seat].filter((c) => c !== play.card);
      }
      const spectator = await spectate(id);
      if (spectator.status === 'over') continue;
      if (spectator.view.round !== round) continue; // a new round: nothing declared yet, every value its rank
      // The spectator: no hand, no reveal, the declared cards still held and nothing else of a hand.
      expect(spectator.view.viewer).toBeNull();
      expect(spectator.view.hand).toEqual([]);
      expect(spectator.reveal).toBeNull();
      for (const s of [0, 1]) expect([...spectator.view.seats[s].declared].sort()).toEqual([...shown[s]].sort());
      expect(spectator.view.captureValues).toEqual(mattaValue === null ? {} : { '7C': mattaValue });
    }
    throw new Error('the match did not end');
  }

  async function sound(id: string): Promise<{ jsonl: string; notation: string }> {
    const exported = await http().get(`/v1/matches/${id}/export`).set('authorization', auth(carol));
    expect(exported.status).toBe(200);
    const notation = await http().get(`/v1/matches/${id}/export`).set('authorization', auth(carol)).set('accept', 'text/plain');
    expect(notation.status).toBe(200);
    const verdict = await http().get(`/v1/matches/${id}/audit`).set('authorization', auth(carol));
    expect(verdict.body).toMatchObject({ sound: true, checked: 'chain+rules' });
    return { jsonl: exported.text, notation: notation.text };
  }

  async function replayEverySeq(id: string, last: number): Promise<void> {
    for (let seq = 1; seq <= last; seq++) {
      const r = await http().get(`/v1/matches/${id}?atSeq=${seq}`).set('authorization', auth(carol));
      expect([r.status, r.body.seq]).toEqual([200, seq]);
      expect(r.body.reveal.seed).toMatch(/^[0-9a-f]{64}$/); // a finished match: everything at that seq
    }
  }

  it('cirulla: a declaration with the matta and an initial-table capture, the declared cards public, export and notation sound, every seq replays, a tampered HandDeclared or InitialTableCaptured found at its event', async () => {
    // Alice over REST, bob over GraphQL; every declaration offered is made, the matta's first.
    // The first deal, chosen through bob's client seed: the dealer takes the initial table,
    // and a hand holds the matta and may be declared with it.
    const clients = [rest(alice), graphql(bob)];
    const wanted = (started: Driven) =>
      initialTableCaptured(started) &&
      [0, 1].some((seat) => holds(started.state, seat, '7C') && firstHandDeclarations(started.state, seat).some((d) => d.mattaValue !== null));
    const played = await playMatch('cirulla', clients, (ds) => ds.find((d) => d.mattaValue !== null) ?? ds[0], wanted);
    const { id } = played;
    expect(played.declarations.some((d) => d.mattaValue !== null)).toBe(true);
    const log = (await http().get(`/v1/matches/${id}/events?limit=1000`).set('authorization', auth(carol))).body as any[];
    const initials = log.filter((e) => e.type === 'InitialTableCaptured');
    expect(initials.length).toBeGreaterThanOrEqual(1);
    // Right after the deal of round 1 that stood: the dealer's side took the table, one or two scope (15 or 30).
    const firstDeal = log.find((e) => e.type === 'RoundDealt' && e.payload.round === 1 && log[log.indexOf(e) + 1]?.type !== 'RoundDealt')!;
    const initial = log[log.indexOf(firstDeal) + 1];
    expect(initial.type).toBe('InitialTableCaptured');
    expect(initial.payload).toEqual({
      dealer: firstDeal.payload.dealer,
      side: firstDeal.payload.dealer,
      cards: firstDeal.payload.table,
      scope: expect.any(Number),
    });
    expect([1, 2]).toContain(initial.payload.scope);
    for (const e of initials) {
      const i = log.indexOf(e);
      expect(log[i - 1].type).toBe('RoundDealt');
      expect(e.payload).toEqual({
        dealer: log[i - 1].payload.dealer,
        side: log[i - 1].payload.dealer,
        cards: log[i - 1].payload.table,
        scope: expect.any(Number),
      });
    }
    const over = await spectate(id);
    expect(over.status).toBe('over');
    // The round results name the cirulla awards and the bonus scope; round 1's counts the initial capture.
    for (const r of over.view.rounds) {
      expect(Object.keys(r.breakdown.awards)).toEqual(expect.arrayContaining(['piccola', 'grande']));
      expect(r.breakdown.bonusScope).toHaveLength(2);
    }
    const round1 = over.view.rounds.find((r: any) => r.round === 1).breakdown;
    const declaredInRound1 = log.filter((e) => e.type === 'HandDeclared' && e.seq < log.find((x) => x.type === 'RoundScored')!.seq);
    const side = initial.payload.side;
    expect(round1.bonusScope[side]).toBe(
      initial.payload.scope + declaredInRound1.filter((e) => e.payload.seat === side).reduce((n, e) => n + e.payload.scope, 0),
    );
    const { jsonl, notation } = await sound(id);
    const lines = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    await replayEverySeq(id, lines.length - 1);

    // The notation marks the declarations (the matta with its value) and the initial captures.
    const matta = played.declarations.find((d) => d.mattaValue !== null)!;
    expect(notation).toContain(`!${matta.cards.map((c) => (c === '7C' ? `7C=${matta.mattaValue}` : c)).join('+')}/${matta.scope}`);
    const initText = `init(${initial.payload.side})*${initial.payload.cards.join('+')}/${initial.payload.scope}`;
    expect(notation).toContain(` ${initText}`);
    expect(lines.filter((l) => l.type === 'InitialTableCaptured')).toEqual(initials.map((e) => expect.objectContaining({ seq: e.seq, payload: e.payload })));

    const dir = mkdtempSync(path.join(tmpdir(), 'scopa-variants-'));
    try {
      const file = (name: string, text: string) => {
        const f = path.join(dir, name);
        writeFileSync(f, text);
        return f;
      };
      const good = await audit(file('match.jsonl', jsonl));
      expect([good.code, good.stdout]).toEqual([0, expect.stringContaining(`sound: match ${id}`)]);
      const goodNotation = await audit(file('match.scopa', notation));
      expect([goodNotation.code, goodNotation.stdout]).toEqual([0, expect.stringContaining('sound: notation')]);

      // A HandDeclared with other cards, then with other points, the chain hashed again: found at that event.
      const at = lines.findIndex((l) => l.type === 'HandDeclared' && l.payload.mattaValue !== null);
      const declared = lines[at];
      const others = structuredClone(lines);
      const stranger = ['1D', '2D', '3D', '4S', '5S', '6B'].find((c) => !declared.payload.cards.includes(c))!;
      others[at].payload.cards = [stranger, ...declared.payload.cards.slice(1)];
      const otherCards = await audit(file('cards.jsonl', rechain(others)));
      expect([otherCards.code, otherCards.stdout]).toEqual([1, expect.stringContaining(`UNSOUND: match ${id} at seq ${declared.seq}:`)]);
      const points = structuredClone(lines);
      points[at].payload.scope = declared.payload.scope + 1;
      const otherPoints = await audit(file('points.jsonl', rechain(points)));
      expect([otherPoints.code, otherPoints.stdout]).toEqual([1, expect.stringContaining(`UNSOUND: match ${id} at seq ${declared.seq}:`)]);

      // In the notation: the declaration with other points is found at its ply.
      const token = `/${matta.scope}`;
      const mark = notation.indexOf(`!${matta.cards.map((c) => (c === '7C' ? `7C=${matta.mattaValue}` : c)).join('+')}${token}`);
      const forged = notation.slice(0, mark) + notation.slice(mark).replace(token, `/${matta.scope + 1}`);
      const badNotation = await audit(file('forged.scopa', forged));
      expect(badNotation.code).toBe(1);
      expect(badNotation.stdout).toMatch(
        new RegExp(
          `UNSOUND: notation at ply \\d+ \\(!.*7C=${matta.mattaValue}.*/${matta.scope + 1}\\): the declaration scores ${matta.scope}, not ${matta.scope + 1}`,
        ),
      );

      // An InitialTableCaptured with more scope, the chain hashed again: found at that event; in the notation, at its mark.
      const initAt = lines.findIndex((l) => l.seq === initial.seq);
      const richer = structuredClone(lines);
      richer[initAt].payload.scope = initial.payload.scope + 1;
      const richerAudit = await audit(file('initial.jsonl', rechain(richer)));
      expect([richerAudit.code, richerAudit.stdout]).toEqual([1, expect.stringContaining(`UNSOUND: match ${id} at seq ${initial.seq}:`)]);
      const richerText = `init(${initial.payload.side})*${initial.payload.cards.join('+')}/${initial.payload.scope + 1}`;
      const forgedInit = await audit(file('initial.scopa', notation.replace(initText, richerText)));
      expect(forgedInit.code).toBe(1);
      expect(forgedInit.stdout).toContain(`(${richerText}): the initial-table capture is ${initText}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // HandDeclared and InitialTableCaptured are in the log over GraphQL too.
    const gqlLog = await gqlOk(app, carol.token, `query($id: ID!) { matchEvents(matchId: $id, limit: 1000) { seq type payload } }`, { id });
    expect(gqlLog.matchEvents.filter((e: any) => e.type === 'HandDeclared')).toHaveLength(lines.filter((l) => l.type === 'HandDeclared').length);
    expect(gqlLog.matchEvents.filter((e: any) => e.type === 'InitialTableCaptured')).toEqual(
      initials.map((e) => ({ seq: e.seq, type: 'InitialTableCaptured', payload: e.payload })),
    );
  });

  it('escoba: a full match over REST and GraphQL, sound, every seq replays', async () => {
    const p = await playMatch('escoba', [graphql(alice), rest(bob)], () => {
      throw new Error('escoba has no declarations');
    });
    const over = await spectate(p.id);
    expect(over.status).toBe('over');
    expect(over.view.options).toMatchObject({ capture: 'fifteen', initialTableCapture: 'groups15', target: 15 });
    const { jsonl, notation } = await sound(p.id);
    const lines = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    await replayEverySeq(p.id, lines.length - 1);
    const dir = mkdtempSync(path.join(tmpdir(), 'scopa-escoba-'));
    try {
      writeFileSync(path.join(dir, 'm.jsonl'), jsonl);
      writeFileSync(path.join(dir, 'm.scopa'), notation);
      const verdict = await audit(path.join(dir, 'm.jsonl'));
      expect(verdict.code).toBe(0);
      const verdictNotation = await audit(path.join(dir, 'm.scopa'));
      expect([verdictNotation.code, verdictNotation.stdout]).toEqual([0, expect.stringContaining('sound: notation')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a refused declaration names why, over REST and GraphQL, and changes nothing', async () => {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(alice))
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    const id = created.body.id;
    await http().post(`/v1/matches/${id}/join`).set('authorization', auth(bob)).send({});
    const started = await http().post(`/v1/matches/${id}/start`).set('authorization', auth(alice)).send({});
    const turn = started.body.view.turn === 0 ? alice : bob;
    const rest422 = await http().post(`/v1/matches/${id}/declarations`).set('authorization', auth(turn)).send({});
    expect([rest422.status, rest422.body.code, rest422.body.reason]).toEqual([422, 'DECLARATION_NOT_ALLOWED', 'NO_DECLARATIONS']);
    const r = await gql(app, turn.token, `mutation($id: ID!) { declareHand(matchId: $id, input: { mattaValue: 3 }) { seq } }`, { id });
    expect(errorCode(r)).toBe('DECLARATION_NOT_ALLOWED');
    expect(r.errors![0].extensions.reason).toBe('NO_DECLARATIONS');
    expect((await spectate(id)).seq).toBe(started.body.seq);
  });
});
