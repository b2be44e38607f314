/**
 * The clock in words ("1 day per move", "no clock"), mapped to the API's
 * ISO 8601 turn time limits (`turnTimeLimit`, PT10S to P30D): the API keeps
 * ISO, people read words. The API's clock is per move (a turn's limit); it
 * has no clock per match.
 */
import { h } from './dom';
import { formatNumber, t } from './i18n';

/** The clocks offered, shortest first; null is no clock. */
export const CLOCKS: readonly (string | null)[] = [null, 'PT30S', 'PT1M', 'PT5M', 'PT15M', 'PT1H', 'PT12H', 'P1D', 'P2D', 'P3D', 'P7D', 'P14D'];

const ISO = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** The seconds of a duration of the form the API gives (weeks, days, hours, minutes, seconds), or null. */
export function clockSeconds(limit: string): number | null {
  const m = ISO.exec(limit);
  if (!m || limit === 'P' || limit.endsWith('T')) return null;
  const [w, d, hh, mm, ss] = m.slice(1).map((x) => Number(x ?? 0));
  return (((w * 7 + d) * 24 + hh) * 60 + mm) * 60 + ss;
}

/** A clock in words: "no clock", "3 days per move", "30 seconds per move"; a duration of another form is shown as the API gives it. */
export function clockWords(limit: string | null | undefined): string {
  if (!limit) return t('games:clock.none');
  const seconds = clockSeconds(limit);
  if (seconds === null || seconds === 0) return limit;
  const [unit, size]: [string, number] =
    seconds % 86_400 === 0 ? ['days', 86_400] : seconds % 3600 === 0 ? ['hours', 3600] : seconds % 60 === 0 ? ['minutes', 60] : ['seconds', 1];
  const count = seconds / size;
  return t(`games:clock.${unit}`, { count, n: formatNumber(count) });
}

export type OnExpiry = 'autoPlay' | 'forfeit';

export interface ClockChoice {
  /** The clock's select and, while a clock is chosen, what its running out does. */
  el: HTMLElement;
  select: HTMLSelectElement;
  /** The ISO 8601 duration chosen, or null for no clock. */
  value(): string | null;
  /** What the clock running out does (the API's onExpiry), when a clock is chosen. */
  onExpiry(): OnExpiry | null;
}

/**
 * A labelled select of clocks in words; its values are the ISO durations ('' for no clock). With a clock chosen, a
 * second select (`<id>-expiry`) says what its running out does: a card played for the player, or the match lost.
 */
export function clockChoice(opts: { id: string; selected?: string | null; label?: string }): ClockChoice {
  const selected = opts.selected ?? null;
  const choices = selected && !CLOCKS.includes(selected) ? [...CLOCKS, selected] : CLOCKS;
  const select = h(
    'select',
    { id: opts.id, name: opts.id },
    choices.map((c) => h('option', { value: c ?? '', selected: c === selected }, clockWords(c))),
  );
  const expiryId = `${opts.id}-expiry`;
  const expiry = h(
    'select',
    { id: expiryId, name: expiryId },
    (['autoPlay', 'forfeit'] as const).map((e) => h('option', { value: e }, t(`games:clock.expiry.${e}`))),
  );
  const expiryField = h('div', { class: 'field' }, h('label', { for: expiryId }, t('games:clock.expiry.label')), expiry);
  const sync = () => {
    expiryField.hidden = !select.value;
  };
  select.addEventListener('change', sync);
  sync();
  return {
    el: h(
      'div',
      { class: 'clock-choice' },
      h('div', { class: 'field' }, h('label', { for: opts.id }, opts.label ?? t('games:clock.label')), select),
      expiryField,
    ),
    select,
    value: () => select.value || null,
    onExpiry: () => (select.value ? (expiry.value as OnExpiry) : null),
  };
}
