/**
 * Teams (docs/social.md "Teams"): #/teams, a search by name and a form to
 * create one (name, description, open or by request); #/teams/<id>, a team's
 * page: its description, its members with their ratings, Join / Leave (or
 * "request pending"), for its leaders the queue of requests (accept,
 * decline), kick and appoint leader on each member, and the team's chat room
 * (its members').
 */
import type { Team, TeamMember, TeamRequest } from '@scopa/sdk';
import { client, currentSession } from './api';
import { chatPanel } from './chat';
import type { ChatPanel } from './chat';
import { h, mount } from './dom';
import { formatDate, formatList, formatNumber, t } from './i18n';
import { attempt, playerLink } from './widgets';

type Cleanup = (() => void) | void;

export function teamsScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const q = h('input', { id: 'team-search', type: 'search', placeholder: t('teams:searchPlaceholder'), 'aria-label': t('teams:searchLabel') });
  const results = h('div', { id: 'team-list' }, h('p', { class: 'muted' }, t('common:loading')));
  const name = h('input', { id: 'team-name', required: true, minlength: 3, maxlength: 40, placeholder: t('teams:namePlaceholder') });
  const description = h('textarea', { id: 'team-description', rows: 2, maxlength: 500, placeholder: t('teams:descriptionPlaceholder') });
  const open = h('input', { id: 'team-open', type: 'checkbox', checked: true });

  const search = async () => {
    const page = await attempt(() => client.teams({ q: q.value.trim() || undefined, first: 50 }));
    if (!alive || !page) return;
    mount(
      results,
      page.items.length
        ? h(
            'ul',
            { class: 'teams' },
            page.items.map((team) =>
              h(
                'li',
                { 'data-team': team.id },
                h('a', { href: `#/teams/${team.id}`, class: 'team-link' }, team.name),
                h('span', { class: 'muted small' }, ' · ', members(team.memberCount), ' · ', team.open ? t('teams:open') : t('teams:byRequest')),
                team.myRole ? h('span', { class: 'badge' }, t(`teams:role.${team.myRole}`)) : null,
              ),
            ),
          )
        : h('p', { class: 'muted', id: 'no-teams' }, q.value.trim() ? t('teams:noTeamFound') : t('teams:noTeamYet')),
    );
  };

  const create = async (ev: Event) => {
    ev.preventDefault();
    const team = await attempt(() => client.createTeam({ name: name.value.trim(), description: description.value.trim(), open: open.checked }));
    if (team) go(`#/teams/${team.id}`);
  };

  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'teams' },
      h('h1', null, t('teams:title')),
      h(
        'form',
        { class: 'row search', onsubmit: (ev: Event) => (ev.preventDefault(), void search()) },
        q,
        h('button', { type: 'submit', id: 'team-search-submit' }, t('teams:search')),
      ),
      results,
      h('h2', null, t('teams:newTeam')),
      h(
        'form',
        { id: 'team-form', onsubmit: create },
        h('label', null, t('teams:name'), name),
        h('label', null, t('teams:description'), description),
        h('label', { class: 'check' }, open, t('teams:openLabel')),
        h('button', { type: 'submit', class: 'primary', id: 'team-create' }, t('teams:create')),
      ),
    ),
  );
  void search();
  return () => {
    alive = false;
  };
}

/** "3 members", in the language's words and digits. */
const members = (n: number): string => t('teams:members', { count: n, n: formatNumber(n) });

/** A member's ratings in the (at most three) pools they played most: "scopa 1523, scopone 1490?" ("?": provisional). */
const bestRating = (m: TeamMember): string => {
  if (!m.ratings.length) return t('teams:unrated');
  return formatList(
    m.ratings
      .slice()
      .sort((a, b) => b.games - a.games)
      .slice(0, 3)
      .map((r) => `${r.ruleset} ${formatNumber(r.rating, { maximumFractionDigits: 0, useGrouping: false })}${r.provisional ? '?' : ''}`),
  );
};

