import { ScopaError } from '@scopa/sdk';
import { h, mount } from './dom';
import { currentLanguage, formatNumber, hasText, t } from './i18n';

// ------------------------------------------------------------------ errors

let banner: HTMLElement | null = null;

export function errorBanner(): HTMLElement {
  banner = h('div', { id: 'error', class: 'error', role: 'alert', hidden: true });
  return banner;
}

/** Any failure as the SDK's ScopaError (a failure of the page itself: CLIENT). */
export function asScopaError(err: unknown): ScopaError {
  return err instanceof ScopaError ? err : new ScopaError({ code: 'CLIENT', message: err instanceof Error ? err.message : String(err), status: 0 });
}

/**
 * What a failure means, in the player's language: the message of its code
 * (`errors:<CODE>`, an unknown code `errors:UNKNOWN`), then of its reason
 * when it has one with a message (`errors:reason.<REASON>`), then when to try
 * again (a `retryAfter`).
 */
export function errorText(err: unknown): string {
  const e = asScopaError(err);
  const parts = [hasText(`errors:${e.code}`) ? t(`errors:${e.code}`) : t('errors:UNKNOWN')];
  if (e.reason && hasText(`errors:reason.${e.reason}`)) parts.push(t(`errors:reason.${e.reason}`));
  const retryAfter = e.details.retryAfter;
  if (typeof retryAfter === 'number' && retryAfter > 0) parts.push(t('errors:retryAfter', { seconds: formatNumber(Math.ceil(retryAfter)) }));
  return parts.join(' ');
}

/**
 * Shows a failure in the banner (#error, role=alert): its message in the
 * player's language first (errorText), then, small, its stable code
 * ("Code: NOT_FOUND"), which is also the banner's `data-code` (and the
 * reason `data-reason`). The service's own detail is English: it follows
 * only for VALIDATION_FAILED (it names the field at fault), only in English.
 */
export function showError(err: unknown): void {
  if (!banner) return;
  const e = asScopaError(err);
  const detail = e.code === 'VALIDATION_FAILED' && currentLanguage() === 'en' && e.message ? e.message : null;
  banner.dataset.code = e.code;
  if (e.reason) banner.dataset.reason = e.reason;
  else delete banner.dataset.reason;
  mount(
    banner,
    h('span', { class: 'error-message' }, errorText(e)),
    detail ? h('span', { class: 'error-detail', lang: 'en' }, detail) : null,
    h('small', { class: 'error-code muted' }, t('errors:code', { code: e.code })),
    h('button', { class: 'link close', 'aria-label': t('errors:dismiss'), onclick: clearError }, '×'),
  );
  banner.hidden = false;
}

export function clearError(): void {
  if (banner) banner.hidden = true;
}

/** Run an action, showing its error if it fails. */
export async function attempt<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await action();
    return result;
  } catch (err) {
    showError(err);
    return undefined;
  }
}

// ------------------------------------------------------------------ names

/** The name a profile goes by: a bot seat (`bot:<level>:<seat>`) is rated as its level (`bot:<level>`). */
export function profileName(player: string | null): string | null {
  const bot = player ? /^bot:([^:]+):\d+$/.exec(player) : null;
  return bot ? `bot:${bot[1]}` : player;
}

/** A player's name, linking to their profile page. */
export function playerLink(name: string, opts: { strong?: boolean; label?: string } = {}): HTMLElement {
  const label = opts.label ?? name;
  return h('a', { href: `#/users/${encodeURIComponent(name)}`, class: 'player', 'data-player': name }, opts.strong ? h('strong', null, label) : label);
}
