/**
 * The tournament trust pass (issue 42, items 3, 4, 6 and 7) on PostgreSQL,
 * two instances on one database with no Redis (the scenarios:
 * test/support/tournament-trust.ts; on PGlite: test/tournament-trust.e2e-spec.ts),
 * requests alternating between them: abort at a dealt table refused; a
 * duplicate table's reveal waits for its round's end; the signed export (one
 * key shared by both instances) and the players/seats audit; TOURNAMENT_LIMIT
 * under 8 racing creations through both instances (the advisory lock in the
 * creating transaction admits exactly the cap); the join/withdraw bound.
 */
import { generateKeyPairSync } from 'node:crypto';
import { jest } from '@jest/globals';
import { useTwoPgInstances } from './support/two-pg-instances';
import { abortRefused, creationCap, duplicateRevealWaits, flappingBound, signedExportAudit } from './support/tournament-trust';
import type { Cluster } from './support/tournament-trust';
import { TOURNAMENT_JOINS_PER_PLAYER } from '../src/tournaments/tournaments.service';

jest.setTimeout(300_000);

const ISSUER = 'https://scopa-trust.example';
const key = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;

describe('tournament trust on two instances (PostgreSQL)', () => {
  const instances = useTwoPgInstances({
    CLOCK_POLL_MS: '0',
    WEBHOOK_POLL_MS: '0',
    CLIENT_SEED_WINDOW: '0',
    TOURNAMENT_LIMIT: '3',
    RATE_LIMIT: '100000',
    OAUTH_ISSUER: ISSUER,
    EXPORT_SIGNING_KEY: key.trim().replace(/\n/g, '\\n'),
  });
  const cluster: Cluster = {
    via: (i) => instances.via(i),
    base: (i) => (i % 2 ? instances.b : instances.a).http,
    register: (i, prefix) => instances.register((i % 2 ? instances.b : instances.a).app, prefix),
  };

  it('abort at a tournament table once dealt is ABORT_NOT_ALLOWED on either instance and changes nothing', () => abortRefused(cluster));

  it("a duplicate table that ends first reveals nothing to its own players until the round's end, on either instance", () => duplicateRevealWaits(cluster));

  it('tournament exports are signed with the shared key; a renamed, re-hashed export is UNSOUND and fails --keys', () => signedExportAudit(cluster, ISSUER));

  it('TOURNAMENT_LIMIT: 8 creations at once through both instances admit exactly 3', async () => {
    for (let k = 0; k < 3; k++) await creationCap(cluster, 3, 8);
  });

  it(`join and withdraw flap at most ${TOURNAMENT_JOINS_PER_PLAYER} times per player and tournament, racing joins included`, () =>
    flappingBound(cluster, TOURNAMENT_JOINS_PER_PLAYER));
});
