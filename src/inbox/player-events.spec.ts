/**
 * One closed list of player events: every transport knows every member
 * (the NDJSON event stream's line types and its OpenAPI description, the
 * GraphQL PlayerEventType enum that graphql-ws and graphql-sse both serve,
 * the webhooks), and the public names stay as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PLAYER_EVENT_TYPES, PLAYER_EVENT_WEBHOOKS } from './player-events';
import { PlayerEventTypeEnum } from './inbox.model';
import { EVENT_LINE_TYPES } from '../streams/streams.model';
import { WEBHOOK_EVENTS } from '../webhooks/webhooks.service';
import { APPEND_WEBHOOKS, webhookOf } from '../webhooks/outbox';
import { SAMPLES } from '../../test/support/player-events';

const ROOT = process.cwd();

it('the public names of the player events, as they are', () => {
  expect(PLAYER_EVENT_TYPES).toEqual([
    'matchStarted',
    'matchEnded',
    'clockLow',
    'seekPaired',
    'challengeReceived',
    'challengeAccepted',
    'challengeDeclined',
    'challengeCanceled',
    'rematchOffered',
    'rematchDeclined',
    'rematchStarted',
    'analysisReady',
    'tournamentRoundPaired',
    'directMessage',
  ]);
  expect(Object.keys(SAMPLES).sort()).toEqual([...PLAYER_EVENT_TYPES].sort());
});

it('the NDJSON event stream knows every member: its line types and its OpenAPI description', () => {
  expect(EVENT_LINE_TYPES).toEqual(['matchInPlay', 'yourTurn', ...PLAYER_EVENT_TYPES]);
  const openapi = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8')) as {
    components: { schemas: Record<string, { properties: Record<string, { description: string }> }> };
  };
  const description = openapi.components.schemas.EventStreamLineModel.properties.type.description;
  for (const t of PLAYER_EVENT_TYPES) expect(description).toContain('`' + t + '`');
});

it('GraphQL (graphql-ws and graphql-sse: one schema) knows every member: the PlayerEventType enum and myEvents', () => {
  expect(Object.values(PlayerEventTypeEnum)).toEqual(PLAYER_EVENT_TYPES);
  const schema = readFileSync(join(ROOT, 'schema.graphql'), 'utf8');
  const block = /enum PlayerEventType \{([^}]*)\}/.exec(schema);
  expect(block).not.toBeNull();
  const values = block![1]
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[a-zA-Z]+$/.test(l));
  expect(values.sort()).toEqual([...PLAYER_EVENT_TYPES].sort());
  expect(schema).toMatch(/myEvents: PlayerEvent!/);
});

it("the webhooks: each is a player event's or the append's, and a player event's payload is the event itself", () => {
  const fromEvents = Object.values(PLAYER_EVENT_WEBHOOKS).flatMap((h) => (h ? [h.webhook] : []));
  expect([...fromEvents, ...APPEND_WEBHOOKS].sort()).toEqual([...WEBHOOK_EVENTS].sort());
  expect(new Set(fromEvents).size).toBe(fromEvents.length);
  for (const t of PLAYER_EVENT_TYPES) {
    const hook = PLAYER_EVENT_WEBHOOKS[t];
    const out = webhookOf('alice', SAMPLES[t]);
    if (!hook) {
      expect(out).toBeNull();
      continue;
    }
    const { type: _type, ...fields } = SAMPLES[t];
    expect(out).toEqual({ player: 'alice', event: hook.webhook, payload: hook.player ? { ...fields, player: 'alice' } : fields });
  }
});
