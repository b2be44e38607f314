/**
 * Third-party apps (OAuth): the consent page an authorization request lands
 * on, and "Apps": the apps I authorized (revoke access) and the apps I
 * registered.
 */
import type { AuthorizedApp, OAuthApp } from '@scopa/sdk';
import { client } from './api';
import { h, mount } from './dom';
import { attempt } from './widgets';

type Cleanup = (() => void) | void;

/**
 * The consent page: which app, for which account, which scopes; approve or
 * deny. The request is bound to this browser (a cookie the authorization
 * endpoint set) and answered with my session; the answer sends the browser
 * back through the authorization endpoint to the app.
 */
export function consentScreen(main: HTMLElement, uid: string): Cleanup {
  mount(main, h('section', { class: 'panel consent' }, h('h1', null, 'Authorize an app'), h('p', { class: 'muted' }, 'Loading…')));
  void attempt(async () => {
    const req = await client.consentRequest(uid);
    const decide = async (approve: boolean, button: HTMLButtonElement) => {
      for (const b of main.querySelectorAll<HTMLButtonElement>('.consent button')) b.disabled = true;
      button.textContent = approve ? 'Approving…' : 'Denying…';
      const outcome = await attempt(() => client.answerConsent(uid, approve));
      if (outcome) location.assign(outcome.redirectTo);
      else for (const b of main.querySelectorAll<HTMLButtonElement>('.consent button')) b.disabled = false;
    };
    const approve = h('button', { id: 'consent-approve', class: 'primary' }, 'Approve');
    const deny = h('button', { id: 'consent-deny' }, 'Deny');
    approve.addEventListener('click', () => void decide(true, approve));
    deny.addEventListener('click', () => void decide(false, deny));
    mount(
      main,
      h(
        'section',
        { class: 'panel consent' },
        h('h1', null, 'Authorize an app'),
        h('p', null, h('strong', { id: 'consent-app' }, req.app.name), ' wants to act for your account ', h('strong', null, req.username), '.'),
        req.scopes.length
          ? [
              h('p', null, 'It asks to:'),
              h(
                'ul',
                { id: 'consent-scopes' },
                req.scopes.map((s) => h('li', { 'data-scope': s.scope }, s.description, ' ', h('code', { class: 'muted small' }, s.scope))),
              ),
            ]
          : h('p', { id: 'consent-scopes', class: 'muted' }, 'It asks for no access beyond knowing it is you.'),
        h('p', null, 'You will be sent back to ', h('strong', { id: 'consent-redirect-host', class: 'mono' }, req.redirectHost), '.'),
        h(
          'p',
          { class: 'muted small' },
          'Full address: ',
          h('span', { class: 'mono' }, req.redirectUri),
          '. You can revoke its access at any time under Apps.',
        ),
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
  const uris = h('textarea', { id: 'app-redirects', rows: 2, placeholder: 'http://127.0.0.1/callback (one a line)' });
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
        `Registered ${app.name}. client_id: `,
        h('code', { class: 'mono' }, app.id),
        clientSecret ? [' client_secret (shown once): ', h('code', { class: 'mono' }, clientSecret)] : null,
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
        h('h1', null, 'Authorized apps'),
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
                  ['App', 'May', 'Since', ''].map((t) => h('th', null, t)),
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
                    h('td', null, g.scopes.map((s) => s.replace('_', ':')).join(', ') || '—'),
                    h('td', null, new Date(g.createdAt).toLocaleString()),
                    h('td', null, h('button', { class: 'revoke-app', onclick: () => void revoke(g) }, 'Revoke access')),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted', id: 'authorized-apps' }, 'No app may act for you.'),
      ),
      h(
        'section',
        { class: 'panel' },
        h('h1', null, 'My apps'),
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
                  a.confidential ? ' (confidential)' : ' (public)',
                  ' ',
                  a.redirectUris.join(' '),
                  ' ',
                  h('button', { class: 'link', onclick: () => void remove(a) }, 'Delete'),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'You have registered no app.'),
        created,
        h(
          'form',
          { id: 'register-app', onsubmit: register },
          h('label', null, 'Name', name),
          h('label', null, 'Redirect URIs', uris),
          h('label', { class: 'check' }, confidential, 'Confidential (a server that keeps a secret)'),
          h('button', { type: 'submit', class: 'primary' }, 'Register app'),
        ),
      ),
    );
  mount(main, h('section', { class: 'panel' }, h('h1', null, 'Authorized apps'), h('p', { class: 'muted' }, 'Loading…')));
  void load();
  return () => {
    alive = false;
  };
}
