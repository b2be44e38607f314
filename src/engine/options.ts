/**
 * Ruleset options and presets, verbatim from the rules contract
 * (shared/rules/RULESETS.md): option names and preset ids are public API.
 */
import { parseCard } from './cards';

export type PlayerCount = 2 | 3 | 4 | 6;
export type CaptureRule = 'match' | 'fifteen' | 'matchOrFifteen';
export type PointRule = null | 'most' | 'majority';
export type PrimieraRule = null | 'missingSuitZero' | 'allSuitsRequired';
export type InitialTableCaptureRule = null | 'sum15or30' | 'groups15';

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
  /** A card that can capture may instead be laid on the table (step 5). */
  optionalCapture: boolean;
  /** No ace sweep while the table holds a card of capture value 1 (step 1). */
  aceSweepBlockedByAce: boolean;
  piccola: boolean;
  grande: boolean;
  redealAces: null | 2 | 3 | 4;
  initialTableCapture: InitialTableCaptureRule;
  /** The wild card (a card code) of the initial-table count and of hand declarations. */
  matta: string | null;
  lowHandBonus: number;
  tripleBonus: number;
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
  'optionalCapture',
  'aceSweepBlockedByAce',
  'piccola',
  'grande',
  'redealAces',
  'initialTableCapture',
  'matta',
  'lowHandBonus',
  'tripleBonus',
];

/**
 * The options of the contract before escoba and cirulla (`target` was the
 * last): matches under `scopa-rules/1` to `/3` record exactly these keys.
 */
export const LEGACY_OPTION_NAMES: readonly OptionName[] = OPTION_NAMES.slice(0, OPTION_NAMES.indexOf('target') + 1);

const BOOLEAN_OPTIONS: readonly OptionName[] = OPTION_NAMES.filter((name) =>
  [
    'teams',
    'fewestCards',
    'aceSweeps',
    'aceSweepIsScopa',
    'settebello',
    'reBello',
    'sevens',
    'denariBonus123',
    'allDenariWins',
    'optionalCapture',
    'aceSweepBlockedByAce',
    'piccola',
    'grande',
  ].includes(name),
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
  'escoba',
  'cirulla',
  'acchiappaquindici',
  'chkobba',
  'chkop',
] as const;

/** The presets of `scopa-rules/1` to `/3`: a match under those versions is one of these. */
export const LEGACY_PRESET_IDS: readonly PresetId[] = PRESET_IDS.slice(0, PRESET_IDS.indexOf('re-bello') + 1);
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
  optionalCapture: false,
  aceSweepBlockedByAce: false,
  piccola: false,
  grande: false,
  redealAces: null,
  initialTableCapture: null,
  matta: null,
  lowHandBonus: 0,
  tripleBonus: 0,
};

