import { PRESET_IDS } from '../engine';
import { PRESET_DESCRIPTIONS } from './preset-descriptions';
import { PresetsService } from './presets.service';

describe('preset names and summaries', () => {
  it('every preset has a name of its own and a summary of two lines, each a sentence', () => {
    expect(Object.keys(PRESET_DESCRIPTIONS).sort()).toEqual([...PRESET_IDS].sort());
    const names = PRESET_IDS.map((id) => PRESET_DESCRIPTIONS[id].name);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(PRESET_IDS.length);
    for (const id of PRESET_IDS) {
      const lines = PRESET_DESCRIPTIONS[id].summary.split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/^[A-Z].{10,140}\.$/);
    }
  });

  it('the presets service answers them with each preset', () => {
    const presets = new PresetsService();
    expect(presets.get('cirulla')).toMatchObject({ id: 'cirulla', name: 'Cirulla', summary: PRESET_DESCRIPTIONS.cirulla.summary });
    expect(presets.list().map((p) => p.name)).toContain('Scopone scientifico');
  });
});
