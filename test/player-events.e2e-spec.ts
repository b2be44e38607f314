/**
 * Every member of the closed player-event union reaches the player through
 * every live transport, as published: the NDJSON event stream
 * (`GET /v1/stream/events`) and GraphQL `myEvents` over graphql-sse (the
 * schema graphql-ws serves too). The webhooks' side is checked in
 * src/inbox/player-events.spec.ts.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient as createSseClient } from 'graphql-sse';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import { openNdjson } from './support/ndjson-stream';
import { SAMPLES } from './support/player-events';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel } from '../src/realtime/channels';
import { PLAYER_EVENT_TYPES } from '../src/inbox/player-events';
import { SubscriptionCaps } from '../src/limits/subscription-caps';

jest.setTimeout(60_000);

const FIELDS = [
  'type',
  'matchId',
  'seq',
  'seat',
  'deadline',
  'preset',
  'players',
  'result',
  'seekId',
  'rulesetId',
  'challenge',
  'by',
  'expiresAt',
  'newMatchId',
  'message',
];

describe('player events on every transport (e2e)', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ STREAM_KEEPALIVE: '0.2' });
    base = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    await app?.close();
    delete process.env.STREAM_KEEPALIVE;
  });

  it('the NDJSON event stream and GraphQL myEvents (graphql-sse) send each member as published', async () => {
    const ann = await register(app, 'pev');
    const ndjson = await openNdjson(`${base}/v1/stream/events`, ann.token);
    const client = createSseClient({
      url: `${base}/graphql/stream`,
      singleConnection: false,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${ann.token}` },
    });
    const overGraphql: Record<string, unknown>[] = [];
    const dispose = client.subscribe(
      { query: `subscription { myEvents { ${FIELDS.join(' ')} } }` },
      { next: (r) => void overGraphql.push((r.data as { myEvents: Record<string, unknown> }).myEvents), error: () => undefined, complete: () => undefined },
    );
    const caps = app.get(SubscriptionCaps);
    for (let i = 0; i < 200 && caps.openFor(ann.id) < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(caps.openFor(ann.id)).toBe(2);
    await new Promise((r) => setTimeout(r, 100));

    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    for (const t of PLAYER_EVENT_TYPES) await pubsub.publish(playerChannel(ann.username), SAMPLES[t]);

    await ndjson.waitFor((l) => l.type === PLAYER_EVENT_TYPES[PLAYER_EVENT_TYPES.length - 1], 10_000, 'the last event on the NDJSON stream');
    for (let i = 0; i < 250 && overGraphql.length < PLAYER_EVENT_TYPES.length; i++) await new Promise((r) => setTimeout(r, 20));
    dispose();
    ndjson.close();

    expect(ndjson.lines.filter((l) => 'type' in l)).toEqual(PLAYER_EVENT_TYPES.map((t) => SAMPLES[t]));
    const asGraphql = (e: Record<string, unknown>) => Object.fromEntries(FIELDS.map((f) => [f, e[f] ?? null]));
    expect(overGraphql).toEqual(PLAYER_EVENT_TYPES.map((t) => asGraphql(SAMPLES[t] as unknown as Record<string, unknown>)));
  });
});