/** Cirulla (pagat's "Cirulla", 2022), also under its other name, acchiappaquindici. */
const CIRULLA: Partial<RulesetOptions> = {
  redealKings: null,
  capture: 'matchOrFifteen',
  primiera: 'allSuitsRequired',
  aceSweeps: true,
  aceSweepIsScopa: true,
  aceSweepBlockedByAce: true,
  piccola: true,
  grande: true,
  allDenariWins: true,
  redealAces: 2,
  initialTableCapture: 'sum15or30',
  matta: '7C',
  lowHandBonus: 3,
  tripleBonus: 10,
  target: 51,
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
  escoba: preset('escoba', ['001', '003'], [2, 3, 4], {
    redealKings: null,
    capture: 'fifteen',
    primiera: null,
    sevens: true,
    initialTableCapture: 'groups15',
    target: 15,
  }),
  cirulla: preset('cirulla', ['001'], [2, 3, 4], CIRULLA),
  acchiappaquindici: preset('acchiappaquindici', ['001'], [2, 3, 4], CIRULLA),
  chkobba: preset('chkobba', ['001', '003'], [2, 3, 4], { redealKings: null, primiera: null, sevens: true, target: 21 }),
  chkop: preset('chkop', ['001'], [2, 3, 4, 6], { fewestCards: true }),
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
  if (o.capture !== 'match' && o.capture !== 'fifteen' && o.capture !== 'matchOrFifteen') {
    return fail('capture', 'capture must be "match", "fifteen" or "matchOrFifteen"');
  }
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
  if (o.redealAces !== null && !(isInt(o.redealAces) && o.redealAces >= 2 && o.redealAces <= 4)) {
    return fail('redealAces', 'redealAces must be null, 2, 3 or 4');
  }
  if (o.initialTableCapture !== null && o.initialTableCapture !== 'sum15or30' && o.initialTableCapture !== 'groups15') {
    return fail('initialTableCapture', 'initialTableCapture must be null, "sum15or30" or "groups15"');
  }
  if (o.matta !== null && parseCard(o.matta) < 0) return fail('matta', 'matta must be null or a card code such as "7C"');
  for (const name of ['lowHandBonus', 'tripleBonus'] as const) {
    if (!isInt(o[name]) || (o[name] as number) < 0 || (o[name] as number) > 99) return fail(name, `${name} must be an integer in 0..99`);
  }
  // Check 9: a table that every deal would redo.
  if (o.redealKings !== null && (o.redealKings as number) <= o.tableSize - 36) {
    return fail('redealKings', `with ${o.tableSize} table cards every deal holds ${o.tableSize - 36} kings or more`);
  }
  if (o.redealAces !== null && (o.redealAces as number) <= o.tableSize - 36) {
    return fail('redealAces', `with ${o.tableSize} table cards every deal holds ${o.tableSize - 36} aces or more`);
  }
  if (o.redealKings !== null && o.redealAces !== null && (o.redealKings as number) + (o.redealAces as number) <= o.tableSize - 31) {
    return fail('redealAces', `with ${o.tableSize} table cards every deal holds ${o.redealKings} kings or ${o.redealAces} aces`);
  }
  // Check 10: the hand bonuses are for hands of 3.
  if (((o.lowHandBonus as number) > 0 || (o.tripleBonus as number) > 0) && o.handSize !== 3) {
    const blame = 'handSize' in given ? 'handSize' : (o.lowHandBonus as number) > 0 ? 'lowHandBonus' : 'tripleBonus';
    return fail(blame, 'lowHandBonus and tripleBonus need handSize 3');
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
    // A log made before these options (`scopa-rules/1` to `/3`) has none of them: they are off there.
    optionalCapture: o.optionalCapture ?? false,
    aceSweepBlockedByAce: o.aceSweepBlockedByAce ?? false,
    piccola: o.piccola ?? false,
    grande: o.grande ?? false,
    redealAces: o.redealAces ?? null,
    initialTableCapture: o.initialTableCapture ?? null,
    matta: o.matta ?? null,
    lowHandBonus: o.lowHandBonus ?? 0,
    tripleBonus: o.tripleBonus ?? 0,
  };
}

/** The options as a `scopa-rules/1` to `/3` match records them: the keys up to `target`. */
export function legacyOptionsRecord(o: RulesetOptions): RulesetOptions {
  const out: Record<string, unknown> = {};
  for (const name of LEGACY_OPTION_NAMES) out[name] = o[name];
  return out as unknown as RulesetOptions;
}

/** Whether options use nothing added after `target` (what a match under `scopa-rules/1` to `/3` can hold). */
export function isLegacyRuleset(presetId: PresetId, o: RulesetOptions): boolean {
  if (!LEGACY_PRESET_IDS.includes(presetId) || o.capture === 'matchOrFifteen') return false;
  return OPTION_NAMES.every((name) => LEGACY_OPTION_NAMES.includes(name) || o[name] === BASE[name]);
}

/** Whether the ruleset has hand declarations (`lowHandBonus` or `tripleBonus` above 0). */
export function hasDeclarations(o: RulesetOptions): boolean {
  return o.lowHandBonus > 0 || o.tripleBonus > 0;
}

/** Number of sides: teams pool seats 0+2 and 1+3. */
export function sideCount(options: RulesetOptions): number {
  return options.teams ? 2 : options.players;
}

export function sideOf(options: RulesetOptions, seat: number): number {
  return options.teams ? seat % 2 : seat;
}
