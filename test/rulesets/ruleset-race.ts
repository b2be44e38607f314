/**
 * Saved rulesets under concurrent saves and match creations, written once:
 * on PGlite in npm test (test/ruleset-versions.e2e-spec.ts, one instance,
 * small numbers), on PostgreSQL in npm run test:pg
 * (test/ruleset-versions.pg-spec.ts, two instances on one database, at least
 * 100 saves). What it protects: a save never answers 5xx; versions of a name
 * are 1..n without gaps; a version some match uses never changes, and every
 * match records exactly the options of the version it was created from.
 */
import type { Server } from 'node:http';
import request from 'supertest';

export interface RaceSetup {
  /** One HTTP target per service instance (a server or a base URL); requests alternate between them. */
  targets: (Server | string)[];
  /** Concurrent saves of one name. */
  saves: number;
  /** Concurrent match creations from versions of that name. */
  creations: number;
  /** The saves and the creations start spread over this many milliseconds, so that edits, locks and new versions interleave. */
  spreadMs: number;
  close(): Promise<void>;
}

interface Version {
  id: string;
  name: string;
  version: number;
  preset: string;
  overrides: Record<string, unknown>;
  options: Record<string, unknown>;
  locked: boolean;
}

interface Outcome {
  status: number;
  body: any;
}

const SAVE_MUTATION = `mutation($input: SaveRulesetInput!) {
  saveCustomRuleset(input: $input) { id name version preset overrides options { target } locked }
}`;

let serial = 0;

