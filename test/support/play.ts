import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Account } from './clients';
import { gqlOk } from './clients';

/** Called with every payload a caller receives, before the next request. */
export type Observer = (who: Account, matchId: string, label: string, body: string) => Promise<void> | void;

const MATCH_FIELDS = `id seq status view { viewer phase turn hand table deckSize seats { seat player handSize } sides { side score } result { reason winner } } reveal { seed hands deck }`;

export interface Transport {
  name: string;
  create(who: Account, input: Record<string, unknown>): Promise<any>;
  join(who: Account, matchId: string, seat?: number): Promise<any>;
  start(who: Account, matchId: string): Promise<any>;
  match(who: Account, matchId: string): Promise<any>;
  legal(who: Account, matchId: string): Promise<any>;
  play(who: Account, matchId: string, card: string, capture: string[], expectedSeq: number, key: string): Promise<any>;
}

export function restTransport(app: INestApplication, observe: Observer): Transport {
  const http = () => request(app.getHttpServer());
  const ok = async (who: Account, matchId: string | null, label: string, res: request.Response, status = 200) => {
    if (res.status !== status) throw new Error(`${label}: ${res.status} ${res.text}`);
    await observe(who, matchId ?? res.body.id, label, res.text);
    return res.body;
  };
  const auth = (who: Account) => `Bearer ${who.token}`;
  return {
    name: 'REST',
    create: async (who, input) => ok(who, null, 'create', await http().post('/v1/matches').set('authorization', auth(who)).send(input), 201),
    join: async (who, id, seat) =>
      ok(
        who,
        id,
        'join',
        await http()
          .post(`/v1/matches/${id}/join`)
          .set('authorization', auth(who))
          .send(seat === undefined ? {} : { seat }),
      ),
    start: async (who, id) => ok(who, id, 'start', await http().post(`/v1/matches/${id}/start`).set('authorization', auth(who)).send({})),
    match: async (who, id) => ok(who, id, 'match', await http().get(`/v1/matches/${id}`).set('authorization', auth(who))),
    legal: async (who, id) => ok(who, id, 'legal', await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(who))),
    play: async (who, id, card, capture, expectedSeq, key) =>
      ok(
        who,
        id,
        'play',
        await http()
          .post(`/v1/matches/${id}/plays`)
          .set('authorization', auth(who))
          .set('if-match', `"${expectedSeq}"`)
          .send({ card, capture, idempotencyKey: key }),
      ),
  };
}

export function graphqlTransport(app: INestApplication, observe: Observer): Transport {
  const call = async (who: Account, matchId: string | null, label: string, query: string, variables: Record<string, unknown>) => {
    const res = await request(app.getHttpServer()).post('/graphql').set('authorization', `Bearer ${who.token}`).send({ query, variables });
    if (res.status !== 200 || res.body.errors) throw new Error(`${label}: ${res.status} ${res.text}`);
    const data = Object.values(res.body.data)[0] as any;
    await observe(who, matchId ?? data.id, label, res.text);
    return data;
  };
  return {
    name: 'GraphQL',
    create: (who, input) => call(who, null, 'create', `mutation($i: CreateMatchInput!) { createMatch(input: $i) { ${MATCH_FIELDS} } }`, { i: input }),
    join: (who, id, seat) =>
      call(who, id, 'join', `mutation($id: ID!, $i: JoinInput) { joinMatch(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
        id,
        i: seat === undefined ? null : { seat },
      }),
    start: (who, id) => call(who, id, 'start', `mutation($id: ID!) { startMatch(matchId: $id) { ${MATCH_FIELDS} } }`, { id }),
    match: (who, id) => call(who, id, 'match', `query($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } }`, { id }),
    legal: (who, id) => call(who, id, 'legal', `query($id: ID!) { legalPlays(matchId: $id) { seq plays { card capture scopa } } }`, { id }),
    play: (who, id, card, capture, expectedSeq, key) =>
      call(who, id, 'play', `mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
        id,
        i: { card, capture, expectedSeq, idempotencyKey: key },
      }),
  };
}

/**
 * Plays a started match to its end: whoever's turn it is asks for its legal
 * plays and makes the first one (a capture when it can, as the rules oblige).
 */
export async function playToEnd(t: Transport, players: Account[], matchId: string, maxPlays = 5000): Promise<any> {
  for (let n = 0; n < maxPlays; n++) {
    const views = await Promise.all(players.map((p) => t.match(p, matchId)));
    const over = views.find((v) => v.status === 'over');
    if (over) return over;
    const i = views.findIndex((v) => v.view.viewer !== null && v.view.turn === v.view.viewer);
    if (i < 0) throw new Error(`nobody to move at seq ${views[0].seq}`);
    const legal = await t.legal(players[i], matchId);
    const play = legal.plays.find((p: { capture: string[] }) => p.capture.length > 0) ?? legal.plays[0];
    await t.play(players[i], matchId, play.card, play.capture, legal.seq, `k${legal.seq}`);
  }
  throw new Error('the match did not end');
}

export { gqlOk };

/**
 * Plays until each of `players` has played a card of their own (whoever is to
 * move among them plays its first legal play; bots move by themselves): a
 * rated match counts only once every side has played (docs/ratings.md).
 */
export async function playOneCardEach(app: INestApplication, players: Account[], matchId: string): Promise<void> {
  const http = () => request(app.getHttpServer());
  const played = new Set<string>();
  for (let n = 0; n < 40 && played.size < players.length; n++) {
    const m = (await http().get(`/v1/matches/${matchId}`).set('authorization', `Bearer ${players[0].token}`)).body;
    if (m.status !== 'playing') throw new Error(`match ${matchId} is ${m.status}`);
    const seat = (m.view.seats as { seat: number; player: string | null }[]).find((s) => s.seat === m.view.turn);
    const who = players.find((p) => p.username === seat?.player);
    if (!who) throw new Error(`match ${matchId}: seat ${m.view.turn} (${seat?.player}) is not one of the players`);
    const legal = (await http().get(`/v1/matches/${matchId}/legal-plays`).set('authorization', `Bearer ${who.token}`)).body;
    const res = await http()
      .post(`/v1/matches/${matchId}/plays`)
      .set('authorization', `Bearer ${who.token}`)
      .send({ ...legal.plays[0], expectedSeq: legal.seq });
    if (res.status !== 200) throw new Error(`play: ${res.status} ${res.text}`);
    played.add(who.username);
  }
  if (played.size < players.length) throw new Error(`match ${matchId}: not every player could play`);
}
