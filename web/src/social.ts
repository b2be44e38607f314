/**
 * The social parts of a profile and of the home page (docs/social.md
 * "Follows and blocks"): Follow / Unfollow, Block / Unblock, Message and
 * Report on another player's profile; the player's followers and following
 * lists (who is online now); on my own profile who may send me direct
 * messages and whom I block; "friends online" (the players I follow who are
 * online) on the home page; and the direct conversation with a player
 * (#/messages/<username>).
 */
import type { FollowPage, MessageSettings } from '@scopa/sdk';
import { client, currentSession } from './api';
import { chatPanel } from './chat';
import { h, mount } from './dom';
import { formatNumber, t } from './i18n';
import { reportDialog } from './moderation';
import { attempt, playerLink } from './widgets';

type Cleanup = (() => void) | void;

/** Every entry of a paged list (up to `max`). */
async function all<T>(page: (after?: string) => Promise<{ items: T[]; nextCursor: string | null }>, max = 500): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  do {
    const p = await page(after);
    items.push(...p.items);
    after = p.nextCursor ?? undefined;
  } while (after && items.length < max);
  return items;
}

function followList(id: string, entries: FollowPage['items'], empty: string): HTMLElement {
  return entries.length
    ? h(
        'ul',
        { class: 'follow-list', id },
        entries.map((e) =>
          h(
            'li',
            { 'data-player': e.username, class: e.online ? 'online' : '' },
            playerLink(e.username),
            e.online ? h('span', { class: 'badge online' }, t('social:online')) : null,
          ),
        ),
      )
    : h('p', { class: 'muted', id }, empty);
}

