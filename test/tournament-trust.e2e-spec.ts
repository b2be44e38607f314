/**
 * The tournament trust pass (issue 42, items 3, 4, 6 and 7) on PGlite, one
 * instance (the scenarios: test/support/tournament-trust.ts; the same on
 * PostgreSQL with two instances: test/tournament-trust.pg-spec.ts): abort
 * at a dealt tournament table refused; a duplicate table's reveal waits for
 * its round's end, for its own players too, on every path; the signed
 * tournament export and the players/seats audit; TOURNAMENT_LIMIT; the
 * join/withdraw bound.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import { abortRefused, creationCap, duplicateRevealWaits, flappingBound, signedExportAudit } from './support/tournament-trust';
import type { Cluster } from './support/tournament-trust';
import { TOURNAMENT_JOINS_PER_PLAYER } from '../src/tournaments/tournaments.service';

jest.setTimeout(300_000);

const ISSUER = 'https://scopa-trust.example';
const ENV = { CLIENT_SEED_WINDOW: '0', CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', TOURNAMENT_LIMIT: '3', OAUTH_ISSUER: ISSUER, RATE_LIMIT: '100000' };

describe('tournament trust (e2e, PGlite)', () => {
  let app: INestApplication;
  let base: string;
  const cluster: Cluster = {
    via: () => request(app.getHttpServer()),
    base: () => base,
    register: async (_i, prefix) => {
      const a = await register(app, prefix);
      return { username: a.username, token: a.token, auth: `Bearer ${a.token}` };
    },
  };

  beforeAll(async () => {
    app = await createTestApp(ENV);
    base = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    await app?.close();
    for (const name of Object.keys(ENV)) delete process.env[name];
  });

  it('abort at a tournament table once dealt is ABORT_NOT_ALLOWED (REST and GraphQL, either seat, duplicate or not) and changes nothing', () =>
    abortRefused(cluster));

  it("a duplicate table that ends first reveals nothing to its own players until the round's end: view, events, streams, exports, archive, analysis", () =>
    duplicateRevealWaits(cluster));

  it('tournament exports are signed; a player renamed and the chain re-hashed is UNSOUND beside the match exports and fails --keys; the headerless export audits as before', () =>
    signedExportAudit(cluster, ISSUER));

  it('TOURNAMENT_LIMIT: at most 3 open tournaments per creator (409 LIMIT_REACHED), 5 at once admit 3', () => creationCap(cluster, 3, 5));

  it(`join and withdraw flap at most ${TOURNAMENT_JOINS_PER_PLAYER} times per player and tournament`, () =>
    flappingBound(cluster, TOURNAMENT_JOINS_PER_PLAYER));
});
