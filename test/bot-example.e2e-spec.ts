/**
 * The example bot (examples/bot/, written only against @scopa/sdk) against a
 * real instance, one full match each way: it runs with an API token, joins the
 * match a person invites it to, or accepts the challenge a person sends it,
 * plays every one of its turns itself (a turn clock that forfeits the match is
 * set, so a missed turn would show), and carries on after its socket is
 * dropped mid-match (a TCP proxy in front of the instance).
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ScopaClient } from '@scopa/sdk';
import type { ApiTokenScope } from '@scopa/sdk';
import { ScopaBot, cannotPlay } from '../examples/bot/src/bot';
import { createTestApp, listenOnLoopback } from './support/app';
import { uniqueName } from './support/clients';
import { startTcpProxy } from './support/tcp-proxy';
import type { TcpProxy } from './support/tcp-proxy';

jest.setTimeout(240_000);

describe('examples/bot (e2e)', () => {
  let app: INestApplication;
  let base: string;
  let proxy: TcpProxy;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '100000' });
    const served = await listenOnLoopback(app);
    base = served.http;
    proxy = await startTcpProxy(served.port);
  });

  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  /** A person's client, registered. */
  async function person(prefix: string): Promise<{ client: ScopaClient; name: string }> {
    const client = new ScopaClient({ baseUrl: base });
    const name = uniqueName(prefix);
    await client.register(name, `password of ${name}`);
    return { client, name };
  }

  /** The example bot, running through the proxy with an API token its owner made (the bot only ever holds the token). */
  async function startBot(prefix: string, tokenName: string, scopes: ApiTokenScope[]) {
    const { client: owner, name: botName } = await person(prefix);
    const { token } = await owner.createApiToken(tokenName, scopes);
    const lines: string[] = [];
    const bot = new ScopaBot({ client: new ScopaClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, token }), pollMs: 200, log: (l) => lines.push(l) });
    const stop = new AbortController();
    return { botName, bot, lines, stop, running: bot.run(stop.signal) };
  }

  it('joins the match it is invited to with an API token, plays every turn in time, and survives a dropped socket', async () => {
    const { botName, bot, lines, stop, running } = await startBot('bot', 'example bot', ['read', 'play']);
    try {
      const { client: alice } = await person('alice');
      const created = await alice.createMatch({
        preset: 'scopa',
        seats: [{ type: 'creator' }, { type: 'reserved', username: botName }],
        turnTimeLimit: 'PT45S',
        onExpiry: 'forfeit',
      });
      await alice.setClientSeed(created.id);

      // the bot finds the invitation and takes its seat, with a client seed of its own
      let joined = created;
      for (let i = 0; i < 200 && joined.view.seats[1].player === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        joined = await alice.getMatch(created.id);
      }
      expect(joined.view.seats[1].player?.toLowerCase()).toBe(botName.toLowerCase());
      expect(joined.view.clientSeeds[1]).toMatch(/^[0-9a-f]{64}$/);
      expect((await alice.startMatch(created.id)).status).toBe('playing');

      let alicePlays = 0;
      let dropped = false;
      let result: { reason: string; winner: number | null } | null | undefined;
      for await (const live of alice.follow(created.id, 1)) {
        result = live.match.view.result;
        const view = live.match.view;
        if (live.match.status !== 'playing' || view.turn !== view.viewer) continue;
        const legal = await alice.legalPlays(created.id);
        if (legal.seq !== live.event.seq || legal.plays.length === 0) continue;
        await alice.play(created.id, legal.plays[legal.plays.length - 1]);
        alicePlays++;
        if (alicePlays === 4 && !dropped) {
          dropped = proxy.dropAll() > 0; // the bot's graphql-ws socket goes down mid-match
        }
      }

      expect(dropped).toBe(true);
      expect(result).toBeDefined();
      expect(result?.reason).not.toBe('forfeit'); // no turn of the bot ran out
      const events = await alice.events(created.id, 1, 1000);
      const botPlays = events.filter((e) => e.type === 'CardPlayed' && e.actor?.toLowerCase() === botName.toLowerCase());
      expect(botPlays.length).toBeGreaterThanOrEqual(alicePlays - 1);
      expect(botPlays.every((e) => !(e.payload as { auto?: boolean }).auto)).toBe(true);
      expect(bot.stats.plays).toBe(botPlays.length);
      expect(bot.stats.joined).toBe(1);
      expect(bot.stats.reconnects).toBeGreaterThanOrEqual(1);
      // the bot saw the end on its own feed
      for (let i = 0; i < 100 && bot.stats.finished === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(bot.stats.finished).toBe(1);
      expect(await alice.audit(created.id)).toMatchObject({ sound: true, checked: 'chain+rules' });
    } finally {
      stop.abort();
      await running;
    }
    expect(bot.stats.errors).toEqual([]);
    expect(lines.some((l) => l.includes('resuming from seq'))).toBe(true);
  });
  it('accepts the challenge a person sends it, plays every turn of the match in time from legalPlays, and the match ends and audits sound', async () => {
    const { botName, bot, lines, stop, running } = await startBot('cbot', 'challenge bot', ['read', 'play', 'challenge:write']);
    try {
      const { client: carol, name: carolName } = await person('carol');
      // a person challenges the bot's account: no match id is given to the bot
      const challenge = await carol.challenge({ username: botName, preset: 'scopa', turnTimeLimit: 'PT45S', onExpiry: 'forfeit', seat: 0 });
      expect(challenge).toMatchObject({ status: 'pending', destUser: botName.toLowerCase() });

      // the bot finds it on its next poll and accepts: the match is made and started
      let answered = challenge;
      for (let i = 0; i < 200 && answered.status === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        answered = (await carol.rest.GET('/v1/challenges/{id}', { params: { path: { id: challenge.id } } })).data!;
      }
      expect(answered.status).toBe('accepted');
      const matchId = answered.matchId!;
      expect(matchId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await carol.myChallenges()).out).toEqual([]);

      let carolPlays = 0;
      let result: { reason: string; winner: number | null } | null | undefined;
      let seats: (string | null)[] = [];
      for await (const live of carol.follow(matchId, 1)) {
        result = live.match.view.result;
        seats = live.match.view.seats.map((x) => x.player);
        const view = live.match.view;
        if (live.match.status !== 'playing' || view.turn !== view.viewer) continue;
        const legal = await carol.legalPlays(matchId);
        if (legal.seq !== live.event.seq || legal.plays.length === 0) continue;
        await carol.play(matchId, legal.plays[0]);
        carolPlays++;
      }

      expect(seats.map((p) => p?.toLowerCase())).toEqual([carolName.toLowerCase(), botName.toLowerCase()]);
      expect(result).toBeDefined();
      expect(result?.reason).not.toBe('forfeit'); // no turn of the bot ran out
      const events = await carol.events(matchId, 1, 1000);
      expect(events[events.length - 1].type).toBe('MatchEnded');
      const botPlays = events.filter((e) => e.type === 'CardPlayed' && e.actor?.toLowerCase() === botName.toLowerCase());
      // every turn of the bot was played by the bot itself: none by the clock (auto), none missing
      const allPlays = events.filter((e) => e.type === 'CardPlayed');
      expect(allPlays.length).toBe(carolPlays + botPlays.length);
      expect(botPlays.length).toBeGreaterThanOrEqual(carolPlays - 1);
      expect(botPlays.every((e) => !(e.payload as { auto?: boolean }).auto)).toBe(true);
      expect(bot.stats.plays).toBe(botPlays.length);
      expect(bot.stats.accepted).toBe(1);
      expect(bot.stats.joined).toBe(0);
      for (let i = 0; i < 100 && bot.stats.finished === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(bot.stats.finished).toBe(1);
      expect(await carol.audit(matchId)).toMatchObject({ sound: true, checked: 'chain+rules' });
    } finally {
      stop.abort();
      await running;
    }
    expect(bot.stats.errors).toEqual([]);
    expect(lines.some((l) => l.startsWith('accepted challenge'))).toBe(true);
  });

  it('would decline (variant) a challenge it cannot play: more than two players, or teams', () => {
    const base = {
      id: 'c',
      challenger: 'x',
      destUser: 'y',
      preset: 'scopa',
      rulesetId: null,
      turnTimeLimit: null,
      onExpiry: 'autoPlay' as const,
      rated: false,
      seat: null,
      status: 'pending' as const,
      declineReason: null,
      matchId: null,
      createdAt: '',
      expiresAt: '',
    };
    expect(cannotPlay({ ...base, overrides: {} })).toBeNull();
    expect(cannotPlay({ ...base, overrides: { players: 2, target: 5 } })).toBeNull();
    expect(cannotPlay({ ...base, overrides: { players: 4 } })).toBe('variant');
    expect(cannotPlay({ ...base, overrides: { teams: true } })).toBe('variant');
  });
});
