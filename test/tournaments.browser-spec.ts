/**
 * The web client's tournament pages in headless Chromium: a player signs up,
 * finds a tournament in the list, opens its page and joins by clicking; once
 * the creator starts it, the page shows round 1's pairings, the standings
 * table and a link to the player's own match, which opens the table with a
 * hand; after the round the match is linked to its replay. Run with
 * `npm run test:browser`.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { useWebClientPage } from './support/web-page';

jest.setTimeout(300_000);

describe('tournament pages (Chromium)', () => {
  const web = useWebClientPage({ env: { CLIENT_SEED_WINDOW: '0' }, shotPrefix: 'tournament-' });
  const { shot, pageErrors } = web;
  const http = () => request(web.app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  it('lists tournaments, joins one, shows the pairings, the standings and my match', () => web.guarded(scenario));

  async function scenario(): Promise<void> {
    const { page } = web;
    const alice = await register(web.app, 'tba');
    const t = (
      await http()
        .post('/v1/tournaments')
        .set('authorization', auth(alice))
        .send({ name: 'Browser cup', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 })
    ).body;
    await http().post(`/v1/tournaments/${t.id}/join`).set('authorization', auth(alice)).send({}).expect(200);

    const bobName = `tbb${process.pid % 1000}${Date.now() % 10000}`;
    await page.goto(`${web.base}/`);
    await page.click('#tab-register');
    await page.fill('#username', bobName);
    await page.fill('#password', `${bobName} password`);
    await page.click('#auth-submit');
    await page.waitForSelector('#nav-tournaments');
    await page.click('#nav-tournaments');
    await page.waitForSelector(`tr[data-tournament="${t.id}"] a`);
    await shot('01-list');
    await page.click(`tr[data-tournament="${t.id}"] a`);
    await page.waitForSelector('#tournament-join');
    await page.click('#tournament-join');
    await page.waitForSelector(`#tournament-players li[data-player="${bobName}"]`);
    expect((await http().get(`/v1/tournaments/${t.id}`)).body.players.map((p: { player: string }) => p.player)).toEqual([alice.username, bobName]);

    await http().post(`/v1/tournaments/${t.id}/start`).set('authorization', auth(alice)).send({}).expect(200);
    await page.waitForSelector('#my-tournament-match a', { timeout: 15_000 });
    await page.waitForSelector(`#standings tr[data-player="${bobName}"]`);
    await page.waitForSelector('.round[data-round="1"] li.table.mine');
    await shot('02-started');
    await page.click('#my-tournament-match a');
    await page.waitForSelector('#my-hand');
    const matchId = decodeURIComponent(page.url().split('#/match/')[1]);
    const round = (await http().get(`/v1/tournaments/${t.id}/rounds/1`)).body;
    expect(round.tables[0].matchId).toBe(matchId);

    // alice resigns: the round and the tournament end; the page links the match to its replay.
    await http().post(`/v1/matches/${matchId}/resign`).set('authorization', auth(alice)).send({}).expect(200);
    await page.goto(`${web.base}/#/tournament/${t.id}`);
    await page.waitForSelector('#tournament[data-status="finished"]', { timeout: 15_000 });
    await page.waitForSelector(`.round[data-round="1"] a.table-link[href="#/replay/${matchId}"]`);
    expect(await page.textContent(`#standings tr[data-player="${bobName}"]`)).toContain('1');
    await shot('03-finished');
    expect(await page.isVisible('#error:not([hidden])')).toBe(false);
    expect(pageErrors).toEqual([]);
  }
});
