/**
 * Reports and moderation (docs/social.md "Reports and moderation"): the
 * report form any player opens on a profile or on a chat message
 * (`POST /v1/reports`), and the moderators' queue (#/moderation): the open
 * reports, oldest first, each with what a moderator does about it: mute the
 * user until a time, ban the account, remove the reported message, resolve
 * the report; and a form that lifts a ban by username.
 *
 * Whether the signed-in player is a moderator: the `roles` of `me`
 * (GET /v1/me: ["moderator"] for a moderator), asked once per signed-in
 * user; the nav link shows only to those it names.
 */
import { ScopaError } from '@scopa/sdk';
import type { Report, ReportInput } from '@scopa/sdk';
import { client, currentSession } from './api';
import { h, mount } from './dom';
import { formatDate, t } from './i18n';
import { attempt, playerLink } from './widgets';

type Cleanup = (() => void) | void;

let moderatorOf: string | null = null;
let moderator = false;
let asking: Promise<boolean> | null = null;

/** Whether the signed-in player is a moderator, as last learnt (false until known). */
export function isModerator(): boolean {
  return moderator && moderatorOf === currentSession()?.username;
}

/** Learns whether the signed-in player is a moderator (once per session's user): `me`'s roles. */
export function checkModerator(): Promise<boolean> {
  const who = currentSession()?.username ?? null;
  if (!who) return Promise.resolve(false);
  if (moderatorOf === who) return Promise.resolve(moderator);
  asking ??= client
    .me()
    .then((me) => {
      moderatorOf = who;
      moderator = me.roles.includes('moderator');
      return moderator;
    })
    .catch(() => false)
    .finally(() => (asking = null));
  return asking;
}

/** A failure in the player's words: the message of its code (errors namespace). */
function failure(err: unknown): string {
  return t(`errors:${err instanceof ScopaError ? err.code : 'CLIENT'}`);
}

/**
 * A small form, over the page, to report a user, a chat message or a match
 * with a reason. It says when the report went through, or why not. `what`
 * names the target in the player's words (the title: "Report <what>"). The
 * service keeps a message's author and text as they are at report time.
 */
export function reportDialog(target: ReportInput['target'], what: string): void {
  const reason = h('textarea', { id: 'report-reason', rows: 3, maxlength: 1000, required: true, placeholder: t('moderation:report.placeholder') });
  const note = h('p', { class: 'report-note', role: 'status' });
  const close = () => overlay.remove();
  const submit = async (ev: Event) => {
    ev.preventDefault();
    if (!reason.value.trim()) return;
    try {
      await client.report({ target, reason: reason.value.trim() });
      mount(
        dialog,
        h('p', { id: 'report-sent' }, t('moderation:report.sent')),
        h('button', { class: 'primary', id: 'report-close', onclick: close }, t('moderation:report.close')),
      );
    } catch (err) {
      note.textContent = failure(err);
    }
  };
  const title = t('moderation:report.title', { what });
  const dialog = h(
    'form',
    { class: 'panel report-dialog', id: 'report-dialog', role: 'dialog', 'aria-label': title, onsubmit: (ev: Event) => void submit(ev) },
    h('h2', null, title),
    h('label', null, t('moderation:report.reason'), reason),
    note,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', id: 'report-submit' }, t('moderation:report.send')),
      ' ',
      h('button', { type: 'button', onclick: close }, t('moderation:report.cancel')),
    ),
  );
  const overlay = h('div', { class: 'overlay', onclick: (ev: Event) => ev.target === overlay && close() }, dialog);
  document.getElementById('report-dialog')?.parentElement?.remove();
  document.body.append(overlay);
  reason.focus();
}

/** What a report is about, in words: the user, the match, or the message with its author and (as reported) its text. */
function targetOf(r: Report): HTMLElement {
  const target = r.target;
  if (target.kind === 'user' && target.username) return h('span', null, t('moderation:queue.targetUser'), ' ', playerLink(target.username));
  if (target.kind === 'match' && target.matchId)
    return h('span', null, t('moderation:queue.targetMatch'), ' ', h('a', { href: `#/match/${target.matchId}` }, target.matchId.slice(0, 8)));
  return h(
    'span',
    null,
    t('moderation:queue.targetMessage'),
    ' ',
    h('span', { class: 'mono' }, target.messageId ?? '?'),
    target.username ? [' ', t('moderation:queue.by'), ' ', playerLink(target.username)] : null,
  );
}

