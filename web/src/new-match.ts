/** The new-match form: a game by name, its rules as labelled controls, the seats (bots, open, invited), the clock, rated; creates and opens the match. */
import { client } from './api';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { formatNumber, t } from './i18n';
import { gameChoice, loadPresets } from './game-choice';
import { clockChoice } from './clock-choice';
import { optionControls } from './option-controls';
import { attempt } from './widgets';
import type { CreateMatchInput, SeatInput } from '@scopa/sdk';

const SEAT_TYPES = ['bot', 'open', 'reserved'] as const;
const BOTS = ['greedy', 'random', 'ismcts'] as const;

export function newMatchScreen(main: HTMLElement, go: (hash: string) => void): void {
  const title = () => h('h1', null, t('newMatch:title'));
  mount(main, h('section', { class: 'panel' }, title(), h('p', { class: 'muted' }, t('newMatch:loading'))));
  void attempt(async () => {
    const presets = await loadPresets();
    const game = gameChoice(presets, { id: 'preset' });
    const form = h('form', { class: 'create', id: 'create-form' });
    const players = h('select', { id: 'players', name: 'players' });
    const teams = h('input', { id: 'teams', type: 'checkbox' });
    const target = h('input', { id: 'target', type: 'number', min: 1, max: 100, step: 1, required: true });
    const rated = h('input', { id: 'rated', type: 'checkbox', 'aria-describedby': 'rated-note' });
    const ratedNote = h('p', { id: 'rated-note', class: 'muted small form-note' }, t('newMatch:ratedNote'));
    const rules = optionControls(game.preset());
    const clock = clockChoice({ id: 'turn-limit' });
    const seatsBox = h('div', { class: 'seats' });

    const renderSeats = () => {
      const n = Number(players.value);
      const old = [...seatsBox.querySelectorAll<HTMLElement>('.seat-spec')];
      const side = (i: number) => (teams.checked ? h('span', { class: 'muted' }, t('newMatch:side', { n: formatNumber(i % 2) })) : null);
      const rows = [
        h(
          'div',
          { class: 'seat-spec' },
          h('span', { class: 'seat-no' }, t('newMatch:seat', { n: formatNumber(0) })),
          h('strong', null, t('newMatch:you')),
          side(0),
        ),
      ];
      for (let i = 1; i < n; i++) {
        const prev = old[i];
        // A rated match has a person on two sides: no bot seat then.
        const wanted = prev?.querySelector<HTMLSelectElement>('.seat-type')?.value ?? (rated.checked ? 'open' : 'bot');
        const chosen = rated.checked && wanted === 'bot' ? 'open' : wanted;
        const typeId = `seat-${i}-type`;
        const type = h(
          'select',
          { class: 'seat-type', id: typeId, 'aria-label': t('newMatch:seatWho', { n: formatNumber(i) }) },
          SEAT_TYPES.map((st) => h('option', { value: st, selected: chosen === st, disabled: rated.checked && st === 'bot' }, t(`newMatch:seatType.${st}`))),
        );
        const bot = h(
          'select',
          { class: 'seat-bot', id: `seat-${i}-bot`, 'aria-label': t('newMatch:seatBot', { n: formatNumber(i) }) },
          BOTS.map((b) =>
            h('option', { value: b, selected: (prev?.querySelector<HTMLSelectElement>('.seat-bot')?.value ?? 'greedy') === b }, t(`newMatch:bot.${b}`)),
          ),
        );
        const user = h('input', {
          class: 'seat-user',
          id: `seat-${i}-user`,
          placeholder: t('newMatch:username'),
          'aria-label': t('newMatch:seatUser', { n: formatNumber(i) }),
          value: prev?.querySelector<HTMLInputElement>('.seat-user')?.value ?? '',
        });
        const sync = () => {
          bot.hidden = type.value !== 'bot';
          user.hidden = type.value !== 'reserved';
        };
        type.addEventListener('change', sync);
        sync();
        rows.push(
          h('div', { class: 'seat-spec' }, h('label', { class: 'seat-no', for: typeId }, t('newMatch:seat', { n: formatNumber(i) })), type, bot, user, side(i)),
        );
      }
      seatsBox.replaceChildren(...rows);
    };
    const syncLocks = () => {
      const p = game.preset();
      rules.setLocked(rated.checked);
      if (rated.checked) {
        players.value = String(p.options.players);
        teams.checked = p.options.teams;
        target.value = String(p.options.target);
      }
      players.disabled = rated.checked;
      teams.disabled = rated.checked || Number(players.value) !== 4;
      target.disabled = rated.checked;
    };
    const presetChanged = () => {
      const p = game.preset();
      players.replaceChildren(...p.players.map((n) => h('option', { value: n, selected: n === p.options.players }, formatNumber(n))));
      teams.checked = p.options.teams;
      target.value = String(p.options.target);
      rules.setPreset(p);
      syncLocks();
      renderSeats();
    };
    const submit = async (ev: Event) => {
      ev.preventDefault();
      const p = game.preset();
      const o: Record<string, unknown> = rated.checked ? {} : rules.overrides();
      if (!rated.checked) {
        if (Number(players.value) !== p.options.players) o.players = Number(players.value);
        if (teams.checked !== p.options.teams) o.teams = teams.checked;
        if (Number(target.value) !== p.options.target) o.target = Number(target.value);
      }
      const seats: SeatInput[] = [{ type: 'creator' }];
      for (const row of [...seatsBox.querySelectorAll<HTMLElement>('.seat-spec')].slice(1)) {
        const type = row.querySelector<HTMLSelectElement>('.seat-type')!.value as SeatInput['type'];
        if (type === 'bot') seats.push({ type, bot: row.querySelector<HTMLSelectElement>('.seat-bot')!.value as SeatInput['bot'] });
        else if (type === 'reserved') seats.push({ type, username: row.querySelector<HTMLInputElement>('.seat-user')!.value.trim() });
        else seats.push({ type });
      }
      const input: CreateMatchInput = { preset: p.id, seats };
      if (Object.keys(o).length) input.overrides = o;
      const limit = clock.value();
      if (limit) input.turnTimeLimit = limit;
      if (clock.onExpiry() === 'forfeit') input.onExpiry = 'forfeit';
      if (rated.checked) input.rated = true;
      let created = await attempt(() => client.createMatch(input));
      if (!created) return;
      // My client seed, now that the server's seed is committed (a match under scopa-rules/1 takes none).
      if (created.view.rulesVersion !== 'scopa-rules/1') created = (await attempt(() => client.setClientSeed(created!.id, freshClientSeed()))) ?? created;
      const ready = created;
      // Every seat already taken (bots only): start at once.
      if (ready.view.phase === 'open' && ready.view.seats.every((s) => s.player)) await attempt(() => client.startMatch(ready.id));
      go(`#/match/${created.id}`);
    };
    game.onChange(presetChanged);
    players.addEventListener('change', () => {
      syncLocks();
      renderSeats();
    });
    teams.addEventListener('change', renderSeats);
    rated.addEventListener('change', () => {
      syncLocks();
      renderSeats();
    });
    form.addEventListener('submit', submit);
    presetChanged();
    mount(form, [
      game.el,
      h(
        'div',
        { class: 'form-row' },
        h('div', { class: 'field' }, h('label', { for: 'players' }, t('newMatch:players')), players),
        h('div', { class: 'field check' }, teams, h('label', { for: 'teams' }, t('newMatch:teams'))),
        h('div', { class: 'field' }, h('label', { for: 'target' }, t('newMatch:target')), target),
      ),
      rules.el,
      h('fieldset', null, h('legend', null, t('newMatch:seats')), seatsBox),
      clock.el,
      h('div', { class: 'field check' }, rated, h('label', { for: 'rated' }, t('newMatch:rated'))),
      ratedNote,
      h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, t('newMatch:create')),
    ]);
    mount(main, h('section', { class: 'panel' }, title(), form));
  });
}
