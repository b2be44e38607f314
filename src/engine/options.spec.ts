import { OPTION_NAMES, PRESETS, PRESET_IDS, resolveRuleset } from './options';

const errorOf = (preset: unknown, overrides: unknown) => {
  const r = resolveRuleset(preset, overrides);
  return r.ok ? null : r.error.option;
};

describe('resolving a ruleset', () => {
  it('resolves every preset to the contract table', () => {
    for (const id of PRESET_IDS) expect(resolveRuleset(id, {})).toEqual({ ok: true, ruleset: { preset: id, options: PRESETS[id].defaults } });
    // the options go into MatchCreated, whose JSON is stored and hashed: keys in the options table's order, whatever the overrides' order
    const resolved = resolveRuleset('scopa', { target: 21, players: 3, fewestCards: true });
    expect(resolved.ok && JSON.stringify(Object.keys(resolved.ruleset.options))).toBe(JSON.stringify(OPTION_NAMES));
    expect(resolved.ok && JSON.stringify(resolved.ruleset.options)).toBe(
      JSON.stringify({ ...PRESETS.scopa.defaults, target: 21, players: 3, fewestCards: true }),
    );
    const trenta = PRESETS['scopone-trenta'].defaults;
    expect(trenta).toMatchObject({ players: 4, teams: true, handSize: 9, tableSize: 4, denariBonus123: true, allDenariWins: true, target: 21 });
    expect(PRESETS['scopone-scientifico'].defaults).toMatchObject({ handSize: 10, tableSize: 0, redealKings: null, primiera: 'missingSuitZero' });
    expect(PRESETS.scopa.defaults).toMatchObject({ cardsPoint: 'majority', denariPoint: 'majority', primiera: 'allSuitsRequired', maxCaptureCards: null });
    expect(PRESETS['scopa-fr'].players).toEqual([2, 3, 4, 6]);
  });

  it('applies overrides and records the result', () => {
    const r = resolveRuleset('scopa', { players: 4, teams: true, target: 21 });
    expect(r.ok && r.ruleset.options).toMatchObject({ players: 4, teams: true, target: 21, handSize: 3 });
  });

  it.each([
    ['an unknown preset', 'briscola', {}, 'preset'],
    ['the first unknown key in the order given', 'scopa', { zeta: 1, alpha: 2 }, 'zeta'],
    ['unknown keys before bad values', 'scopa', { players: 5, bogus: true }, 'bogus'],
    ['players as a string', 'scopa', { players: '2' }, 'players'],
    ['players not allowed by the preset', 'scopone', { players: 2 }, 'players'],
    ['players 6 outside scopa', 'scopa', { players: 6 }, 'players'],
    ['a boolean given as a string', 'scopa', { teams: 'yes' }, 'teams'],
    ['booleans checked in table order', 'scopa', { allDenariWins: 1, fewestCards: 0 }, 'fewestCards'],
    ['teams without 4 players', 'scopa', { teams: true }, 'teams'],
    ['handSize 0', 'scopa', { handSize: 0 }, 'handSize'],
    ['handSize not an integer', 'scopa', { handSize: 2.5 }, 'handSize'],
    ['tableSize 40', 'scopa', { tableSize: 40 }, 'tableSize'],
    ['an undividable table, tableSize overridden alone', 'scopa', { tableSize: 3 }, 'tableSize'],
    ['an undividable deal, handSize overridden', 'scopa', { handSize: 4 }, 'handSize'],
    ['an undividable deal, both overridden', 'scopa', { handSize: 4, tableSize: 3 }, 'handSize'],
    ['redealKings 1', 'scopa', { redealKings: 1 }, 'redealKings'],
    ['capture unknown', 'scopa', { capture: 'sum' }, 'capture'],
    ['maxCaptureCards 0', 'scopa', { maxCaptureCards: 0 }, 'maxCaptureCards'],
    ['cardsPoint unknown', 'scopa', { cardsPoint: 'all' }, 'cardsPoint'],
    ['primiera unknown', 'scopa', { primiera: 'yes' }, 'primiera'],
    ['target 0', 'scopa', { target: 0 }, 'target'],
    ['target 101', 'scopa', { target: 101 }, 'target'],
    ['redealKings checked before target', 'scopa', { target: 0, redealKings: 5 }, 'redealKings'],
    ['a deal that would be redone forever', 'scopa', { handSize: 1, tableSize: 38, redealKings: 2 }, 'redealKings'],
  ])('names the option at fault: %s', (_what, preset, overrides, option) => {
    expect(errorOf(preset, overrides)).toBe(option);
  });

  it('accepts null only where the table lists it', () => {
    expect(errorOf('scopa', { redealKings: null, maxCaptureCards: null, primiera: null, cardsPoint: null })).toBeNull();
    expect(errorOf('scopa', { target: null })).toBe('target');
    expect(errorOf('scopa', { capture: null })).toBe('capture');
    expect(errorOf('scopa', { teams: null })).toBe('teams');
  });

  it('accepts a deal that only some tables redo', () => {
    expect(errorOf('scopa', { handSize: 1, tableSize: 38, redealKings: 3 })).toBeNull();
  });
});
