/**
 * Choosing a game by its name, with its two-line summary (what it is, then
 * what sets it apart): New match, Play someone, Challenge and the tournament
 * form share it. The names and summaries are the API's (`name`, `summary` of
 * GET /v1/rulesets, in English), translated by the games namespace; a preset
 * the client does not know yet shows the API's English.
 */
import type { Preset } from '@scopa/sdk';
import { client } from './api';
import { h } from './dom';
import { t } from './i18n';
import './forms.css';

let loaded: Promise<Preset[]> | null = null;
let known: Preset[] = [];

/** The presets the service offers (GET /v1/rulesets), read once a page load. */
export function loadPresets(): Promise<Preset[]> {
  loaded ??= client.rulesets().then(
    (list) => (known = list),
    (err: unknown) => {
      loaded = null;
      throw err;
    },
  );
  return loaded;
}

/** A game's name in the page's language: the preset (or its id, named as the API names it once the presets are read). */
export function gameName(preset: Pick<Preset, 'id' | 'name'> | string | null | undefined): string {
  if (!preset) return t('games:savedRuleset');
  const id = typeof preset === 'string' ? preset : preset.id;
  const english = typeof preset === 'string' ? (known.find((p) => p.id === id)?.name ?? id) : preset.name;
  return t(`games:presets.${id}.name`, { defaultValue: english });
}

/** A game's summary in the page's language, as its two lines. */
export function gameSummary(preset: Pick<Preset, 'id' | 'summary'>): string[] {
  return t(`games:presets.${preset.id}.summary`, { defaultValue: preset.summary })
    .split('\n')
    .filter((line) => line.trim() !== '');
}

export interface GameChoice {
  /** The label, the select and the summary. */
  el: HTMLElement;
  select: HTMLSelectElement;
  preset(): Preset;
  onChange(listener: (p: Preset) => void): void;
}

/**
 * A select of games by name (`id` is the select's id, its values the preset
 * ids) and the chosen game's summary under it (`<id>-summary`, the select's
 * description).
 */
export function gameChoice(presets: Preset[], opts: { id: string; selected?: string; label?: string }): GameChoice {
  const summaryId = `${opts.id}-summary`;
  const select = h(
    'select',
    { id: opts.id, name: opts.id, 'aria-describedby': summaryId },
    presets.map((p) => h('option', { value: p.id, selected: p.id === opts.selected }, gameName(p))),
  );
  const summary = h('div', { id: summaryId, class: 'game-summary muted small' });
  const listeners: ((p: Preset) => void)[] = [];
  const preset = () => presets.find((p) => p.id === select.value) ?? presets[0];
  const show = () => {
    const p = preset();
    summary.replaceChildren(...(p ? gameSummary(p).map((line) => h('p', null, line)) : []));
  };
  select.addEventListener('change', () => {
    show();
    for (const listener of listeners) listener(preset());
  });
  show();
  return {
    el: h('div', { class: 'field game-choice' }, h('label', { for: opts.id }, opts.label ?? t('games:game')), select, summary),
    select,
    preset,
    onChange: (listener) => listeners.push(listener),
  };
}

/** The games a two-player match can be made of as they are (challenges and tournaments take no other). */
export function twoPlayerGames(presets: Preset[]): Preset[] {
  return presets.filter((p) => p.options.players === 2);
}