export function teamScreen(main: HTMLElement, id: string): Cleanup {
  let alive = true;
  const me = currentSession()?.username ?? null;
  let chat: ChatPanel | null = null;
  const chatBox = h('div', { id: 'team-chat-box', class: 'panel chat-panel' });
  // The page is drawn again on every refresh; the chat under it stays (its input keeps the focus).
  const content = h('div', null, h('section', { class: 'panel' }, h('p', { class: 'muted' }, t('teams:loading'))));

  const act = async (action: () => Promise<unknown>) => {
    if ((await attempt(action)) !== undefined) void load();
  };

  const load = async () => {
    const team = await attempt(() => client.team(id));
    if (!alive || !team) return;
    const leader = team.myRole === 'leader';
    const [members, requests] = await Promise.all([
      attempt(() => client.teamMembers(id, { first: 100 })),
      leader ? attempt(() => client.teamRequests(id, { first: 100 })) : Promise.resolve(undefined),
    ]);
    if (!alive) return;
    render(team, members?.items ?? [], requests?.items ?? []);
  };

  const render = (team: Team, memberList: TeamMember[], requests: TeamRequest[]) => {
    const leader = team.myRole === 'leader';
    const member = team.myRole !== null;
    if (member && !chat) {
      chat = chatPanel({ kind: 'team', id }, { id: 'team-chat', title: t('teams:chat') });
      mount(chatBox, chat.el);
    } else if (!member && chat) {
      chat.close();
      chat = null;
      mount(chatBox, h('p', { class: 'muted', id: 'team-chat-members-only' }, t('teams:chatMembersOnly')));
    } else if (!member) mount(chatBox, h('p', { class: 'muted', id: 'team-chat-members-only' }, t('teams:chatMembersOnly')));
    mount(
      content,
      h(
        'section',
        { class: 'panel', id: 'team', 'data-team': team.id, 'data-role': team.myRole ?? 'none' },
        h('h1', null, team.name, team.myRole ? h('span', { class: 'badge', id: 'my-team-role' }, t(`teams:role.${team.myRole}`)) : null),
        h('p', { class: 'team-description' }, team.description || h('span', { class: 'muted' }, t('teams:noDescription'))),
        h(
          'p',
          { class: 'muted' },
          members(team.memberCount),
          ' · ',
          team.open ? t('teams:openAnyone') : t('teams:byRequest'),
          ' · ',
          t('teams:createdBy'),
          ' ',
          playerLink(team.createdBy),
          ' · ',
          formatDate(team.createdAt, { dateStyle: 'medium' }),
        ),
        h(
          'div',
          { class: 'actions' },
          !member && !team.requestPending
            ? h(
                'button',
                { class: 'primary', id: 'team-join', onclick: () => act(() => client.joinTeam(id)) },
                team.open ? t('teams:join') : t('teams:askToJoin'),
              )
            : null,
          team.requestPending
            ? [
                h('span', { id: 'team-request-pending' }, t('teams:requestPending'), ' '),
                h('button', { id: 'team-withdraw', onclick: () => act(() => client.leaveTeam(id)) }, t('teams:withdraw')),
              ]
            : null,
          member
            ? h(
                'button',
                { id: 'team-leave', onclick: () => confirm(t('teams:leaveConfirm', { team: team.name })) && act(() => client.leaveTeam(id)) },
                t('teams:leave'),
              )
            : null,
        ),
        leader
          ? [
              h('h2', null, t('teams:requests')),
              requests.length
                ? h(
                    'ul',
                    { id: 'team-requests' },
                    requests.map((r) =>
                      h(
                        'li',
                        { 'data-player': r.username },
                        playerLink(r.username),
                        h('span', { class: 'muted small' }, ' ', t('teams:askedAt', { time: formatDate(r.requestedAt) }), ' '),
                        h('button', { class: 'primary accept', onclick: () => act(() => client.acceptTeamRequest(id, r.username)) }, t('teams:accept')),
                        ' ',
                        h('button', { class: 'decline', onclick: () => act(() => client.declineTeamRequest(id, r.username)) }, t('teams:decline')),
                      ),
                    ),
                  )
                : h('p', { class: 'muted', id: 'no-team-requests' }, t('teams:noRequests')),
            ]
          : null,
        h('h2', null, t('teams:membersTitle')),
        h(
          'table',
          { class: 'data', id: 'team-members' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              [t('teams:col.player'), t('teams:col.role'), t('teams:col.ratings'), t('teams:col.since'), ''].map((c) => h('th', { scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            null,
            memberList.map((m) =>
              h(
                'tr',
                { 'data-player': m.username, 'data-role': m.role },
                h('th', { scope: 'row' }, playerLink(m.username), m.username === me ? ` ${t('teams:you')}` : ''),
                h('td', null, t(`teams:role.${m.role}`)),
                h('td', { class: 'ratings' }, bestRating(m)),
                h('td', null, formatDate(m.joinedAt, { dateStyle: 'medium' })),
                h(
                  'td',
                  null,
                  leader && m.username !== me
                    ? [
                        m.role !== 'leader'
                          ? h('button', { class: 'link appoint', onclick: () => act(() => client.appointTeamLeader(id, m.username)) }, t('teams:makeLeader'))
                          : null,
                        h(
                          'button',
                          {
                            class: 'link danger kick',
                            onclick: () => confirm(t('teams:kickConfirm', { username: m.username })) && act(() => client.kickTeamMember(id, m.username)),
                          },
                          t('teams:kick'),
                        ),
                      ]
                    : null,
                ),
              ),
            ),
          ),
        ),
      ),
    );
  };

  mount(main, content, chatBox);
  void load();
  const timer = setInterval(() => void load(), 5000);
  return () => {
    alive = false;
    clearInterval(timer);
    chat?.close();
  };
}
