/**
 * What follows an append does not depend on who issued the command: a
 * command appended straight through the store (as the admin, lobby and
 * tournament commands to come will) gets the same notices, bot replies and
 * play counts as one sent through the API.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { legalPlayCodesInView, seatOf, seatView } from '../src/engine';
import { MatchStore } from '../src/match-store/match-store';
import { matchChannel, turnChannel } from '../src/realtime/channels';
import type { MatchNotice, TurnNotice } from '../src/realtime/channels';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import { restTransport } from './support/play';

jest.setTimeout(120_000);

/** Pulls every message of a channel as it comes. */
function listen<T>(pubsub: PubSubEngine, channel: string): { got: T[]; close: () => Promise<unknown> } {
  const it = pubsub.asyncIterableIterator<T>(channel);
  const got: T[] = [];
  void (async () => {
    for await (const m of it as AsyncIterable<T>) got.push(m);
  })();
  return { got, close: async () => it.return?.() };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('after every append, whoever issued it (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const humanPlays = async (): Promise<number> => {
    const text = (await request(app.getHttpServer()).get('/metrics')).text;
    return Number(/^scopa_plays_total\{source="human"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it('a play appended straight through the store is published, counted and answered by the bot, like one through the API', async () => {
    const alice = await register(app, 'straight');
    const rest = restTransport(app, () => undefined);
    const created = await rest.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await rest.start(alice, created.id); // the response already shows the bot's first play if it moved first
    const store = app.get(MatchStore);
    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    const { seq, state } = await store.current(created.id);
    const seat = seatOf(state, alice.username);
    expect(state.turn).toBe(seat);
    const play = legalPlayCodesInView(seatView(state, seat))[0];
    const match = listen<MatchNotice>(pubsub, matchChannel(created.id));
    const turns = listen<TurnNotice>(pubsub, turnChannel(alice.username));
    await settle(); // both listening
    const before = await humanPlays();

    const result = await store.execute(
      created.id,
      { type: 'play', player: alice.username, card: play.card, capture: play.capture },
      { actor: alice.username, expectedSeq: seq },
    );
    await store.settled(result);

    const after = await store.current(created.id);
    const botPlays = (await store.eventsFrom(created.id, result.seq + 1, 1000)).filter((e) => e.type === 'CardPlayed');
    expect(botPlays.length).toBeGreaterThanOrEqual(1);
    expect(botPlays.every((e) => e.actor?.startsWith('bot:greedy:'))).toBe(true);
    expect(after.state.phase === 'over' || after.state.turn === seat).toBe(true);
    await settle();
    // a notice for the play and for each of the bot's appends, in order; then "your turn"
    const batchEnds = [...botPlays.slice(1).map((e) => e.seq - 1), after.seq];
    expect(match.got.map((n) => n.seq)).toEqual([result.seq, ...batchEnds]);
    expect(match.got[0]).toMatchObject({ matchId: created.id, seq: result.seq });
    expect(match.got[0].events?.map((e) => e.seq)).toEqual(result.events.map((e) => e.seq));
    expect(match.got[match.got.length - 1].seq).toBe(after.seq);
    if (after.state.phase !== 'over') expect(turns.got[turns.got.length - 1]).toMatchObject({ matchId: created.id, seq: after.seq, seat });
    expect(await humanPlays()).toBe(before + 1);
    await match.close();
    await turns.close();
  });
});
