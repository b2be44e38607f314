/**
 * Third-party apps (OAuth): the consent page an authorization request lands
 * on, and "Apps": the apps I authorized (revoke access) and the apps I
 * registered.
 */
import type { AuthorizedApp, OAuthApp } from '@scopa/sdk';
import { client } from './api';
import { h, mount } from './dom';
import { formatDate, formatList, t } from './i18n';
import { attempt } from './widgets';

type Cleanup = (() => void) | void;

/** What each scope lets an app do, in the player's words (the service's own words, in English, for a scope the client does not know). */
const SCOPE_KEYS: Record<string, string> = {
  'profile:read': 'apps:scope.profileRead',
  'match:read': 'apps:scope.matchRead',
  'match:play': 'apps:scope.matchPlay',
  'challenge:write': 'apps:scope.challengeWrite',
  'webhook:write': 'apps:scope.webhookWrite',
  'ruleset:write': 'apps:scope.rulesetWrite',
  'tournament:write': 'apps:scope.tournamentWrite',
  'social:write': 'apps:scope.socialWrite',
  'team:write': 'apps:scope.teamWrite',
};
const scopeText = (scope: string, description: string): string => (SCOPE_KEYS[scope] ? t(SCOPE_KEYS[scope]) : description);

/**
 * The consent page: which app, for which account, which scopes; approve or
 * deny. The request is bound to this browser (a cookie the authorization
 * endpoint set) and answered with my session; the answer sends the browser
 * back through the authorization endpoint to the app.
 */
export function consentScreen(main: HTMLElement, uid: string): Cleanup {
  mount(main, h('section', { class: 'panel consent' }, h('h1', null, t('apps:consent.title')), h('p', { class: 'muted' }, t('common:loading'))));
  void attempt(async () => {
    const req = await client.consentRequest(uid);
    const decide = async (approve: boolean, button: HTMLButtonElement) => {
      for (const b of main.querySelectorAll<HTMLButtonElement>('.consent button')) b.disabled = true;
      button.textContent = approve ? t('apps:consent.approving') : t('apps:consent.denying');
      const outcome = await attempt(() => client.answerConsent(uid, approve));
      if (outcome) location.assign(outcome.redirectTo);
      else for (const b of main.querySelectorAll<HTMLButtonElement>('.consent button')) b.disabled = false;
    };
    const approve = h('button', { id: 'consent-approve', class: 'primary' }, t('apps:consent.approve'));
    const deny = h('button', { id: 'consent-deny' }, t('apps:consent.deny'));
    approve.addEventListener('click', () => void decide(true, approve));
    deny.addEventListener('click', () => void decide(false, deny));
    mount(
      main,
      h(
        'section',
        { class: 'panel consent' },
        h('h1', null, t('apps:consent.title')),
        h('p', null, h('strong', { id: 'consent-app' }, req.app.name), ' ', t('apps:consent.wantsToAct'), ' ', h('strong', null, req.username)),
        req.scopes.length
          ? [
              h('p', null, t('apps:consent.asksTo')),
              h(
                'ul',
                { id: 'consent-scopes' },
                req.scopes.map((s) => h('li', { 'data-scope': s.scope }, scopeText(s.scope, s.description), ' ', h('code', { class: 'muted small' }, s.scope))),
              ),
            ]
          : h('p', { id: 'consent-scopes', class: 'muted' }, t('apps:consent.noScopes')),
        h('p', null, t('apps:consent.sentBackTo'), ' ', h('strong', { id: 'consent-redirect-host', class: 'mono' }, req.redirectHost)),
        h('p', { class: 'muted small' }, t('apps:consent.fullAddress'), ' ', h('span', { class: 'mono' }, req.redirectUri)),
        h('p', { class: 'muted small' }, t('apps:consent.revokeLater')),
        h('p', { class: 'actions' }, approve, ' ', deny),
      ),
    );
  });
}