export function describeRulesetRace(name: string, open: () => Promise<RaceSetup>): void {
  describe(`saved rulesets under concurrent saves and match creations (${name})`, () => {
    let setup: RaceSetup;
    let token: string;
    const at = (i: number) => request(setup.targets[i % setup.targets.length]);
    const auth = () => `Bearer ${token}`;

    beforeAll(async () => {
      setup = await open();
      const username = `racer${process.pid % 1000}${Date.now() % 100_000}`;
      const res = await at(0)
        .post('/v1/auth/register')
        .send({ username, password: `password-of-${username}` });
      expect(res.status).toBe(201);
      token = res.body.accessToken;
    });
    afterAll(async () => {
      await setup?.close();
    });

    /** A save over REST (even i) or GraphQL (odd i), as one outcome shape. */
    const save = async (i: number, rulesetName: string, overrides: Record<string, unknown>): Promise<Outcome> => {
      if (i % 2 === 0) {
        const res = await at(i).post('/v1/custom-rulesets').set('authorization', auth()).send({ name: rulesetName, preset: 'scopa', overrides });
        return { status: res.status, body: res.body };
      }
      const res = await at(i)
        .post('/graphql')
        .set('authorization', auth())
        .send({ query: SAVE_MUTATION, variables: { input: { name: rulesetName, preset: 'scopa', overrides } } });
      // a GraphQL error (or INTERNAL) counts as a failed save, with its code as the status
      if (res.body?.errors?.length) return { status: res.status >= 500 ? res.status : 599, body: res.body.errors };
      return { status: res.status === 200 ? 201 : res.status, body: res.body.data.saveCustomRuleset };
    };

    const createFrom = async (i: number, rulesetId: string): Promise<Outcome> => {
      const res = await at(i).post('/v1/matches').set('authorization', auth()).send({ rulesetId });
      return { status: res.status, body: res.body };
    };

    const versionsOf = async (rulesetName: string): Promise<Version[]> => {
      const res = await at(0).get('/v1/custom-rulesets').set('authorization', auth());
      expect(res.status).toBe(200);
      return (res.body as Version[]).filter((v) => v.name === rulesetName);
    };

    /** The options a match recorded at creation (its MatchCreated event), and the ruleset it names. */
    const recorded = async (matchId: string): Promise<{ options: Record<string, unknown>; rulesetId: string | null }> => {
      const match = await at(0).get(`/v1/matches/${matchId}`).set('authorization', auth());
      expect(match.status).toBe(200);
      const events = await at(0).get(`/v1/matches/${matchId}/events?fromSeq=1&limit=1`).set('authorization', auth());
      expect(events.status).toBe(200);
      expect(events.body[0].type).toBe('MatchCreated');
      // the view the match is played from agrees with its first event
      expect(match.body.view.options).toEqual(events.body[0].payload.options);
      return { options: events.body[0].payload.options, rulesetId: match.body.rulesetId };
    };

    it('concurrent saves of one name and creations from it: no 5xx, gap-free versions, each match records its version, used versions unchanged', async () => {
      const rulesetName = `race-${++serial}`;
      // v1, unused: the first creations race in-place edits of it (the reported bug: v1 edited from target 3 to 7 under a match)
      const first = await save(0, rulesetName, { target: 3 });
      expect(first.status).toBe(201);
      const targets = [3, 5, 7, 9, 16];
      const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
      const saveResults: Promise<Outcome>[] = [];
      for (let i = 0; i < setup.saves; i++) {
        saveResults.push(after((i * setup.spreadMs) / setup.saves).then(() => save(i, rulesetName, { target: targets[i % targets.length] })));
      }
      const creations: Promise<{ from: string; outcome: Outcome }>[] = [];
      for (let i = 0; i < setup.creations; i++) {
        // half from v1 as first saved (edited in place meanwhile until a match locks it), half from the version a racing save just returned
        const from =
          i % 2 === 0
            ? after((i * setup.spreadMs) / setup.creations).then(() => first.body.id as string)
            : saveResults[Math.floor((i * setup.saves) / setup.creations)].then((o) => o.body?.id as string);
        creations.push(from.then(async (id) => ({ from: id, outcome: await createFrom(i, id) })));
      }
      const saved = await Promise.all(saveResults);
      const created = await Promise.all(creations);

      // every request succeeded (no 5xx, no INTERNAL, no conflict left to the client)
      expect(saved.filter((o) => o.status !== 201).map((o) => [o.status, o.body])).toEqual([]);
      expect(created.filter((c) => c.outcome.status !== 201).map((c) => [c.outcome.status, c.outcome.body])).toEqual([]);

      // versions 1..n, in order, one row each; a save answered with one of them
      const versions = await versionsOf(rulesetName);
      expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1));
      const byId = new Map(versions.map((v) => [v.id, v]));
      for (const o of saved) {
        expect(byId.get(o.body.id)?.version).toBe(o.body.version);
        expect(o.body.name).toBe(rulesetName);
      }
      // the race did make new versions under matches (else it proved little), and only the latest can be unused
      expect(versions.length).toBeGreaterThan(1);
      expect(versions.slice(0, -1).filter((v) => !v.locked)).toEqual([]);

      // every match plays the options of the version it names, and that version is locked
      for (const c of created) {
        const { options, rulesetId } = await recorded(c.outcome.body.id);
        expect(rulesetId).toBe(c.from);
        const version = byId.get(c.from)!;
        expect(version.locked).toBe(true);
        expect(options).toEqual(version.options);
      }

      // used versions never change afterwards: more saves make new versions, the used ones stay as they are
      const used = versions.filter((v) => v.locked);
      const more = await Promise.all(targets.map((target, i) => save(i, rulesetName, { target: target + 1 })));
      expect(more.map((o) => o.status)).toEqual(targets.map(() => 201));
      const later = await versionsOf(rulesetName);
      expect(later.map((v) => v.version)).toEqual(later.map((_, i) => i + 1));
      for (const v of used) expect(later.find((l) => l.id === v.id)).toEqual(v);
    });

    it('a save returns the head when nothing changed, edits an unused head in place, and makes the next version once a match uses it', async () => {
      const rulesetName = `rules-${++serial}`;
      const v1 = await save(0, rulesetName, { target: 3 });
      expect(v1.body).toMatchObject({ version: 1, locked: false, options: { target: 3 } });
      const same = await save(1, rulesetName, { target: 3 });
      expect(same.body).toMatchObject({ id: v1.body.id, version: 1, locked: false });
      const edited = await save(0, rulesetName, { target: 5 });
      expect(edited.body).toMatchObject({ id: v1.body.id, version: 1, options: { target: 5 } });

      const match = await createFrom(0, v1.body.id);
      expect(match.status).toBe(201);
      expect((await recorded(match.body.id)).options).toMatchObject({ target: 5 });

      const unchanged = await save(1, rulesetName, { target: 5 });
      expect(unchanged.body).toMatchObject({ id: v1.body.id, version: 1, locked: true });
      const v2 = await save(0, rulesetName, { target: 7 });
      expect(v2.body).toMatchObject({ version: 2, locked: false, options: { target: 7 } });
      expect(v2.body.id).not.toBe(v1.body.id);
      const kept = await at(1).get(`/v1/custom-rulesets/${v1.body.id}`).set('authorization', auth());
      expect(kept.body).toMatchObject({ version: 1, locked: true, options: { target: 5 } });
      // a match from the used version still plays it, not the head
      const again = await createFrom(1, v1.body.id);
      expect(again.status).toBe(201);
      expect((await recorded(again.body.id)).options).toMatchObject({ target: 5 });
    });
  });
}
