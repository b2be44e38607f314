/**
 * Ruleset options and presets, verbatim from the rules contract
 * (shared/rules/RULESETS.md): option names and preset ids are public API.
 */
export type PlayerCount = 2 | 3 | 4 | 6;
export type CaptureRule = 'match' | 'fifteen';
export type PointRule = null | 'most' | 'majority';
export type PrimieraRule = null | 'missingSuitZero' | 'allSuitsRequired';

export interface RulesetOptions {
  players: PlayerCount;
  teams: boolean;
  handSize: number;
  tableSize: number;
  redealKings: null | 2 | 3 | 4;
  capture: CaptureRule;
  maxCaptureCards: number | null;
  fewestCards: boolean;
  aceSweeps: boolean;
  aceSweepIsScopa: boolean;
  cardsPoint: PointRule;
  denariPoint: PointRule;
  settebello: boolean;
  reBello: boolean;
  primiera: PrimieraRule;
  sevens: boolean;
  denariBonus123: boolean;
  allDenariWins: boolean;
  target: number;
}

export type OptionName = keyof RulesetOptions;

/** The options table's order: validation reports the first failing option in it. */
export const OPTION_NAMES: readonly OptionName[] = [
  'players',
  'teams',
  'handSize',
  'tableSize',
  'redealKings',
  'capture',
  'maxCaptureCards',
  'fewestCards',
  'aceSweeps',
  'aceSweepIsScopa',
  'cardsPoint',
  'denariPoint',
  'settebello',
  'reBello',
  'primiera',
  'sevens',
  'denariBonus123',
  'allDenariWins',
  'target',
];

const BOOLEAN_OPTIONS: readonly OptionName[] = OPTION_NAMES.filter((name) =>
  ['teams', 'fewestCards', 'aceSweeps', 'aceSweepIsScopa', 'settebello', 'reBello', 'sevens', 'denariBonus123', 'allDenariWins'].includes(name),
);

export interface Preset {
  id: PresetId;
  /** Seed documents (shared/seeds/NNN_*.txt) the preset comes from. */
  sources: string[];
  /** Allowed player counts; the first is the default. */
  players: PlayerCount[];
  defaults: RulesetOptions;
}

export const PRESET_IDS = [
  'scopa',
  'scopa-fr',
  'scopa-initiation',
  'scopa-simple',
  'scopone',
  'scopone-scientifico',
  'scopone-trenta',
  'scopa-quindici',
  'scopa-d-assi',
  're-bello',
] as const;
export type PresetId = (typeof PRESET_IDS)[number];

const BASE: RulesetOptions = {
  players: 2,
  teams: false,
  handSize: 3,
  tableSize: 4,
  redealKings: 3,
  capture: 'match',
  maxCaptureCards: null,
  fewestCards: false,
  aceSweeps: false,
  aceSweepIsScopa: false,
  cardsPoint: 'most',
  denariPoint: 'most',
  settebello: true,
  reBello: false,
  primiera: 'missingSuitZero',
  sevens: false,
  denariBonus123: false,
  allDenariWins: false,
  target: 11,
};

function preset(id: PresetId, sources: string[], players: PlayerCount[], overrides: Partial<RulesetOptions>): Preset {
  return { id, sources, players, defaults: { ...BASE, players: players[0], ...overrides } };
}

const FOUR_TEAMS: Partial<RulesetOptions> = { players: 4, teams: true };

export const PRESETS: Readonly<Record<PresetId, Preset>> = {
  scopa: preset('scopa', ['004'], [2, 3, 4], { cardsPoint: 'majority', denariPoint: 'majority', primiera: 'allSuitsRequired' }),
  'scopa-fr': preset('scopa-fr', ['001', '002'], [2, 3, 4, 6], { maxCaptureCards: 2, fewestCards: true }),
  'scopa-initiation': preset('scopa-initiation', ['003'], [2, 3, 4], {
    maxCaptureCards: 2,
    fewestCards: true,
    primiera: null,
    sevens: true,
  }),
  'scopa-simple': preset('scopa-simple', ['000'], [2, 3, 4], { redealKings: null, primiera: null, sevens: true }),
  scopone: preset('scopone', ['001', '002'], [4], { ...FOUR_TEAMS, handSize: 9 }),
  'scopone-scientifico': preset('scopone-scientifico', ['003'], [4], { ...FOUR_TEAMS, handSize: 10, tableSize: 0, redealKings: null }),
  'scopone-trenta': preset('scopone-trenta', ['001', '002'], [4], {
    ...FOUR_TEAMS,
    handSize: 9,
    denariBonus123: true,
    allDenariWins: true,
    target: 21,
  }),
  'scopa-quindici': preset('scopa-quindici', ['001'], [2, 3, 4], { capture: 'fifteen' }),
  'scopa-d-assi': preset('scopa-d-assi', ['001', '002'], [2, 3, 4], { aceSweeps: true }),
  're-bello': preset('re-bello', ['001', '002'], [2, 3, 4], { reBello: true }),
};

export interface ResolvedRuleset {
  preset: PresetId;
  options: RulesetOptions;
}

