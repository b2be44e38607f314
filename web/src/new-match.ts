/** The new-match form: a game, its options, the seats (bots, open, invited), the clock; creates and opens the match. */
import { client } from './api';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { attempt, showError } from './widgets';
import type { CreateMatchInput, Preset, SeatInput } from '@scopa/sdk';

export function newMatchScreen(main: HTMLElement, go: (hash: string) => void): void {
  let presets: Preset[] = [];
  const form = h('form', { class: 'create', id: 'create-form' });
  const presetSel = h('select', { id: 'preset', name: 'preset' });
  const players = h('select', { id: 'players', name: 'players' });
  const teams = h('input', { id: 'teams', type: 'checkbox' });
  const target = h('input', { id: 'target', type: 'number', min: 1, max: 100 });
  const overrides = h('textarea', { id: 'overrides', rows: 3, placeholder: '{"aceSweeps": true}' });
  const turnLimit = h('input', { id: 'turn-limit', placeholder: 'e.g. PT1H (optional)' });
  const seatsBox = h('div', { class: 'seats' });
  const summary = h('p', { class: 'muted small' });

  const preset = () => presets.find((p) => p.id === presetSel.value)!;
  const renderSeats = () => {
    const n = Number(players.value);
    const old = [...seatsBox.querySelectorAll<HTMLElement>('.seat-spec')];
    const rows = [
      h(
        'div',
        { class: 'seat-spec' },
        h('span', { class: 'seat-no' }, 'Seat 0'),
        h('strong', null, 'you'),
        teams.checked ? h('span', { class: 'muted' }, ' side 0') : null,
      ),
    ];
    for (let i = 1; i < n; i++) {
      const prev = old[i];
      const type = h(
        'select',
        { class: 'seat-type', id: `seat-${i}-type` },
        ['bot', 'open', 'reserved'].map((t) =>
          h(
            'option',
            { value: t, selected: (prev?.querySelector<HTMLSelectElement>('.seat-type')?.value ?? 'bot') === t },
            t === 'reserved' ? 'invite (reserved)' : t,
          ),
        ),
      );
      const bot = h(
        'select',
        { class: 'seat-bot', id: `seat-${i}-bot` },
        ['greedy', 'random', 'ismcts'].map((b) =>
          h('option', { value: b, selected: (prev?.querySelector<HTMLSelectElement>('.seat-bot')?.value ?? 'greedy') === b }, `${b} bot`),
        ),
      );
      const user = h('input', {
        class: 'seat-user',
        id: `seat-${i}-user`,
        placeholder: 'username',
        value: prev?.querySelector<HTMLInputElement>('.seat-user')?.value ?? '',
      });
      const sync = () => {
        bot.hidden = type.value !== 'bot';
        user.hidden = type.value !== 'reserved';
      };
      type.addEventListener('change', sync);
      sync();
      rows.push(
        h(
          'div',
          { class: 'seat-spec' },
          h('span', { class: 'seat-no' }, `Seat ${i}`),
          type,
          bot,
          user,
          teams.checked ? h('span', { class: 'muted' }, ` side ${i % 2}`) : null,
        ),
      );
    }
    seatsBox.replaceChildren(...rows);
  };
  const presetChanged = () => {
    const p = preset();
    players.replaceChildren(...p.players.map((n) => h('option', { value: n, selected: n === p.options.players }, String(n))));
    teams.checked = p.options.teams;
    target.value = String(p.options.target);
    summary.textContent = `${p.options.capture} capture, ${p.options.handSize} cards a hand, ${p.options.tableSize} on the table, to ${p.options.target}; from ${p.sources.join(', ')}`;
    renderSeats();
  };
  const submit = async (ev: Event) => {
    ev.preventDefault();
    const p = preset();
    const o: Record<string, unknown> = {};
    if (Number(players.value) !== p.options.players) o.players = Number(players.value);
    if (teams.checked !== p.options.teams) o.teams = teams.checked;
    if (Number(target.value) !== p.options.target) o.target = Number(target.value);
    if (overrides.value.trim()) {
      try {
        const extra = JSON.parse(overrides.value) as unknown;
        if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new Error('overrides must be a JSON object');
        Object.assign(o, extra);
      } catch (err) {
        showError(new Error(`Overrides: ${(err as Error).message}`));
        return;
      }
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
    if (turnLimit.value.trim()) input.turnTimeLimit = turnLimit.value.trim();
    let created = await attempt(() => client.createMatch(input));
    if (!created) return;
    // My client seed, now that the server's seed is committed (a match under scopa-rules/1 takes none).
    if (created.view.rulesVersion !== 'scopa-rules/1') created = (await attempt(() => client.setClientSeed(created!.id, freshClientSeed()))) ?? created;
    const ready = created;
    // Every seat already taken (bots only): start at once.
    if (ready.view.phase === 'open' && ready.view.seats.every((s) => s.player)) await attempt(() => client.startMatch(ready.id));
    go(`#/match/${created.id}`);
  };
  presetSel.addEventListener('change', presetChanged);
  players.addEventListener('change', renderSeats);
  teams.addEventListener('change', renderSeats);
  form.addEventListener('submit', submit);
  mount(main, h('section', { class: 'panel' }, h('h1', null, 'New match'), h('p', { class: 'muted' }, 'Loading presets…')));
  void attempt(async () => {
    presets = await client.rulesets();
    presetSel.replaceChildren(...presets.map((p) => h('option', { value: p.id }, p.id)));
    presetChanged();
    mount(form, [
      h('label', null, 'Preset', presetSel),
      summary,
      h(
        'div',
        { class: 'row' },
        h('label', null, 'Players', players),
        h('label', { class: 'check' }, teams, 'Teams'),
        h('label', null, 'Target points', target),
      ),
      h('label', null, 'Other option overrides (JSON)', overrides),
      h('fieldset', null, h('legend', null, 'Seats'), seatsBox),
      h('label', null, 'Turn time limit (ISO 8601 duration)', turnLimit),
      h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, 'Create match'),
    ]);
    mount(main, h('section', { class: 'panel' }, h('h1', null, 'New match'), form));
  });
}
