import { ScopaError } from '@scopa/sdk';
import { h } from './dom';

// ------------------------------------------------------------------ errors

let banner: HTMLElement | null = null;

export function errorBanner(): HTMLElement {
  banner = h('div', { id: 'error', class: 'error', role: 'alert', hidden: true });
  return banner;
}

/** Every failure is shown with its stable code and message (the SDK's ScopaError: the service's `code`, its details). */
export function showError(err: unknown): void {
  if (!banner) return;
  const e = err instanceof ScopaError ? err : new ScopaError({ code: 'CLIENT', message: err instanceof Error ? err.message : String(err), status: 0 });
  const details = Object.entries(e.details).filter(([k]) => k !== 'status');
  banner.replaceChildren(
    h('strong', { class: 'error-code' }, e.code),
    ' ',
    h('span', { class: 'error-message' }, e.message),
    details.length
      ? h('span', { class: 'error-details' }, ' (', details.map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', '), ')')
      : '',
    h('button', { class: 'link close', 'aria-label': 'dismiss', onclick: clearError }, '×'),
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