/** Resolving failed: `option` names the one option at fault (or `preset`). */
export interface RulesetError {
  option: string;
  message: string;
}

export type ResolveResult = { ok: true; ruleset: ResolvedRuleset } | { ok: false; error: RulesetError };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const fail = (option: string, message: string): ResolveResult => ({ ok: false, error: { option, message } });

export function isPresetId(id: unknown): id is PresetId {
  return typeof id === 'string' && Object.prototype.hasOwnProperty.call(PRESETS, id);
}

/**
 * Applies overrides to a preset, checking in the contract's Validation order
 * so that the first failing check names the option, exactly as specified.
 */
export function resolveRuleset(presetId: unknown, overrides: unknown = {}): ResolveResult {
  if (!isPresetId(presetId)) return fail('preset', `unknown preset ${JSON.stringify(presetId)}`);
  const base = PRESETS[presetId];
  if (overrides === null || overrides === undefined) overrides = {};
  if (typeof overrides !== 'object' || Array.isArray(overrides)) return fail('options', 'options must be an object');
  const given = overrides as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_NAMES as readonly string[]).includes(key)) return fail(key, `unknown option ${key}`);
  }
  const o = { ...base.defaults, ...given } as Record<OptionName, unknown>;

  if (!isInt(o.players) || ![2, 3, 4, 6].includes(o.players) || !base.players.includes(o.players as PlayerCount)) {
    return fail('players', `players must be one of ${base.players.join(', ')} for preset ${presetId}`);
  }
  for (const name of BOOLEAN_OPTIONS) {
    if (typeof o[name] !== 'boolean') return fail(name, `${name} must be true or false`);
  }
  if (o.teams === true && o.players !== 4) return fail('teams', 'teams needs exactly 4 players');
  if (!isInt(o.handSize) || o.handSize < 1) return fail('handSize', 'handSize must be an integer >= 1');
  if (!isInt(o.tableSize) || o.tableSize < 0 || o.tableSize > 39) return fail('tableSize', 'tableSize must be an integer in 0..39');
  if ((40 - o.tableSize) % (o.players * o.handSize) !== 0) {
    const blame = 'tableSize' in given && !('handSize' in given) ? 'tableSize' : 'handSize';
    return fail(blame, `players * handSize (${o.players * o.handSize}) must divide the ${40 - o.tableSize} cards left after the table`);
  }
  if (o.redealKings !== null && !(isInt(o.redealKings) && o.redealKings >= 2 && o.redealKings <= 4)) {
    return fail('redealKings', 'redealKings must be null, 2, 3 or 4');
  }
  if (o.capture !== 'match' && o.capture !== 'fifteen') return fail('capture', 'capture must be "match" or "fifteen"');
  if (o.maxCaptureCards !== null && !(isInt(o.maxCaptureCards) && o.maxCaptureCards >= 1)) {
    return fail('maxCaptureCards', 'maxCaptureCards must be null or an integer >= 1');
  }
  for (const name of ['cardsPoint', 'denariPoint'] as const) {
    if (o[name] !== null && o[name] !== 'most' && o[name] !== 'majority') return fail(name, `${name} must be null, "most" or "majority"`);
  }
  if (o.primiera !== null && o.primiera !== 'missingSuitZero' && o.primiera !== 'allSuitsRequired') {
    return fail('primiera', 'primiera must be null, "missingSuitZero" or "allSuitsRequired"');
  }
  if (!isInt(o.target) || o.target < 1 || o.target > 100) return fail('target', 'target must be an integer in 1..100');
  if (o.redealKings !== null && (o.redealKings as number) <= o.tableSize - 36) {
    return fail('redealKings', `with ${o.tableSize} table cards every deal holds ${o.tableSize - 36} kings or more`);
  }
  return { ok: true, ruleset: { preset: presetId, options: optionsRecord(o as unknown as RulesetOptions) } };
}

/**
 * The options as one object literal in the options table's order: every
 * match's options then share one shape (a spread of overrides, or a parsed
 * event, may not), so the engine's hot paths never meet a second one and
 * deoptimize. Same keys in the same order: the JSON does not change.
 */
export function optionsRecord(o: RulesetOptions): RulesetOptions {
  return {
    players: o.players,
    teams: o.teams,
    handSize: o.handSize,
    tableSize: o.tableSize,
    redealKings: o.redealKings,
    capture: o.capture,
    maxCaptureCards: o.maxCaptureCards,
    fewestCards: o.fewestCards,
    aceSweeps: o.aceSweeps,
    aceSweepIsScopa: o.aceSweepIsScopa,
    cardsPoint: o.cardsPoint,
    denariPoint: o.denariPoint,
    settebello: o.settebello,
    reBello: o.reBello,
    primiera: o.primiera,
    sevens: o.sevens,
    denariBonus123: o.denariBonus123,
    allDenariWins: o.allDenariWins,
    target: o.target,
  };
}

/** Number of sides: teams pool seats 0+2 and 1+3. */
export function sideCount(options: RulesetOptions): number {
  return options.teams ? 2 : options.players;
}

export function sideOf(options: RulesetOptions, seat: number): number {
  return options.teams ? seat % 2 : seat;
}
