/**
 * The web client's shell in headless Chromium (issue 47): the language menu
 * (each language by its own name, signed out and signed in; a choice
 * re-renders at once, Arabic right to left) and the account's language,
 * which comes back on a fresh page after logging in again; the error banner
 * in the player's language, its code after it, small; the sign-up form's
 * labels and its words about what is wrong before anything is sent (a long
 * name is not cut, "Newbie" is said to become "newbie"); "Open by id" with a
 * malformed or unknown id says so and stays, a pasted address of a match or
 * of its replay opens it; an address with no match id says so. Run with
 * `npm run test:browser`.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { clearBrowserStorage, useWebClientPage } from './support/web-page';

jest.setTimeout(300_000);

declare const document: {
  documentElement: { lang: string; dir: string };
  querySelector(selector: string): { textContent: string | null; click(): void } | null;
  body: { innerText: string };
};
declare const location: { hash: string };

const suffix = `${process.pid % 1000}${Date.now() % 10000}`;

describe('web client shell (Chromium)', () => {
  const web = useWebClientPage({ shotPrefix: 'shell-' });
  const http = () => request(web.app.getHttpServer());
  const accountLanguage = async (): Promise<string | null> => {
    const res = await http()
      .get('/v1/account')
      .set('authorization', `Bearer ${await web.sessionToken()}`);
    expect(res.status).toBe(200);
    return res.body.language as string | null;
  };
  const documentLanguage = () => web.page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
  /** A fresh page: nothing kept in the browser (no session, no language chosen). */
  const freshPage = async () => {
    await clearBrowserStorage(web.page, web.base);
    await web.page.goto(`${web.base}/#/`);
    await web.page.waitForSelector('#auth-submit');
  };
  const signUp = async (name: string, password: string) => {
    await web.page.click('#tab-register');
    await web.page.fill('#username', name);
    await web.page.fill('#password', password);
    await web.page.click('#auth-submit');
  };

  it('switches language from the menu, signed out and signed in, and keeps it for the account', () =>
    web.guarded(async () => {
      const { page } = web;
      await freshPage();
      expect(await documentLanguage()).toEqual({ lang: 'en', dir: 'ltr' });
      const options = await page.$$eval('#language option', (els) => els.map((e) => [e.getAttribute('value'), e.textContent]));
      expect(options).toEqual([
        ['en', 'English'],
        ['it', 'Italiano'],
        ['fr', 'Français'],
        ['es', 'Español'],
        ['ar', 'العربية'],
      ]);
      expect(await page.textContent('#tab-login')).toBe('Log in');

      // Signed out: Italiano at once.
      await page.selectOption('#language', 'it');
      await page.waitForFunction(() => document.documentElement.lang === 'it');
      expect(await page.textContent('#tab-login')).toBe('Accedi');
      expect(await page.textContent('label[for="username"]')).toContain('Nome utente');
      expect(await page.inputValue('#language')).toBe('it');
      await web.shot('01-auth-it');

      // Signing up keeps the language chosen before for the new account.
      const name = `lingua${suffix}`;
      await signUp(name, `${name} password`);
      await page.waitForSelector('#nav-inbox');
      expect(await documentLanguage()).toEqual({ lang: 'it', dir: 'ltr' });
      expect(await page.textContent('#nav-inbox')).toBe('Le mie partite');
      expect(await page.textContent('#nav-new')).toBe('Nuova partita');
      expect(await page.textContent('#nav-tournaments')).toBe('Tornei');
      expect(await page.textContent('#logout')).toBe('Esci');
      expect(await page.textContent('main h1')).toBe('Le mie partite');
      expect(await accountLanguage()).toBe('it');
      await web.shot('02-inbox-it');

      // Signed in: العربية, right to left at once, and kept for the account.
      await page.selectOption('#language', 'ar');
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      expect(await documentLanguage()).toEqual({ lang: 'ar', dir: 'rtl' });
      expect(await page.textContent('#nav-inbox')).toBe('مبارياتي');
      for (let i = 0; (await accountLanguage()) !== 'ar' && i < 50; i++) await page.waitForTimeout(100);
      expect(await accountLanguage()).toBe('ar');
      await web.shot('03-inbox-ar');

      // Log out, and in again on a fresh page: English (the browser's) until the account's language comes back.
      await page.click('#logout');
      await page.waitForSelector('#auth-submit');
      await freshPage();
      expect(await documentLanguage()).toEqual({ lang: 'en', dir: 'ltr' });
      await page.fill('#username', name);
      await page.fill('#password', `${name} password`);
      await page.click('#auth-submit');
      await page.waitForSelector('#nav-inbox');
      await page.waitForFunction(() => document.documentElement.lang === 'ar');
      expect(await documentLanguage()).toEqual({ lang: 'ar', dir: 'rtl' });
      expect(await page.textContent('#nav-inbox')).toBe('مبارياتي');
      expect(await page.inputValue('#language')).toBe('ar');
      await web.shot('04-logged-in-again-ar');
    }));

  it("shows an error in the player's language first, its code after it; the service's English detail only in English", () =>
    web.guarded(async () => {
      const { page } = web;
      await freshPage();
      /** Logs in with a wrong password; the banner of the answer (it is cleared first: the one of a previous try does not count). */
      const wrongLogin = async (username: string, code = 'UNAUTHENTICATED') => {
        await page.evaluate(() => document.querySelector('#error .close')?.click());
        await page.waitForSelector('#error', { state: 'hidden' });
        await page.fill('#username', username);
        await page.fill('#password', 'wrong password');
        await page.click('#auth-submit');
        await page.waitForSelector('#error:not([hidden])');
        expect(await page.getAttribute('#error', 'data-code')).toBe(code);
      };
      await wrongLogin('nobody');
      expect(await page.getAttribute('#error', 'data-code')).toBe('UNAUTHENTICATED');
      expect(await page.getAttribute('#error', 'role')).toBe('alert');
      expect(await page.textContent('#error .error-message')).toBe('Wrong username or password, or your session has ended.');
      expect(await page.textContent('#error .error-code')).toBe('Code: UNAUTHENTICATED');
      // The message leads; the raw code is not the first thing said.
      expect(await page.$eval('#error', (el) => el.firstElementChild?.className)).toBe('error-message');
      expect(await page.textContent('#error')).not.toMatch(/^\s*UNAUTHENTICATED/);
      await web.shot('05-error-en');

      await page.selectOption('#language', 'fr');
      await page.waitForFunction(() => document.documentElement.lang === 'fr');
      await wrongLogin('nobody');
      expect(await page.textContent('#error .error-message')).toBe("Nom d'utilisateur ou mot de passe incorrect, ou votre session a pris fin.");
      expect(await page.textContent('#error .error-code')).toBe('Code : UNAUTHENTICATED');
      expect(await page.getAttribute('#error .close', 'aria-label')).toBe('Fermer');

      // VALIDATION_FAILED (a username the service refuses at log-in): in French, no English detail...
      const tooLong = 'x'.repeat(40);
      await wrongLogin(tooLong, 'VALIDATION_FAILED');
      expect(await page.textContent('#error .error-message')).toBe("Une partie de votre saisie n'est pas valide.");
      expect(await page.$('#error .error-detail')).toBeNull();
      await web.shot('06-error-fr');
      // ...in English, the service's detail after the message, naming the field once.
      await page.selectOption('#language', 'en');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      await wrongLogin(tooLong, 'VALIDATION_FAILED');
      expect(await page.textContent('#error .error-message')).toBe('Some of what you entered is not valid.');
      const detail = (await page.textContent('#error .error-detail')) ?? '';
      expect(detail).toContain('3 to 32');
      expect(detail.match(/username/g)).toHaveLength(1);
    }));

  it('sign-up: labelled fields; a long name is not cut but refused with words; "Newbie" is said to become "newbie"', () =>
    web.guarded(async () => {
      const { page } = web;
      await freshPage();
      await page.click('#tab-register');
      for (const field of ['username', 'password']) {
        expect(await page.isVisible(`label[for="${field}"]`)).toBe(true);
        expect(await page.getByLabel(field === 'username' ? 'Username' : 'Password').getAttribute('id')).toBe(field);
      }

      // 40 characters: kept as typed, and refused here with the rule, before anything is sent.
      const long = `averyveryverylongname${suffix}`.padEnd(40, 'x');
      await page.fill('#username', long);
      expect(await page.inputValue('#username')).toBe(long);
      await page.fill('#password', 'long name password');
      await page.click('#auth-submit');
      await page.waitForSelector('#username-problem:not([hidden])');
      expect(await page.textContent('#username-problem')).toBe('A username has 3 to 32 characters; this one has 40.');
      expect(await page.getAttribute('#username-problem', 'role')).toBe('alert');
      expect(await page.getAttribute('#username', 'aria-invalid')).toBe('true');
      expect(await page.$('#nav-inbox')).toBeNull();
      expect((await http().get(`/v1/users/${long.slice(0, 32)}`)).status).toBe(404);
      await web.shot('07-signup-long-name');

      // Capitals: said before submitting; the account made is the lowercase name, shown as such.
      const newbie = `Newbie${suffix}`;
      await page.fill('#username', newbie);
      await page.waitForSelector('#username-lowercased:not([hidden])');
      expect(await page.textContent('#username-lowercased')).toBe(`You will sign up as “${newbie.toLowerCase()}”: names are lowercase.`);
      expect(await page.isHidden('#username-problem')).toBe(true);
      await web.shot('08-signup-lowercase');
      await page.click('#auth-submit');
      await page.waitForSelector('#nav-inbox');
      expect(await page.textContent('.whoami')).toBe(newbie.toLowerCase());
    }));

  it('"Open by id": a malformed or unknown id is said and stays; a pasted address of a match or its replay opens it; an address without a match id, or of no match, says so', () =>
    web.guarded(async () => {
      const { page, base } = web;
      await freshPage();
      const name = `opener${suffix}`;
      await signUp(name, `${name} password`);
      await page.waitForSelector('#join-id');
      const openById = async (text: string) => {
        await page.fill('#join-id', text);
        await page.click('#join-open');
      };
      const noLoadingForever = async () => {
        await page.waitForTimeout(500);
        expect(await page.evaluate(() => document.body.innerText)).not.toContain('Loading the match');
      };

      await openById('not-a-match');
      await page.waitForSelector('#join-problem:not([hidden])');
      expect(await page.textContent('#join-problem')).toContain('not a match id');
      expect(await page.getAttribute('#join-problem', 'role')).toBe('alert');
      expect(new URL(page.url()).hash).toBe('#/');
      await noLoadingForever();
      await web.shot('09-open-malformed');

      await openById('0b9f2c1e-5d3a-4c8e-9f1a-2b3c4d5e6f70');
      await page.waitForFunction(() => (document.querySelector('#join-problem')?.textContent ?? '').includes('No match has this id'));
      expect(new URL(page.url()).hash).toBe('#/');
      await noLoadingForever();

      const created = await http()
        .post('/v1/matches')
        .set('authorization', `Bearer ${await web.sessionToken()}`)
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
      expect(created.status).toBe(201);
      const id = created.body.id as string;

      await openById(`  ${base}/#/match/${id}  `);
      await page.waitForFunction((want) => location.hash === want, `#/match/${id}`);
      await page.click('#nav-inbox');
      await page.waitForSelector('#join-id');
      await openById(`${base}/#/replay/${id}`);
      await page.waitForFunction((want) => location.hash === want, `#/replay/${id}`);
      await page.click('#nav-inbox');
      await page.waitForSelector('#join-id');
      await openById(id.toUpperCase());
      await page.waitForFunction((want) => location.hash === want, `#/match/${id}`);

      // An address with no match id in it (typed, or cut short): said, not waited for.
      await page.goto(`${base}/#/match/${id.slice(0, 20)}`);
      await page.waitForSelector('#bad-address');
      await noLoadingForever();
      await web.shot('10-bad-address');

      // A well-formed address of no match (straight from the address bar): said, not waited for.
      await page.goto(`${base}/#/match/0b9f2c1e-5d3a-4c8e-9f1a-2b3c4d5e6f70`);
      await page.waitForSelector('#match-unavailable');
      expect(await page.textContent('#match-unavailable')).toContain('Not found.');
      await noLoadingForever();
      expect(web.pageErrors.filter((e) => !/40[0-4]/.test(e))).toEqual([]);
    }));
});