/** The moderators' queue (#/moderation). */
export function moderationScreen(main: HTMLElement): Cleanup {
  let alive = true;
  const list = h('div', { id: 'reports' }, h('p', { class: 'muted' }, t('common:loading')));
  const done = h('p', { id: 'moderation-done', role: 'status', class: 'muted' });

  const act = async (what: string, action: () => Promise<unknown>) => {
    const ok = await attempt(action);
    if (ok !== undefined) {
      done.textContent = what;
      void load();
    }
  };

  const row = (r: Report) => {
    // The user reported, or the reported message's author (kept by the service at report time).
    const who = r.target.username;
    const until = h('input', { type: 'datetime-local', class: 'mute-until', 'aria-label': t('moderation:queue.mutedUntil') });
    until.value = toLocalInput(new Date(Date.now() + 24 * 3600_000));
    const why = h('input', { class: 'mod-reason', placeholder: t('moderation:queue.reasonPlaceholder'), 'aria-label': t('moderation:queue.reason') });
    return h(
      'li',
      { class: 'report', 'data-report': r.id, 'data-kind': r.target.kind },
      h(
        'div',
        null,
        h('strong', null, r.reporter),
        ' ',
        t('moderation:queue.reported'),
        ' ',
        targetOf(r),
        h('span', { class: 'muted small' }, ' · ', formatDate(r.createdAt)),
      ),
      r.target.kind === 'message'
        ? r.target.text !== null
          ? h('blockquote', { class: 'reported-message' }, h('span', { class: 'muted small' }, t('moderation:queue.messageSaid'), ' '), r.target.text)
          : h('p', { class: 'muted small reported-message' }, t('moderation:queue.messageUnknown'))
        : null,
      h('p', { class: 'muted small' }, t('moderation:queue.why')),
      h('blockquote', { class: 'report-reason' }, r.reason),
      h(
        'div',
        { class: 'report-actions' },
        why,
        who
          ? [
              h('label', { class: 'inline' }, t('moderation:queue.until'), ' ', until),
              h(
                'button',
                {
                  class: 'mute',
                  onclick: () =>
                    act(t('moderation:done.muted', { username: who }), () => client.muteUser(who, new Date(until.value).toISOString(), why.value || r.reason)),
                },
                t('moderation:queue.mute'),
              ),
              h(
                'button',
                {
                  class: 'ban danger',
                  onclick: () =>
                    confirm(t('moderation:queue.banConfirm', { username: who })) &&
                    act(t('moderation:done.banned', { username: who }), () => client.banUser(who, why.value || r.reason)),
                },
                t('moderation:queue.ban'),
              ),
            ]
          : null,
        r.target.messageId
          ? h(
              'button',
              {
                class: 'remove-message',
                onclick: () => act(t('moderation:done.messageRemoved'), () => client.removeChatMessage(r.target.messageId!, why.value || r.reason)),
              },
              t('moderation:queue.removeMessage'),
            )
          : null,
        h(
          'button',
          {
            class: 'resolve',
            onclick: () => act(t('moderation:done.resolved'), () => client.resolveReport(r.id, why.value || t('moderation:queue.resolvedNote'))),
          },
          t('moderation:queue.resolve'),
        ),
      ),
    );
  };

  const load = async () => {
    try {
      const page = await client.reports({ status: 'open', first: 100 });
      if (!alive) return;
      mount(
        list,
        page.items.length ? h('ul', { class: 'reports' }, page.items.map(row)) : h('p', { class: 'muted', id: 'no-reports' }, t('moderation:queue.empty')),
      );
    } catch (err) {
      if (!alive) return;
      mount(list, h('p', { id: 'not-moderator' }, err instanceof ScopaError && err.code === 'FORBIDDEN' ? t('moderation:queue.moderatorsOnly') : failure(err)));
    }
  };

  // A ban is lifted by name: a banned account's reports may all be resolved by then.
  const unbanName = h('input', { id: 'unban-username', name: 'username', required: true, maxlength: 32, autocomplete: 'off' });
  const unbanReason = h('input', { id: 'unban-reason', name: 'reason', maxlength: 500, autocomplete: 'off' });
  const unban = (ev: Event) => {
    ev.preventDefault();
    const who = unbanName.value.trim().toLowerCase();
    if (!who) return;
    void act(t('moderation:done.unbanned', { username: who }), () => client.unbanUser(who, unbanReason.value.trim() || undefined).then(() => true));
  };

  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'moderation' },
      h('h1', null, t('moderation:queue.title')),
      h('p', null, h('button', { id: 'reports-refresh', onclick: () => void load() }, t('moderation:queue.refresh'))),
      done,
      list,
      h('h2', null, t('moderation:unban.title')),
      h(
        'form',
        { id: 'unban-form', onsubmit: unban },
        h('div', { class: 'field' }, h('label', { for: 'unban-username' }, t('moderation:unban.username')), unbanName),
        h('div', { class: 'field' }, h('label', { for: 'unban-reason' }, t('moderation:unban.reason')), unbanReason),
        h('button', { type: 'submit', id: 'unban-submit' }, t('moderation:unban.submit')),
      ),
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
