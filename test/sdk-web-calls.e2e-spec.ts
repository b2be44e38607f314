/**
 * The SDK calls the web client makes beyond a match's own (sdk/README.md,
 * "Every method of `ScopaClient`"), against a real instance: a session kept
 * by the app through a token provider and refreshed with its single-use
 * refresh token; my event stream (NDJSON) telling of a match's start and
 * ending when it is aborted; a challenge read back; the lobby, the rulesets,
 * a profile and a user's finished matches; the apps I register and delete.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ScopaClient, ScopaError } from '@scopa/sdk';
import type { EventStreamLine, Session } from '@scopa/sdk';
import { createTestApp, listenOnLoopback } from './support/app';
import { uniqueName } from './support/clients';

jest.setTimeout(120_000);

describe('@scopa/sdk: the web client calls (e2e)', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
  });

  afterAll(async () => {
    await app?.close();
  });

  async function newPlayer(): Promise<{ client: ScopaClient; username: string; session: Session }> {
    const username = uniqueName('web');
    const client = new ScopaClient({ baseUrl: base });
    const session = await client.register(username, `password of ${username}`);
    return { client, username, session };
  }

  it('sends the token a provider gives before each request; refreshSession spends the refresh token once', async () => {
    const { username, session } = await newPlayer();
    let current: string | undefined = session.accessToken;
    let asked = 0;
    const client = new ScopaClient({
      baseUrl: base,
      token: () => {
        asked++;
        return current;
      },
    });
    expect((await client.me()).username).toBe(username);
    expect(asked).toBe(1);
    expect(client.token).toBeUndefined();

    const next = await new ScopaClient({ baseUrl: base }).refreshSession(session.refreshToken);
    expect(next.refreshToken).not.toBe(session.refreshToken);
    current = next.accessToken;
    expect((await client.me()).username).toBe(username);
    expect(asked).toBe(2);
    // single-use: the spent refresh token is refused
    const replay = await new ScopaClient({ baseUrl: base }).refreshSession(session.refreshToken).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(ScopaError);
    expect((replay as ScopaError).code).toBe('UNAUTHENTICATED');

    // no token from the provider: an anonymous call, refused with a typed error
    current = undefined;
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('myEvents streams my events as they happen and ends when aborted', async () => {
    const { client } = await newPlayer();
    const botMatch = async () => {
      const m = await client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
      await client.setClientSeed(m.id);
      return m;
    };
    const playing = await botMatch();
    await client.startMatch(playing.id);
    const created = await botMatch();
    const stop = new AbortController();
    const seen: EventStreamLine[] = [];
    let listening: () => void = () => undefined;
    const listened = new Promise<void>((resolve) => (listening = resolve));
    const reading = (async () => {
      for await (const line of client.myEvents({ signal: stop.signal })) {
        seen.push(line);
        if (line.type === 'matchInPlay') listening(); // the first lines: the stream hears what follows them
        if (line.type === 'matchStarted' && line.matchId === created.id) stop.abort();
      }
    })();
    await listened;
    await client.startMatch(created.id);
    await reading; // returns (no error) once aborted
    expect(seen[0]).toMatchObject({ type: 'matchInPlay', match: { id: playing.id, status: 'playing' } });
    expect(seen.find((l) => l.type === 'matchStarted')).toMatchObject({ matchId: created.id, preset: 'scopa', seat: 0 });
  });

  it('myEvents without a credential is a typed refusal', async () => {
    const anonymous = new ScopaClient({ baseUrl: base });
    const lines = anonymous.myEvents();
    await expect(lines.next()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('reads a challenge back, the lobby, the rulesets, a profile and finished matches', async () => {
    const alice = await newPlayer();
    const bob = await newPlayer();
    const challenge = await alice.client.challenge({ username: bob.username, preset: 'scopa' });
    expect(await bob.client.getChallenge(challenge.id)).toMatchObject({
      id: challenge.id,
      challenger: alice.username,
      destUser: bob.username,
      status: 'pending',
    });
    const declined = await bob.client.declineChallenge(challenge.id, 'generic');
    expect((await alice.client.getChallenge(challenge.id)).status).toBe(declined.status);

    const open = await alice.client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    const lobby = await bob.client.lobby({ limit: 50 });
    expect(lobby.matches.map((m) => m.id)).toContain(open.id);
    expect(lobby.matches.find((m) => m.id === open.id)?.seats.map((s) => s.state)).toEqual(['taken', 'open']);

    expect((await bob.client.rulesets()).map((p) => p.id)).toContain('scopa');
    const profile = await bob.client.user(alice.username);
    expect(profile).toMatchObject({ username: alice.username, bot: false, wins: 0, losses: 0, draws: 0, ratings: [] });
    await expect(bob.client.user(uniqueName('nobody'))).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });

    // a finished match of alice's: resigned at once
    const m = await alice.client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await alice.client.setClientSeed(m.id);
    await alice.client.startMatch(m.id);
    await alice.client.resign(m.id);
    const page = await bob.client.userMatches(alice.username, { max: 10 });
    expect(page.matches.map((x) => x.id)).toEqual([m.id]);
    expect(page.matches[0].result).toMatchObject({ reason: 'resignation', winner: 1 });
    expect(page.next).toBeNull();
  });

  it('registers, lists and deletes an app; no app authorized yet', async () => {
    const { client } = await newPlayer();
    const { app: registered, clientSecret } = await client.registerOAuthApp({ name: 'Web calls test', redirectUris: ['http://127.0.0.1/callback'] });
    expect(clientSecret).toBeNull(); // a public client
    expect((await client.oauthApps()).map((a) => a.id)).toEqual([registered.id]);
    expect(await client.authorizedApps()).toEqual([]);
    await client.deleteOAuthApp(registered.id);
    expect(await client.oauthApps()).toEqual([]);
  });
});

describe('@scopa/sdk: follow() with a token provider whose session is refreshed (e2e)', () => {
  const savedTtl = process.env.JWT_TTL;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    // Access tokens of 3 s: the service closes a live connection (4403) when the token it was opened with ends.
    app = await createTestApp({ RATE_LIMIT: '100000', JWT_TTL: '3' });
    base = (await listenOnLoopback(app)).http;
  });

  afterAll(async () => {
    await app?.close();
    if (savedTtl === undefined) delete process.env.JWT_TTL;
    else process.env.JWT_TTL = savedTtl;
  });

  it('resumes with the newer token after the one it connected with ends, however long it waits for an event', async () => {
    const username = uniqueName('web');
    const anonymous = new ScopaClient({ baseUrl: base });
    let session = await anonymous.register(username, `password of ${username}`);
    let expiresAt = Date.now() + session.expiresIn * 1000;
    let refreshing: Promise<void> | undefined;
    let refreshes = 0;
    // as the web client does: refreshed shortly before the end, one refresh at a time (refresh tokens are single-use)
    const token = async (): Promise<string> => {
      if (Date.now() > expiresAt - 1500) {
        refreshing ??= anonymous
          .refreshSession(session.refreshToken)
          .then((next) => {
            session = next;
            expiresAt = Date.now() + next.expiresIn * 1000;
            refreshes++;
          })
          .finally(() => (refreshing = undefined));
        await refreshing;
      }
      return session.accessToken;
    };
    const client = new ScopaClient({ baseUrl: base, token });
    const m = await client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await client.setClientSeed(m.id);
    await client.startMatch(m.id);

    const stop = new AbortController();
    const seqs: number[] = [];
    const following = (async () => {
      for await (const { event } of client.follow(m.id, 1, { signal: stop.signal, untilEnd: false })) seqs.push(event.seq);
    })();
    // two lifetimes of a token with nothing to hear: the connection is closed and resumed at least once
    await new Promise((r) => setTimeout(r, 7000));
    expect(refreshes).toBeGreaterThanOrEqual(2);
    const legal = await client.legalPlays(m.id);
    const deadline = Date.now() + 20_000;
    let played = legal.seq;
    if (legal.plays.length) played = (await client.play(m.id, legal.plays[0])).seq;
    while (!seqs.includes(played) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    await following; // no error: each close was resumed with the newer token
    expect(seqs).toContain(played);
    expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b)); // no repeat, in order
    expect(seqs[0]).toBe(1);
  });
});