/** The apps I authorized, each with "Revoke access"; the apps I registered, with a form to register one. */
export function appsScreen(main: HTMLElement): Cleanup {
  let alive = true;
  const created = h('div', { id: 'app-created' });
  const load = async () => {
    const d = await attempt(() => Promise.all([client.authorizedApps(), client.oauthApps()]));
    if (d && alive) render(...d);
  };
  const revoke = async (grant: AuthorizedApp) => {
    if (await attempt(() => client.revokeAuthorizedApp(grant.id).then(() => true))) await load();
  };
  const remove = async (app: OAuthApp) => {
    if (await attempt(() => client.deleteOAuthApp(app.id).then(() => true))) await load();
  };
  const name = h('input', { id: 'app-name', required: true, maxlength: 100 });
  const uris = h('textarea', { id: 'app-redirects', rows: 2, placeholder: t('apps:mine.redirectsPlaceholder') });
  const confidential = h('input', { id: 'app-confidential', type: 'checkbox' });
  const register = async (ev: Event) => {
    ev.preventDefault();
    const input = {
      name: name.value.trim(),
      redirectUris: uris.value
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
      confidential: confidential.checked,
    };
    const d = await attempt(() => client.registerOAuthApp(input));
    if (!d) return;
    const { app, clientSecret } = d;
    mount(
      created,
      h(
        'p',
        { class: 'notice' },
        t('apps:mine.registered', { name: app.name }),
        ' ',
        h('code', { class: 'mono' }, app.id),
        clientSecret ? [' ', t('apps:mine.secretOnce'), ' ', h('code', { class: 'mono' }, clientSecret)] : null,
      ),
    );
    name.value = '';
    uris.value = '';
    await load();
  };
  const render = (grants: AuthorizedApp[], apps: OAuthApp[]) =>
    mount(
      main,
      h(
        'section',
        { class: 'panel' },
        h('h1', null, t('apps:authorized.title')),
        grants.length
          ? h(
              'table',
              { class: 'inbox', id: 'authorized-apps' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  [t('apps:authorized.col.app'), t('apps:authorized.col.may'), t('apps:authorized.col.since'), ''].map((c) => h('th', null, c)),
                ),
              ),
              h(
                'tbody',
                null,
                grants.map((g) =>
                  h(
                    'tr',
                    { 'data-grant': g.id },
                    h('td', null, g.app.name),
                    h('td', null, g.scopes.length ? formatList(g.scopes.map((s) => s.replace('_', ':'))) : t('common:none')),
                    h('td', null, formatDate(g.createdAt)),
                    h('td', null, h('button', { class: 'revoke-app', onclick: () => void revoke(g) }, t('apps:authorized.revoke'))),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted', id: 'authorized-apps' }, t('apps:authorized.none')),
      ),
      h(
        'section',
        { class: 'panel' },
        h('h1', null, t('apps:mine.title')),
        apps.length
          ? h(
              'ul',
              { id: 'my-apps' },
              apps.map((a) =>
                h(
                  'li',
                  null,
                  h('strong', null, a.name),
                  ' ',
                  h('code', { class: 'mono small' }, a.id),
                  ' ',
                  a.confidential ? t('apps:mine.confidentialTag') : t('apps:mine.publicTag'),
                  ' ',
                  a.redirectUris.join(' '),
                  ' ',
                  h('button', { class: 'link', onclick: () => void remove(a) }, t('apps:mine.delete')),
                ),
              ),
            )
          : h('p', { class: 'muted' }, t('apps:mine.none')),
        created,
        h(
          'form',
          { id: 'register-app', onsubmit: register },
          h('label', null, t('apps:mine.name'), name),
          h('label', null, t('apps:mine.redirects'), uris),
          h('label', { class: 'check' }, confidential, t('apps:mine.confidential')),
          h('button', { type: 'submit', class: 'primary' }, t('apps:mine.register')),
        ),
      ),
    );
  mount(main, h('section', { class: 'panel' }, h('h1', null, t('apps:authorized.title')), h('p', { class: 'muted' }, t('common:loading'))));
  void load();
  return () => {
    alive = false;
  };
}
