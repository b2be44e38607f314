/**
 * A game's options as labelled controls (the options table of the rules
 * contract, ../shared/rules/RULESETS.md; the values GET /v1/rulesets gives
 * each preset): checkboxes for
 * the yes-or-no options, selects for the options with a few values, number
 * inputs for the counts. Each starts at the preset's value; what differs
 * from it is the match's `overrides`. `players`, `teams` and `target` are the
 * form's own fields (they change the seats); the others are here.
 */
import type { Preset } from '@scopa/sdk';
import { cardName, packOf } from './cards';
import { h } from './dom';
import { formatNumber, t } from './i18n';

type Value = string | number | boolean | null;
type Kind = { kind: 'bool' } | { kind: 'int'; min: number; max: number } | { kind: 'choice'; values: Value[] };

const SUITS = ['D', 'C', 'S', 'B'];
const CARDS = SUITS.flatMap((s) => Array.from({ length: 10 }, (_, i) => `${i + 1}${s}`));
const UP_TO_TEN = Array.from({ length: 10 }, (_, i) => i + 1);

/** The options of the contract after players, teams and target, in its order. */
export const OPTIONS: readonly [name: string, kind: Kind][] = [
  ['handSize', { kind: 'int', min: 1, max: 20 }],
  ['tableSize', { kind: 'int', min: 0, max: 39 }],
  ['redealKings', { kind: 'choice', values: [null, 2, 3, 4] }],
  ['capture', { kind: 'choice', values: ['match', 'fifteen', 'matchOrFifteen'] }],
  ['maxCaptureCards', { kind: 'choice', values: [null, ...UP_TO_TEN] }],
  ['fewestCards', { kind: 'bool' }],
  ['optionalCapture', { kind: 'bool' }],
  ['aceSweeps', { kind: 'bool' }],
  ['aceSweepIsScopa', { kind: 'bool' }],
  ['aceSweepBlockedByAce', { kind: 'bool' }],
  ['cardsPoint', { kind: 'choice', values: [null, 'most', 'majority'] }],
  ['denariPoint', { kind: 'choice', values: [null, 'most', 'majority'] }],
  ['settebello', { kind: 'bool' }],
  ['reBello', { kind: 'bool' }],
  ['primiera', { kind: 'choice', values: [null, 'missingSuitZero', 'allSuitsRequired'] }],
  ['sevens', { kind: 'bool' }],
  ['denariBonus123', { kind: 'bool' }],
  ['allDenariWins', { kind: 'bool' }],
  ['piccola', { kind: 'bool' }],
  ['grande', { kind: 'bool' }],
  ['redealAces', { kind: 'choice', values: [null, 2, 3, 4] }],
  ['initialTableCapture', { kind: 'choice', values: [null, 'sum15or30', 'groups15'] }],
  ['matta', { kind: 'choice', values: [null, ...CARDS] }],
  ['lowHandBonus', { kind: 'int', min: 0, max: 99 }],
  ['tripleBonus', { kind: 'int', min: 0, max: 99 }],
];

/** The words of one value of a select option. */
function valueWords(name: string, value: Value, preset: Preset): string {
  if (value === null) return t(`games:options.${name}.none`);
  if (name === 'matta') return cardName(String(value), packOf(preset.id));
  if (name === 'maxCaptureCards') return t('games:options.maxCaptureCards.upTo', { count: value, n: formatNumber(Number(value)) });
  return t(`games:options.${name}.${String(value)}`);
}

export interface OptionControls {
  el: HTMLElement;
  /** Back to a preset's values (and the words of its values). */
  setPreset(preset: Preset): void;
  /** The options whose value differs from the preset's. */
  overrides(): Record<string, unknown>;
  /** Locked: every control shows the preset's value and cannot change (a rated match plays the game as it is). */
  setLocked(locked: boolean): void;
}

/** Every option as a labelled control, ids `option-<name>`, in a disclosure ("Change the rules", `#rules-details`). */
export function optionControls(preset: Preset): OptionControls {
  let current = preset;
  const body = h('div', { class: 'option-grid' });
  const note = h('p', { class: 'muted small', id: 'rules-locked', hidden: true }, t('games:options.locked'));
  const read = new Map<string, () => Value>();

  const build = () => {
    read.clear();
    const fields = OPTIONS.map(([name, kind]) => {
      const id = `option-${name}`;
      const initial = (current.options as unknown as Record<string, Value>)[name] ?? null;
      const label = t(`games:options.${name}.label`);
      if (kind.kind === 'bool') {
        const box = h('input', { id, type: 'checkbox', checked: initial === true });
        read.set(name, () => box.checked);
        return h('div', { class: 'field check' }, box, h('label', { for: id }, label));
      }
      if (kind.kind === 'int') {
        const input = h('input', { id, type: 'number', min: kind.min, max: kind.max, step: 1, value: String(initial ?? kind.min), required: true });
        read.set(name, () => (input.value.trim() === '' ? Number(initial) : Number(input.value)));
        return h('div', { class: 'field' }, h('label', { for: id }, label), input);
      }
      const values = kind.values.includes(initial) ? kind.values : [...kind.values, initial];
      const select = h(
        'select',
        { id },
        values.map((v) => h('option', { value: v === null ? '' : String(v), selected: v === initial }, valueWords(name, v, current))),
      );
      read.set(name, () => values.find((v) => (v === null ? '' : String(v)) === select.value) ?? null);
      return h('div', { class: 'field' }, h('label', { for: id }, label), select);
    });
    body.replaceChildren(...fields);
  };
  build();

  const details = h('details', { id: 'rules-details', class: 'rules' }, h('summary', null, t('games:options.change')), note, body);
  let locked = false;
  const lock = () => {
    note.hidden = !locked;
    for (const el of body.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) el.disabled = locked;
  };
  return {
    el: details,
    setPreset(p) {
      current = p;
      build();
      lock();
    },
    overrides() {
      const out: Record<string, unknown> = {};
      const defaults = current.options as unknown as Record<string, Value>;
      for (const [name, value] of read) if (value() !== (defaults[name] ?? null)) out[name] = value();
      return out;
    },
    setLocked(value) {
      locked = value;
      if (locked) build();
      lock();
    },
  };
}
