import { Injectable } from '@nestjs/common';
import { PRESETS, PRESET_IDS, isPresetId } from '../engine';
import { DomainError } from '../common/domain-error';
import type { PresetModel } from './ruleset.model';
import { PRESET_DESCRIPTIONS } from './preset-descriptions';

/** The presets, straight from the engine. */
@Injectable()
export class PresetsService {
  list(): PresetModel[] {
    return PRESET_IDS.map((id) => this.toModel(id));
  }

  get(id: string): PresetModel {
    if (!isPresetId(id)) throw new DomainError('NOT_FOUND', `no preset ${JSON.stringify(id)}`, { presets: PRESET_IDS });
    return this.toModel(id);
  }

  private toModel(id: (typeof PRESET_IDS)[number]): PresetModel {
    const p = PRESETS[id];
    const { name, summary } = PRESET_DESCRIPTIONS[id];
    return { id: p.id, name, summary, sources: [...p.sources], players: [...p.players], options: { ...p.defaults } };
  }
}