/** The social box of a profile page: actions on another player, or my settings on mine; the follow lists. */
export function profileSocial(username: string): HTMLElement {
  const me = currentSession()?.username ?? null;
  const box = h('div', { class: 'social', id: 'profile-social' }, h('p', { class: 'muted' }, t('common:loading')));
  const actions = h('div', { class: 'actions', id: 'social-actions' });
  const lists = h('div', { class: 'columns follow-lists' });
  const mine = h('div', { id: 'my-social' });
  const state = h('p', { class: 'muted small', id: 'social-state', role: 'status' });

  const loadLists = async () => {
    const both = await attempt(() =>
      Promise.all([all((after) => client.followers(username, { first: 100, after })), all((after) => client.following(username, { first: 100, after }))]),
    );
    if (!both) return;
    mount(
      lists,
      h(
        'div',
        null,
        h('h3', null, t('social:followers', { count: both[0].length, n: formatNumber(both[0].length) })),
        followList('followers', both[0], t('social:noFollowers')),
      ),
      h(
        'div',
        null,
        h('h3', null, t('social:following', { count: both[1].length, n: formatNumber(both[1].length) })),
        followList('following', both[1], t('social:followsNobody')),
      ),
    );
  };

  const renderActions = (following: boolean, blocking: boolean) => {
    state.textContent = blocking ? t('social:youBlock', { username }) : following ? t('social:youFollow', { username }) : '';
    const redo = async (call: () => Promise<{ following: boolean; blocking: boolean }>) => {
      const r = await attempt(call);
      if (!r) return;
      renderActions(r.following, r.blocking);
      void loadLists();
    };
    mount(
      actions,
      blocking
        ? null
        : following
          ? h('button', { id: 'unfollow', onclick: () => redo(() => client.unfollowUser(username)) }, t('social:unfollow'))
          : h('button', { id: 'follow', class: 'primary', onclick: () => redo(() => client.followUser(username)) }, t('social:follow')),
      blocking
        ? h('button', { id: 'unblock', onclick: () => redo(() => client.unblockUser(username)) }, t('social:unblock'))
        : h(
            'button',
            { id: 'block', class: 'danger', onclick: () => confirm(t('social:blockConfirm', { username })) && redo(() => client.blockUser(username)) },
            t('social:block'),
          ),
      blocking ? null : h('a', { href: `#/messages/${encodeURIComponent(username)}`, class: 'button', id: 'message-user' }, t('social:message')),
      h('button', { id: 'report-user', class: 'link', onclick: () => reportDialog({ username }, username) }, t('social:report')),
      state,
    );
  };

  const renderMine = async () => {
    const both = await attempt(() => Promise.all([client.messageSettings(), all((after) => client.blocks({ first: 100, after }))]));
    if (!both) return;
    const [settings, blocks] = both;
    const select = h(
      'select',
      { id: 'dm-setting', 'aria-label': t('social:dmSettingLabel') },
      (['everyone', 'followed', 'nobody'] as MessageSettings['directMessages'][]).map((value) =>
        h('option', { value, selected: settings.directMessages === value }, t(`social:dmSetting.${value}`)),
      ),
    );
    const saved = h('span', { class: 'muted small', id: 'dm-setting-saved', role: 'status' });
    select.addEventListener('change', async () => {
      const r = await attempt(() => client.setMessageSettings({ directMessages: select.value as MessageSettings['directMessages'] }));
      saved.textContent = r ? ` ${t('social:saved')}` : '';
    });
    mount(
      mine,
      h('label', { class: 'inline' }, t('social:dmSettingTitle'), ' ', select),
      saved,
      h('h3', null, t('social:myBlocks')),
      blocks.length
        ? h(
            'ul',
            { id: 'my-blocks' },
            blocks.map((b) =>
              h(
                'li',
                { 'data-player': b.username },
                playerLink(b.username),
                ' ',
                h(
                  'button',
                  { class: 'link unblock', onclick: async () => (await attempt(() => client.unblockUser(b.username))) && void renderMine() },
                  t('social:unblock'),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted', id: 'my-blocks' }, t('social:blocksNobody')),
    );
  };

  void (async () => {
    if (me && me !== username) {
      const both = await attempt(() =>
        Promise.all([all((after) => client.following(me, { first: 100, after })), all((after) => client.blocks({ first: 100, after }))]),
      );
      renderActions(!!both?.[0].some((e) => e.username === username), !!both?.[1].some((b) => b.username === username));
      mount(box, actions, lists);
    } else {
      mount(box, mine, lists);
      void renderMine();
    }
    void loadLists();
  })();
  return box;
}

/** "Friends online": the players I follow who hold a live connection now (refreshed while shown). */
export function friendsOnline(): { el: HTMLElement; close(): void } {
  const me = currentSession()!.username;
  const el = h(
    'section',
    { class: 'panel friends', id: 'friends-online' },
    h('h2', null, t('social:friendsOnline')),
    h('p', { class: 'muted' }, t('common:loading')),
  );
  let alive = true;
  const load = async () => {
    try {
      const following = await all((after) => client.following(me, { first: 100, after }));
      if (!alive) return;
      const online = following.filter((f) => f.online);
      mount(
        el,
        h('h2', null, t('social:friendsOnline')),
        online.length
          ? h(
              'ul',
              { class: 'follow-list' },
              online.map((f) =>
                h(
                  'li',
                  { 'data-player': f.username },
                  playerLink(f.username),
                  ' ',
                  h('a', { href: `#/messages/${encodeURIComponent(f.username)}`, class: 'small' }, t('social:messageLink')),
                ),
              ),
            )
          : h('p', { class: 'muted', id: 'no-friends-online' }, following.length ? t('social:noFriendOnline') : t('social:followNobody')),
      );
    } catch {
      // the follows may be missing on a server: the rest of the page works
    }
  };
  void load();
  const timer = setInterval(() => void load(), 15_000);
  return {
    el,
    close() {
      alive = false;
      clearInterval(timer);
    },
  };
}

/** A direct conversation (#/messages/<username>). */
export function messagesScreen(main: HTMLElement, username: string): Cleanup {
  const chat = chatPanel({ kind: 'direct', username }, { id: 'direct-chat', placeholder: t('social:messagePlaceholder', { username }) });
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'messages', 'data-user': username },
      h('h1', null, t('social:messagesWith'), ' ', playerLink(username)),
      h('p', { class: 'muted small' }, t('social:messagesNote')),
      chat.el,
    ),
  );
  return () => chat.close();
}
