/**
 * Reports and moderation (docs/social.md "Reports and moderation"): the
 * report form any player opens on a profile or on a chat message
 * (`POST /v1/reports`), and the moderators' queue (#/moderation): the open
 * reports, oldest first, each with what a moderator does about it: mute the
 * user until a time, ban the account, remove the reported message, resolve
 * the report.
 *
 * Whether the signed-in player is a moderator: the service names no role on
 * `me`, so the client asks GraphQL for one open report (`reports(first: 1)`,
 * FORBIDDEN in the answer's errors to anyone else, with HTTP 200: no failed
 * request in the console) once per signed-in user, and shows the nav link
 * only to those it answers.
 */
import { ScopaError } from '@scopa/sdk';
import type { Report, ReportInput } from '@scopa/sdk';
import { client, currentSession, freshToken } from './api';
import { h, mount } from './dom';
import { attempt, playerLink } from './widgets';

type Cleanup = (() => void) | void;

let moderatorOf: string | null = null;
let moderator = false;
let asking: Promise<boolean> | null = null;

/** Whether the signed-in player is a moderator, as last learnt (false until known). */
export function isModerator(): boolean {
  return moderator && moderatorOf === currentSession()?.username;
}

/** Learns whether the signed-in player is a moderator (once per session's user). */
export function checkModerator(): Promise<boolean> {
  const who = currentSession()?.username ?? null;
  if (!who) return Promise.resolve(false);
  if (moderatorOf === who) return Promise.resolve(moderator);
  asking ??= (async () => {
    const token = await freshToken();
    const response = await fetch(`${location.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: '{ reports(first: 1) { nextCursor } }' }),
    });
    const body = (await response.json()) as { data?: { reports?: unknown } | null };
    return !!body.data?.reports;
  })()
    .then((yes) => {
      moderatorOf = who;
      moderator = yes;
      return yes;
    })
    .catch(() => false)
    .finally(() => (asking = null));
  return asking;
}

/**
 * A small form, over the page, to report a user, a chat message or a match
 * with a reason. It says when the report went through, or why not.
 */
export function reportDialog(target: ReportInput['target'], what: string, quoted?: { author: string; text: string }): void {
  const reason = h('textarea', { id: 'report-reason', rows: 3, maxlength: 1000, required: true, placeholder: 'What happened?' });
  const note = h('p', { class: 'report-note', role: 'status' });
  const close = () => overlay.remove();
  const submit = async (ev: Event) => {
    ev.preventDefault();
    if (!reason.value.trim()) return;
    try {
      // The service keeps a message report by the message's id alone: the author and the words go with the reason, for the moderator.
      const context = quoted ? ` [message by ${quoted.author}: ${quoted.text}]` : '';
      await client.report({ target, reason: (reason.value.trim().slice(0, 1000 - Math.min(context.length, 600)) + context.slice(0, 600)).slice(0, 1000) });
      mount(
        dialog,
        h('p', { id: 'report-sent' }, 'Thank you: the moderators will look at it.'),
        h('button', { class: 'primary', id: 'report-close', onclick: close }, 'Close'),
      );
    } catch (err) {
      note.textContent = err instanceof ScopaError ? `${err.code}: ${err.message}` : String(err);
    }
  };
  const dialog = h(
    'form',
    { class: 'panel report-dialog', id: 'report-dialog', role: 'dialog', 'aria-label': `Report ${what}`, onsubmit: (ev: Event) => void submit(ev) },
    h('h2', null, `Report ${what}`),
    h('label', null, 'Reason', reason),
    note,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', id: 'report-submit' }, 'Send the report'),
      ' ',
      h('button', { type: 'button', onclick: close }, 'Cancel'),
    ),
  );
  const overlay = h('div', { class: 'overlay', onclick: (ev: Event) => ev.target === overlay && close() }, dialog);
  document.getElementById('report-dialog')?.parentElement?.remove();
  document.body.append(overlay);
  reason.focus();
}

function targetOf(r: Report): HTMLElement {
  const t = r.target;
  if (t.kind === 'user' && t.username) return h('span', null, 'user ', playerLink(t.username));
  if (t.kind === 'match' && t.matchId) return h('span', null, 'match ', h('a', { href: `#/match/${t.matchId}` }, t.matchId.slice(0, 8)));
  return h('span', null, 'message ', h('span', { class: 'mono' }, t.messageId ?? '?'), t.username ? [' by ', playerLink(t.username)] : null);
}

/** The moderators' queue (#/moderation). */
export function moderationScreen(main: HTMLElement): Cleanup {
  let alive = true;
  const list = h('div', { id: 'reports' }, h('p', { class: 'muted' }, 'Loading…'));
  const done = h('p', { id: 'moderation-done', role: 'status', class: 'muted' });

  const act = async (what: string, action: () => Promise<unknown>) => {
    const ok = await attempt(action);
    if (ok !== undefined) {
      done.textContent = what;
      void load();
    }
  };

  const row = (r: Report) => {
    // A message's report names its author in the reason the chat panel sent (see reportDialog).
    const who = r.target.username ?? /\[message by ([a-z0-9_.-]+): /i.exec(r.reason)?.[1] ?? null;
    const until = h('input', { type: 'datetime-local', class: 'mute-until', 'aria-label': 'muted until' });
    until.value = toLocalInput(new Date(Date.now() + 24 * 3600_000));
    const why = h('input', { class: 'mod-reason', placeholder: 'reason (default: the report’s)', 'aria-label': 'reason' });
    return h(
      'li',
      { class: 'report', 'data-report': r.id, 'data-kind': r.target.kind },
      h(
        'div',
        null,
        h('strong', null, r.reporter),
        ' reported ',
        targetOf(r),
        !r.target.username && who ? [' by ', playerLink(who)] : null,
        h('span', { class: 'muted small' }, ` · ${new Date(r.createdAt).toLocaleString()}`),
      ),
      h('blockquote', { class: 'report-reason' }, r.reason),
      h(
        'div',
        { class: 'report-actions' },
        why,
        who
          ? [
              h('label', { class: 'inline' }, 'until ', until),
              h(
                'button',
                { class: 'mute', onclick: () => act(`${who} muted`, () => client.muteUser(who, new Date(until.value).toISOString(), why.value || r.reason)) },
                'Mute',
              ),
              h(
                'button',
                { class: 'ban danger', onclick: () => confirm(`Ban ${who}?`) && act(`${who} banned`, () => client.banUser(who, why.value || r.reason)) },
                'Ban',
              ),
            ]
          : null,
        r.target.messageId
          ? h(
              'button',
              { class: 'remove-message', onclick: () => act('message removed', () => client.removeChatMessage(r.target.messageId!, why.value || r.reason)) },
              'Remove the message',
            )
          : null,
        h('button', { class: 'resolve', onclick: () => act('report resolved', () => client.resolveReport(r.id, why.value || 'done')) }, 'Resolve'),
      ),
    );
  };

  const load = async () => {
    try {
      const page = await client.reports({ status: 'open', first: 100 });
      if (!alive) return;
      mount(list, page.items.length ? h('ul', { class: 'reports' }, page.items.map(row)) : h('p', { class: 'muted', id: 'no-reports' }, 'No open report.'));
    } catch (err) {
      if (!alive) return;
      mount(list, h('p', { id: 'not-moderator' }, err instanceof ScopaError && err.code === 'FORBIDDEN' ? 'Only moderators see the reports.' : String(err)));
    }
  };

  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'moderation' },
      h('h1', null, 'Reports'),
      h('p', null, h('button', { id: 'reports-refresh', onclick: () => void load() }, 'Refresh')),
      done,
      list,
    ),
  );
  void load();
  return () => {
    alive = false;
  };
}

function toLocalInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
