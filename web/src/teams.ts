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
import { attempt, playerLink } from './widgets';

type Cleanup = (() => void) | void;

export function teamsScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const q = h('input', { id: 'team-search', type: 'search', placeholder: 'team name', 'aria-label': 'search teams' });
  const results = h('div', { id: 'team-list' }, h('p', { class: 'muted' }, 'Loading…'));
  const name = h('input', { id: 'team-name', required: true, minlength: 3, maxlength: 40, placeholder: 'name' });
  const description = h('textarea', { id: 'team-description', rows: 2, maxlength: 500, placeholder: 'what the team is about' });
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
            page.items.map((t) =>
              h(
                'li',
                { 'data-team': t.id },
                h('a', { href: `#/teams/${t.id}`, class: 'team-link' }, t.name),
                h('span', { class: 'muted small' }, ` · ${t.memberCount} member${t.memberCount === 1 ? '' : 's'} · ${t.open ? 'open' : 'by request'}`),
                t.myRole ? h('span', { class: 'badge' }, t.myRole) : null,
              ),
            ),
          )
        : h('p', { class: 'muted', id: 'no-teams' }, 'No team found.'),
    );
  };

  const create = async (ev: Event) => {
    ev.preventDefault();
    const t = await attempt(() => client.createTeam({ name: name.value.trim(), description: description.value.trim(), open: open.checked }));
    if (t) go(`#/teams/${t.id}`);
  };

  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'teams' },
      h('h1', null, 'Teams'),
      h(
        'form',
        { class: 'row search', onsubmit: (ev: Event) => (ev.preventDefault(), void search()) },
        q,
        h('button', { type: 'submit', id: 'team-search-submit' }, 'Search'),
      ),
      results,
      h('h2', null, 'New team'),
      h(
        'form',
        { id: 'team-form', onsubmit: create },
        h('label', null, 'Name', name),
        h('label', null, 'Description', description),
        h('label', { class: 'check' }, open, 'Open: anyone joins at once (otherwise by request, which a leader accepts)'),
        h('button', { type: 'submit', class: 'primary', id: 'team-create' }, 'Create the team'),
      ),
    ),
  );
  void search();
  return () => {
    alive = false;
  };
}

const bestRating = (m: TeamMember): string => {
  if (!m.ratings.length) return 'unrated';
  return m.ratings
    .slice()
    .sort((a, b) => b.games - a.games)
    .slice(0, 3)
    .map((r) => `${r.ruleset} ${Math.round(r.rating)}${r.provisional ? '?' : ''}`)
    .join(', ');
};

export function teamScreen(main: HTMLElement, id: string): Cleanup {
  let alive = true;
  const me = currentSession()?.username ?? null;
  let chat: ChatPanel | null = null;
  const chatBox = h('div', { id: 'team-chat-box', class: 'panel chat-panel' });
  // The page is drawn again on every refresh; the chat under it stays (its input keeps the focus).
  const content = h('div', null, h('section', { class: 'panel' }, h('p', { class: 'muted' }, 'Loading the team…')));

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

  const render = (t: Team, members: TeamMember[], requests: TeamRequest[]) => {
    const leader = t.myRole === 'leader';
    const member = t.myRole !== null;
    if (member && !chat) {
      chat = chatPanel({ kind: 'team', id }, { id: 'team-chat', title: 'Team chat' });
      mount(chatBox, chat.el);
    } else if (!member && chat) {
      chat.close();
      chat = null;
      mount(chatBox, h('p', { class: 'muted' }, "The team's chat is for its members."));
    } else if (!member) mount(chatBox, h('p', { class: 'muted', id: 'team-chat-members-only' }, "The team's chat is for its members."));
    mount(
      content,
      h(
        'section',
        { class: 'panel', id: 'team', 'data-team': t.id, 'data-role': t.myRole ?? 'none' },
        h('h1', null, t.name, t.myRole ? h('span', { class: 'badge', id: 'my-team-role' }, t.myRole) : null),
        h('p', { class: 'team-description' }, t.description || h('span', { class: 'muted' }, 'No description.')),
        h(
          'p',
          { class: 'muted' },
          `${t.memberCount} member${t.memberCount === 1 ? '' : 's'} · ${t.open ? 'open: anyone joins' : 'by request'} · created by `,
          playerLink(t.createdBy),
          ` on ${new Date(t.createdAt).toLocaleDateString()}`,
        ),
        h(
          'div',
          { class: 'actions' },
          !member && !t.requestPending
            ? h('button', { class: 'primary', id: 'team-join', onclick: () => act(() => client.joinTeam(id)) }, t.open ? 'Join' : 'Ask to join')
            : null,
          t.requestPending
            ? [
                h('span', { id: 'team-request-pending' }, 'Your request is pending. '),
                h('button', { id: 'team-withdraw', onclick: () => act(() => client.leaveTeam(id)) }, 'Withdraw it'),
              ]
            : null,
          member ? h('button', { id: 'team-leave', onclick: () => confirm(`Leave ${t.name}?`) && act(() => client.leaveTeam(id)) }, 'Leave') : null,
        ),
        leader
          ? [
              h('h2', null, 'Requests to join'),
              requests.length
                ? h(
                    'ul',
                    { id: 'team-requests' },
                    requests.map((r) =>
                      h(
                        'li',
                        { 'data-player': r.username },
                        playerLink(r.username),
                        h('span', { class: 'muted small' }, ` asked ${new Date(r.requestedAt).toLocaleString()} `),
                        h('button', { class: 'primary accept', onclick: () => act(() => client.acceptTeamRequest(id, r.username)) }, 'Accept'),
                        ' ',
                        h('button', { class: 'decline', onclick: () => act(() => client.declineTeamRequest(id, r.username)) }, 'Decline'),
                      ),
                    ),
                  )
                : h('p', { class: 'muted', id: 'no-team-requests' }, 'No pending request.'),
            ]
          : null,
        h('h2', null, 'Members'),
        h(
          'table',
          { class: 'data', id: 'team-members' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Player', 'Role', 'Ratings', 'Since', ''].map((c) => h('th', { scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            null,
            members.map((m) =>
              h(
                'tr',
                { 'data-player': m.username, 'data-role': m.role },
                h('th', { scope: 'row' }, playerLink(m.username), m.username === me ? ' (you)' : ''),
                h('td', null, m.role),
                h('td', { class: 'ratings' }, bestRating(m)),
                h('td', null, new Date(m.joinedAt).toLocaleDateString()),
                h(
                  'td',
                  null,
                  leader && m.username !== me
                    ? [
                        m.role !== 'leader'
                          ? h('button', { class: 'link appoint', onclick: () => act(() => client.appointTeamLeader(id, m.username)) }, 'Make leader')
                          : null,
                        h(
                          'button',
                          {
                            class: 'link danger kick',
                            onclick: () => confirm(`Remove ${m.username} from the team?`) && act(() => client.kickTeamMember(id, m.username)),
                          },
                          'Kick',
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
