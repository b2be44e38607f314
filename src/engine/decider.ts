/**
 * The match decider: decide(command, state) -> events | rejection,
 * evolve(state, event) -> state, and replay as a fold of events.
 *
 * The server seed enters as data through the initial state (the store keeps
 * it secret until the end); at the start it becomes the deck seed (mixed with
 * the seats' client seeds from `scopa-rules/2`, see client-seeds.ts), and
 * every deal follows from that, so events never carry a hidden card and
 * replay is exact.
 */
import { DECK_SIZE, RANK, cardCode, cardCodes, parseCard } from './cards';
import type { Card } from './cards';
import { captureFault, captureValuesWith } from './captures';
import type { CaptureValues } from './captures';
import { declarationScope, holdsMatta, initialTableScope, mattaCard } from './bonuses';
import { bytesFromHex, deckSeedOf, normalizeClientSeed } from './client-seeds';
import { mustRedeal } from './deal';
import { reject } from './errors';
import type { DeclarationReason, Rejection } from './errors';
import {
  LEGACY_OPTION_NAMES,
  LEGACY_PRESET_IDS,
  OPTION_NAMES,
  PRESETS,
  hasDeclarations,
  isLegacyRuleset,
  legacyOptionsRecord,
  optionsRecord,
  resolveRuleset,
  sideCount,
  sideOf,
} from './options';
import { scopaOf } from './plays';
import { matchEnd, scoreRound, uniqueTop } from './scoring';
import { isSeedHex, seedCommitment, shuffledDeck, toHex } from './shuffle';
import { BOT_LEVELS } from './types';
import type { Command, MatchEvent, MatchSettings, MatchState, Seat, SeatSpec } from './types';
import { RULES_VERSION, SUPPORTED_RULES_VERSIONS, allowsAbort, allowsClockPause, knowsVariants, takesClientSeeds } from './version';
import { autoPlay } from './auto-play';
import { isCorrespondence, turnTimeLimitProblem } from './turn-time';
import { seatView } from './views';

export type Decision = { ok: true; events: MatchEvent[] } | { ok: false; rejection: Rejection };

const DEFAULT_SETTINGS: MatchSettings = { turnTimeLimit: null, onExpiry: 'autoPlay' };

export function initialState(seed: Uint8Array | null): MatchState {
  return {
    phase: 'new',
    seed,
    rulesVersion: RULES_VERSION,
    preset: null,
    options: null,
    settings: DEFAULT_SETTINGS,
    createdBy: null,
    seedCommitment: null,
    seats: [],
    clientSeeds: [],
    deckSeed: null,
    round: 0,
    attempt: 0,
    dealer: -1,
    deal: 0,
    deck: null,
    deckPos: 0,
    hands: [],
    table: [],
    captured: [],
    scope: [],
    lastCapturer: null,
    declared: [],
    mattaValue: null,
    bonusScope: [],
    turn: -1,
    clockPaused: [],
    scores: [],
    rounds: [],
    result: null,
  };
}

// ------------------------------------------------------------------ decide

const ok = (events: MatchEvent[]): Decision => ({ ok: true, events });
const no = (rejection: Rejection): Decision => ({ ok: false, rejection });
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

export function decide(command: Command, state: MatchState): Decision {
  if (command === null || typeof command !== 'object') return no(reject('INVALID_COMMAND', 'a command is an object'));
  switch (command.type) {
    case 'create':
      return decideCreate(command, state);
    case 'join':
      return decideJoin(command, state);
    case 'setClientSeed':
      return decideSetClientSeed(command, state);
    case 'start':
      return decideStart(command, state);
    case 'play':
      return decidePlay(command, state);
    case 'declareHand':
      return decideDeclareHand(command, state);
    case 'resign':
      return decideResign(command, state);
    case 'abort':
      return decideAbort(command, state);
    case 'clockExpired':
      return decideClockExpired(command, state);
    case 'pauseClock':
    case 'resumeClock':
      return decideClockPause(command, state);
    default: {
      const unknown: never = command;
      return no(reject('INVALID_COMMAND', `unknown command type ${JSON.stringify((unknown as { type?: unknown }).type)}`));
    }
  }
}

function decideCreate(command: Extract<Command, { type: 'create' }>, state: MatchState): Decision {
  if (state.phase !== 'new') return no(reject('MATCH_EXISTS', 'this match was already created'));
  const rulesVersion = command.rulesVersion ?? RULES_VERSION;
  if (!SUPPORTED_RULES_VERSIONS.includes(rulesVersion))
    return no(reject('INVALID_COMMAND', `rules version ${JSON.stringify(rulesVersion)} is not implemented by this engine`));
  const resolved = resolveRuleset(command.preset, command.overrides ?? {});
  if (!resolved.ok) return no(reject('INVALID_RULESET', resolved.error.message, { option: resolved.error.option }));
  const { preset } = resolved.ruleset;
  let options = resolved.ruleset.options;
  if (!knowsVariants(rulesVersion)) {
    // A log made before the games of other packs: one of the presets it knew, the options up to `target` only.
    if (!LEGACY_PRESET_IDS.includes(preset)) return no(reject('INVALID_RULESET', `preset ${preset} needs scopa-rules/4`, { option: 'preset' }));
    if (!isLegacyRuleset(preset, options)) {
      const defaults = PRESETS[preset].defaults;
      const blamed = OPTION_NAMES.find((name) => !LEGACY_OPTION_NAMES.includes(name) && options[name] !== defaults[name]) ?? 'capture';
      return no(reject('INVALID_RULESET', `${blamed} needs scopa-rules/4`, { option: blamed }));
    }
    options = legacyOptionsRecord(options);
  }
  if (!isNonEmptyString(command.createdBy)) return no(reject('INVALID_COMMAND', 'createdBy is required'));
  if (!isSeedHex(command.seedCommitment)) return no(reject('INVALID_COMMAND', 'seedCommitment is 64 lowercase hex characters'));
  if (state.seed && seedCommitment(state.seed) !== command.seedCommitment) {
    return no(reject('INVALID_COMMAND', 'seedCommitment is not the SHA-256 of this match seed'));
  }
  const settings = { ...DEFAULT_SETTINGS, ...(command.settings ?? {}) };
  const limitProblem = turnTimeLimitProblem(settings.turnTimeLimit);
  if (limitProblem) return no(reject('INVALID_COMMAND', limitProblem));
  if (settings.onExpiry !== 'autoPlay' && settings.onExpiry !== 'forfeit') {
    return no(reject('INVALID_COMMAND', 'onExpiry is "autoPlay" or "forfeit"'));
  }
  if (settings.rated !== undefined && typeof settings.rated !== 'boolean') return no(reject('INVALID_COMMAND', 'rated is true or false'));
  if (settings.chat !== undefined && settings.chat !== 'players' && settings.chat !== 'off') return no(reject('INVALID_COMMAND', 'chat is "players" or "off"'));
  const specs: unknown = command.seats ?? [];
  if (!Array.isArray(specs) || specs.length > options.players) {
    return no(reject('INVALID_COMMAND', `seats is a list of at most ${options.players} seat specs`));
  }
  const seats: Seat[] = [];
  const seated = new Set<string>();
  for (let seat = 0; seat < options.players; seat++) {
    const spec = (specs[seat] ?? {}) as SeatSpec;
    const made = seatFromSpec(spec, seat);
    if (typeof made === 'string') return no(reject('INVALID_COMMAND', `seat ${seat}: ${made}`));
    if (made.player !== null && !made.bot) {
      if (seated.has(made.player)) return no(reject('INVALID_COMMAND', `seat ${seat}: ${made.player} already holds a seat`));
      seated.add(made.player);
    }
    seats.push(made);
  }
  // A rated match needs two sides with a seat for a person (an open or reserved seat counts: it can only go to a person).
  if (settings.rated && new Set(seats.flatMap((s, seat) => (s.bot ? [] : [sideOf(options, seat)]))).size < 2) {
    return no(reject('INVALID_COMMAND', 'a rated match needs at least two sides with a seat for a person, not a bot'));
  }
  return ok([
    {
      type: 'MatchCreated',
      rulesVersion,
      preset,
      options,
      seats,
      createdBy: command.createdBy,
      seedCommitment: command.seedCommitment,
      // `rated` only when true, `chat` only when off: the logs of unrated matches with the players' chat stay as they were.
      settings: {
        turnTimeLimit: settings.turnTimeLimit,
        onExpiry: settings.onExpiry,
        ...(settings.rated ? { rated: true } : {}),
        ...(settings.chat === 'off' ? { chat: 'off' as const } : {}),
      },
    },
  ]);
}

function seatFromSpec(spec: SeatSpec, seat: number): Seat | string {
  if (spec === null || typeof spec !== 'object') return 'a seat spec is an object';
  const given = ['player', 'reservedFor', 'bot'].filter((k) => (spec as Record<string, unknown>)[k] !== undefined);
  if (given.length > 1) return 'give at most one of player, reservedFor, bot';
  if (spec.bot !== undefined) {
    if (!(BOT_LEVELS as readonly string[]).includes(spec.bot)) return `bot is one of ${BOT_LEVELS.join(', ')}`;
    return { player: botPlayerId(spec.bot, seat), reservedFor: null, bot: spec.bot };
  }
  if (spec.player !== undefined) {
    if (!isNonEmptyString(spec.player) || spec.player.startsWith('bot:')) return 'player is a non-empty id';
    return { player: spec.player, reservedFor: null, bot: null };
  }
  if (spec.reservedFor !== undefined) {
    if (!isNonEmptyString(spec.reservedFor) || spec.reservedFor.startsWith('bot:')) return 'reservedFor is a non-empty id';
    return { player: null, reservedFor: spec.reservedFor, bot: null };
  }
  return { player: null, reservedFor: null, bot: null };
}

export function botPlayerId(level: string, seat: number): string {
  return `bot:${level}:${seat}`;
}

function decideJoin(command: Extract<Command, { type: 'join' }>, state: MatchState): Decision {
  if (state.phase === 'new') return no(reject('MATCH_NOT_CREATED', 'no such match'));
  if (state.phase !== 'open') return no(reject('MATCH_ALREADY_STARTED', 'seats can only be taken before the match starts'));
  const player = command.player;
  if (!isNonEmptyString(player) || player.startsWith('bot:')) return no(reject('INVALID_COMMAND', 'player is a non-empty id'));
  if (seatOf(state, player) >= 0) return no(reject('ALREADY_SEATED', `${player} already holds a seat in this match`));
  let clientSeed: string | null = null;
  if (command.clientSeed !== undefined && command.clientSeed !== null) {
    const problem = clientSeedProblem(state);
    if (problem) return no(problem);
    clientSeed = normalizeClientSeed(command.clientSeed);
    if (clientSeed === null) return no(reject('INVALID_CLIENT_SEED', CLIENT_SEED_FORMAT));
  }
  const free = (s: Seat) => s.player === null && (s.reservedFor === null || s.reservedFor === player);
  let seat: number;
  if (command.seat !== undefined && command.seat !== null) {
    seat = command.seat;
    if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats.length) {
      return no(reject('SEAT_UNAVAILABLE', `seat is an integer in 0..${state.seats.length - 1}`));
    }
    if (!free(state.seats[seat])) return no(reject('SEAT_UNAVAILABLE', `seat ${seat} is taken or reserved for another player`));
  } else {
    seat = state.seats.findIndex((s) => s.player === null && s.reservedFor === player);
    if (seat < 0) seat = state.seats.findIndex((s) => s.player === null && s.reservedFor === null);
    if (seat < 0) return no(reject('MATCH_FULL', 'no open seat is left for this player'));
  }
  // No clientSeed key at all without a seed: logs from before client seeds have none.
  return ok([clientSeed === null ? { type: 'SeatTaken', seat, player } : { type: 'SeatTaken', seat, player, clientSeed }]);
}

const CLIENT_SEED_FORMAT = 'a client seed is 1 to 64 bytes written as hex (2 to 128 hex digits)';

/** Why this match takes no client seed now, or null. */
function clientSeedProblem(state: MatchState): Rejection | null {
  if (!takesClientSeeds(state.rulesVersion)) return reject('INVALID_COMMAND', `matches under ${state.rulesVersion} take no client seed`);
  return null;
}

/** Once per human seat, before the start: a seed changed later could be chosen knowing the others'. */
function decideSetClientSeed(command: Extract<Command, { type: 'setClientSeed' }>, state: MatchState): Decision {
  if (state.phase === 'new') return no(reject('MATCH_NOT_CREATED', 'no such match'));
  if (state.phase !== 'open') return no(reject('MATCH_ALREADY_STARTED', 'client seeds are given before the match starts'));
  const problem = clientSeedProblem(state);
  if (problem) return no(problem);
  const seat = seatOf(state, command.player);
  if (seat < 0) return no(reject('NOT_SEATED', 'you hold no seat in this match'));
  if (state.seats[seat].bot) return no(reject('NOT_SEATED', 'a bot seat gives no client seed'));
  const clientSeed = normalizeClientSeed(command.clientSeed);
  if (clientSeed === null) return no(reject('INVALID_CLIENT_SEED', CLIENT_SEED_FORMAT));
  if (state.clientSeeds[seat] !== null) return no(reject('CLIENT_SEED_ALREADY_GIVEN', `seat ${seat} already gave its client seed`));
  return ok([{ type: 'ClientSeedGiven', seat, clientSeed }]);
}

function decideStart(command: Extract<Command, { type: 'start' }>, state: MatchState): Decision {
  if (state.phase === 'new') return no(reject('MATCH_NOT_CREATED', 'no such match'));
  if (state.phase !== 'open') return no(reject('MATCH_ALREADY_STARTED', 'the match has already started'));
  if (seatOf(state, command.player) < 0 && command.player !== state.createdBy) {
    return no(reject('NOT_SEATED', 'only the creator or a seated player may start the match'));
  }
  if (state.seats.some((s) => s.player === null)) return no(reject('SEATS_NOT_FILLED', 'every seat must be taken first'));
  if (!state.seed) return no(reject('INVALID_COMMAND', 'the match seed is missing'));
  const started = evolve(state, { type: 'MatchStarted' });
  return ok(roundDeals(started, 1, state.seats.length - 1, [{ type: 'MatchStarted' }]));
}

function decidePlay(command: Extract<Command, { type: 'play' }>, state: MatchState): Decision {
  const phaseProblem = inPlay(state);
  if (phaseProblem) return no(phaseProblem);
  const seat = seatOf(state, command.player);
  if (seat < 0) return no(reject('NOT_SEATED', 'you hold no seat in this match'));
  if (seat !== state.turn) return no(reject('NOT_YOUR_TURN', `it is seat ${state.turn}'s turn`));
  const card = parseCard(command.card);
  if (card < 0) return no(reject('ILLEGAL_PLAY', `${JSON.stringify(command.card)} is not a card code`, { reason: 'UNKNOWN_CARD' }));
  if (indexOf(state.hands[seat], card) < 0) return no(reject('ILLEGAL_PLAY', `${command.card} is not in your hand`, { reason: 'CARD_NOT_IN_HAND' }));
  const capture = parseCapture(command.capture, state.table);
  if (typeof capture === 'string') return no(reject('ILLEGAL_PLAY', capture, { reason: 'CAPTURE_NOT_ON_TABLE' }));
  const fault = captureFault(state.options!, state.table, card, capture, captureValuesOf(state));
  if (fault === 'MUST_CAPTURE') return no(reject('ILLEGAL_PLAY', `${cardCode(card)} can capture, so it must`, { reason: 'MUST_CAPTURE' }));
  if (fault === 'CAPTURE_NOT_LEGAL') {
    return no(reject('ILLEGAL_PLAY', `${cardCode(card)} cannot capture ${cardCodes(capture).join(' ')}`, { reason: 'CAPTURE_NOT_LEGAL' }));
  }
  return ok(playEvents(state, seat, card, capture, false));
}

/** The capture values in force: every card's rank, but a matta whose value a declaration named this round. */
export function captureValuesOf(state: MatchState): CaptureValues {
  if (state.mattaValue === null || !state.options) return RANK;
  return captureValuesWith(mattaCard(state.options), state.mattaValue);
}

const declarationRefused = (reason: DeclarationReason, message: string): Decision => no(reject('DECLARATION_NOT_ALLOWED', message, { reason }));

/**
 * A hand declaration (contract, "Hand declarations"): on the seat's turn,
 * while its hand still holds the three cards of the last deal and it has not
 * declared them; the matta's value named when the hand holds it; legal only
 * if the hand scores. Declaring does not end the turn.
 */
function decideDeclareHand(command: Extract<Command, { type: 'declareHand' }>, state: MatchState): Decision {
  const phaseProblem = inPlay(state);
  if (phaseProblem) return no(phaseProblem);
  const seat = seatOf(state, command.player);
  if (seat < 0) return no(reject('NOT_SEATED', 'you hold no seat in this match'));
  if (seat !== state.turn) return no(reject('NOT_YOUR_TURN', `it is seat ${state.turn}'s turn`));
  const options = state.options!;
  if (!hasDeclarations(options)) return declarationRefused('NO_DECLARATIONS', 'this ruleset has no hand declarations');
  const hand = state.hands[seat];
  if (hand.length !== options.handSize) return declarationRefused('WINDOW_CLOSED', 'a hand is declared before playing from it: the window closed');
  if ((state.declared[seat]?.length ?? 0) > 0) return declarationRefused('ALREADY_DECLARED', 'this hand is already declared');
  const withMatta = holdsMatta(options, hand);
  const given = command.mattaValue;
  if (withMatta) {
    if (given === undefined || given === null)
      return declarationRefused('MATTA_VALUE_MISSING', `the hand holds the matta (${options.matta}): name its value, 1 to 10`);
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > 10) {
      return declarationRefused('MATTA_VALUE_OUT_OF_RANGE', 'mattaValue is an integer from 1 to 10');
    }
  } else if (given !== undefined && given !== null) {
    return declarationRefused('MATTA_VALUE_NOT_EXPECTED', 'the hand holds no matta: give no mattaValue');
  }
  const mattaValue = withMatta ? (given as number) : null;
  const scope = declarationScope(options, hand, mattaValue);
  if (scope === 0) return declarationRefused('HAND_DOES_NOT_QUALIFY', 'the hand is neither triple nor low enough to score');
  return ok([{ type: 'HandDeclared', seat, cards: cardCodes(hand), mattaValue, scope }]);
}

function inPlay(state: MatchState): Rejection | null {
  if (state.phase === 'new') return reject('MATCH_NOT_CREATED', 'no such match');
  if (state.phase === 'open') return reject('MATCH_NOT_STARTED', 'the match has not started');
  if (state.phase === 'over') return reject('MATCH_OVER', 'the match is over');
  return null;
}

/** Position of a card in a short list, or -1 (a loop beats the includes builtin at these sizes). */
function indexOf(cards: readonly Card[], card: Card): number {
  for (let i = 0; i < cards.length; i++) if (cards[i] === card) return i;
  return -1;
}

/** No capture: one list for all, since the decider only reads a parsed capture (events get their own copy). */
const NO_CAPTURE: readonly Card[] = new Array<Card>(0);

function parseCapture(codes: unknown, table: readonly Card[]): readonly Card[] | string {
  if (!Array.isArray(codes)) return 'capture is a list of table cards';
  if (codes.length === 0) return NO_CAPTURE;
  const out = new Array<Card>(codes.length);
  for (let k = 0; k < codes.length; k++) {
    const code: unknown = codes[k];
    const c = parseCard(code);
    const at = c < 0 ? -1 : indexOf(table, c);
    if (at < 0) return `${JSON.stringify(code)} is not on the table`;
    for (let j = 0; j < k; j++) if (out[j] === c) return `${code} is named twice`;
    out[k] = c;
  }
  return out;
}

function decideResign(command: Extract<Command, { type: 'resign' }>, state: MatchState): Decision {
  const phaseProblem = inPlay(state);
  if (phaseProblem) return no(phaseProblem);
  const seat = seatOf(state, command.player);
  if (seat < 0) return no(reject('NOT_SEATED', 'you hold no seat in this match'));
  return ok([{ type: 'SeatResigned', seat }, abandonment(state, seat, 'resignation')]);
}

/**
 * Abort (`scopa-rules/3`): any seated player, before the match's first play
 * (open, or started with every hand of the first deal still full). The match
 * ends with no winner and no result (reason `aborted`); the seed is revealed
 * as at any end, so the log audits like any finished match.
 */
function decideAbort(command: Extract<Command, { type: 'abort' }>, state: MatchState): Decision {
  if (state.phase === 'new') return no(reject('MATCH_NOT_CREATED', 'no such match'));
  if (state.phase === 'over') return no(reject('MATCH_OVER', 'the match is over'));
  const seat = seatOf(state, command.player);
  if (seat < 0) return no(reject('NOT_SEATED', 'you hold no seat in this match'));
  if (!allowsAbort(state.rulesVersion)) return no(reject('ABORT_TOO_LATE', `a ${state.rulesVersion} match cannot be aborted: resign instead`));
  if (firstPlayMade(state)) return no(reject('ABORT_TOO_LATE', 'the first card was played: resign instead'));
  return ok([
    { type: 'MatchAborted', seat },
    { type: 'MatchEnded', reason: 'aborted', winner: null, totals: state.scores.slice(), seed: toHex(state.seed!) },
  ]);
}

/** Whether a card was played: past the first deal of round 1, or a hand of it is no longer full. */
function firstPlayMade(state: MatchState): boolean {
  if (state.phase !== 'playing') return false;
  if (state.round !== 1 || state.deal !== 1) return true;
  // A hand declaration (`scopa-rules/4`) is a move: it scored and showed a hand.
  for (let seat = 0; seat < state.declared.length; seat++) if (state.declared[seat].length > 0) return true;
  const handSize = state.options!.handSize;
  for (let seat = 0; seat < state.hands.length; seat++) if (state.hands[seat].length !== handSize) return true;
  return false;
}

function decideClockExpired(command: Extract<Command, { type: 'clockExpired' }>, state: MatchState): Decision {
  const phaseProblem = inPlay(state);
  if (phaseProblem) return no(phaseProblem);
  if (command.seat !== state.turn) return no(reject('NOT_YOUR_TURN', `the clock runs for seat ${state.turn}`));
  const seat = state.turn;
  if (state.settings.onExpiry === 'forfeit') return ok([{ type: 'SeatForfeited', seat }, abandonment(state, seat, 'forfeit')]);
  const play = autoPlay(seatView(state, seat));
  return ok(playEvents(state, seat, play.card, play.capture, true));
}

/**
 * A seat's turn clock paused or resumed (`scopa-rules/5`): only in a
 * correspondence match (a turn limit of a day or more; a live match's clock
 * never stops), before or during play, and only a change (pausing a paused
 * clock is refused, so each ClockPaused has at most one ClockResumed). The
 * clock's time is not the engine's: a pause changes no play, and an expiry
 * the clocks issue is decided as ever (a vacation cannot stop a clock that
 * already ran out: the clocks keep its deadline).
 */
function decideClockPause(command: Extract<Command, { type: 'pauseClock' | 'resumeClock' }>, state: MatchState): Decision {
  if (state.phase === 'new') return no(reject('MATCH_NOT_CREATED', 'no match yet'));
  if (state.phase === 'over') return no(reject('MATCH_OVER', 'the match is over'));
  if (!allowsClockPause(state.rulesVersion)) return no(reject('INVALID_COMMAND', `a ${state.rulesVersion} match has no clock pauses`));
  if (!isCorrespondence(state.settings.turnTimeLimit))
    return no(reject('INVALID_COMMAND', 'only a correspondence clock (a turn limit of a day or more) pauses'));
  const seat = command.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats.length) return no(reject('INVALID_COMMAND', `no seat ${String(seat)}`));
  const pause = command.type === 'pauseClock';
  if ((state.clockPaused[seat] ?? false) === pause)
    return no(reject('INVALID_COMMAND', `the clock of seat ${seat} is already ${pause ? 'paused' : 'running'}`));
  return ok([{ type: pause ? 'ClockPaused' : 'ClockResumed', seat }]);
}

/** A side that resigns or forfeits loses at once; with more sides, the best remaining side wins (tie: draw). */
function abandonment(state: MatchState, seat: number, reason: 'resignation' | 'forfeit'): MatchEvent {
  const options = state.options!;
  const loser = sideOf(options, seat);
  const remaining = state.scores.map((points, side) => (side === loser ? -Infinity : points));
  return { type: 'MatchEnded', reason, winner: uniqueTop(remaining), totals: state.scores.slice(), seed: toHex(state.seed!) };
}

/** The events of one play and of everything it sets off: a new deal, or the round's end and what follows. */
function playEvents(state: MatchState, seat: number, card: Card, capture: readonly Card[], auto: boolean): MatchEvent[] {
  let cardsInHands = 0;
  for (let s = 0; s < state.hands.length; s++) cardsInHands += state.hands[s].length;
  const lastPlay = cardsInHands === 1 && state.deckPos === DECK_SIZE;
  const played: MatchEvent = {
    type: 'CardPlayed',
    seat,
    card: cardCode(card),
    capture: cardCodes(capture),
    scopa: scopaOf(state.options!, state.table, card, capture, lastPlay, captureValuesOf(state)),
    auto,
  };
  if (cardsInHands > 1) return [played];
  if (!lastPlay) return [played, { type: 'HandsDealt', round: state.round, deal: state.deal }];
  const events: MatchEvent[] = [played];
  roundEnd(evolve(state, played), events);
  return events;
}

/** Appends the events that close a round: what is left on the table, the score, then the match end or the next deal. */
function roundEnd(state: MatchState, events: MatchEvent[]): void {
  const options = state.options!;
  const ended: MatchEvent = { type: 'RoundEnded', round: state.round, side: state.lastCapturer, cards: cardCodes(state.table) };
  const after = evolve(state, ended);
  const breakdown = scoreRound(options, after.captured, after.scope, after.bonusScope);
  const totals = new Array<number>(after.scores.length); // like every scores list: one elements kind
  for (let side = 0; side < totals.length; side++) totals[side] = after.scores[side] + breakdown.points[side];
  const scored: MatchEvent = { type: 'RoundScored', round: state.round, breakdown, totals };
  const verdict = matchEnd(options, totals, breakdown.allDenari);
  events.push(ended, scored);
  if (verdict.over) {
    const reason = options.allDenariWins && breakdown.allDenari !== null ? 'allDenari' : 'points';
    events.push({ type: 'MatchEnded', reason, winner: verdict.winner, totals, seed: toHex(state.seed!) });
  } else {
    roundDeals(after, state.round + 1, (state.dealer + 1) % options.players, events);
  }
}

/**
 * Appends a round's deal, plus a redeal for each table with too many kings
 * (or aces), then the dealer's initial-table capture when the deal that
 * stands gives one.
 */
function roundDeals(state: MatchState, round: number, dealer: number, events: MatchEvent[]): MatchEvent[] {
  const options = state.options!;
  const { tableSize } = options;
  for (let attempt = 0; ; attempt++) {
    const table = tableOf(cachedDeck(state.deckSeed!, round, attempt), tableSize);
    events.push({ type: 'RoundDealt', round, attempt, dealer, table: cardCodes(table) });
    if (mustRedeal(options, table)) continue;
    if (options.initialTableCapture !== null) {
      const scope = initialTableScope(options, table);
      if (scope > 0) events.push({ type: 'InitialTableCaptured', dealer, side: sideOf(options, dealer), cards: cardCodes(table), scope });
    }
    return events;
  }
}

// The last deck asked for, since decide and evolve both need each new round's deck.
let lastDeck: { seed: Uint8Array; round: number; attempt: number; deck: Uint8Array } | null = null;

function cachedDeck(seed: Uint8Array, round: number, attempt: number): Uint8Array {
  // Compared by content: deciding the start and folding its events derive the deck seed twice.
  if (lastDeck && sameBytes(lastDeck.seed, seed) && lastDeck.round === round && lastDeck.attempt === attempt) return lastDeck.deck;
  const deck = shuffledDeck(seed, round, attempt);
  lastDeck = { seed, round, attempt, deck };
  return deck;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function seatOf(state: MatchState, player: unknown): number {
  if (typeof player !== 'string') return -1;
  for (let seat = 0; seat < state.seats.length; seat++) if (state.seats[seat].player === player) return seat;
  return -1;
}

// ------------------------------------------------------------------ evolve
//
// evolve never changes the state or the arrays it is given: it returns a new
// state whose changed lists are new arrays, sharing everything else. Lists
// are built at their final size (new Array(n), then filled): no growth, and
// every card list has the same elements kind, which keeps readers monomorphic
// (a second kind showing up later costs a deoptimization and a recompile).

/** An empty card list of the same elements kind as the others (a [] literal is packed, new Array(n) holey). */
function noCards(): Card[] {
  return new Array<Card>(0);
}

function tableOf(deck: Uint8Array, tableSize: number): Card[] {
  const table = new Array<Card>(tableSize);
  for (let k = 0; k < tableSize; k++) table[k] = deck[k];
  return table;
}

/** Deals hands into a state evolve has just made: deck[tableSize + deal*players*handSize + p*handSize ..], p = position after the dealer. */
function dealHands(next: Mutable<MatchState>, deal: number): MatchState {
  const { players, handSize, tableSize } = next.options!;
  const deck = next.deck!;
  const hands = new Array<Card[]>(players);
  for (let seat = 0; seat < players; seat++) {
    const p = (seat - next.dealer - 1 + 2 * players) % players;
    const from = tableSize + deal * players * handSize + p * handSize;
    const hand = new Array<Card>(handSize);
    for (let k = 0; k < handSize; k++) hand[k] = deck[from + k];
    hands[seat] = hand;
  }
  next.hands = hands;
  next.deal = deal + 1;
  next.deckPos = next.deckPos + players * handSize;
  return next;
}

/** The cards but `removed`, in one pass on the usual case (it is there once). */
function without(cards: readonly Card[], removed: Card): Card[] {
  const n = cards.length;
  if (n === 0) return noCards();
  const out = new Array<Card>(n - 1);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const c = cards[i];
    if (c === removed) continue;
    if (j === n - 1) return cards.slice(); // not there: an unchanged copy
    out[j++] = c;
  }
  if (j < n - 1) out.length = j; // there more than once
  return out;
}

function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  // A loop, not slice(): these lists hold a few items, and the builtin call costs more than the copy.
  const out = new Array<T>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = list[i];
  out[index] = value;
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A field-by-field copy: every state then shares one object shape, which keeps
 * property access fast on the hot path (a spread does not guarantee that).
 * `result` and `seed` are given here rather than assigned after: a field
 * first written after its object is made stops being a constant, and the
 * code compiled on that assumption (the play's evolve) would be thrown away
 * at the first match end.
 */
function copy(s: MatchState, result = s.result, seed = s.seed): Mutable<MatchState> {
  return {
    phase: s.phase,
    seed,
    rulesVersion: s.rulesVersion,
    preset: s.preset,
    options: s.options,
    settings: s.settings,
    createdBy: s.createdBy,
    seedCommitment: s.seedCommitment,
    seats: s.seats,
    clientSeeds: s.clientSeeds,
    deckSeed: s.deckSeed,
    round: s.round,
    attempt: s.attempt,
    dealer: s.dealer,
    deal: s.deal,
    deck: s.deck,
    deckPos: s.deckPos,
    hands: s.hands,
    table: s.table,
    captured: s.captured,
    scope: s.scope,
    lastCapturer: s.lastCapturer,
    declared: s.declared,
    mattaValue: s.mattaValue,
    bonusScope: s.bonusScope,
    turn: s.turn,
    clockPaused: s.clockPaused,
    scores: s.scores,
    rounds: s.rounds,
    result,
  };
}

export function evolve(state: MatchState, event: MatchEvent): MatchState {
  // The play first: it is most of every log.
  switch (event.type) {
    case 'CardPlayed':
      return played(state, event);
    case 'HandsDealt':
      return dealHands(copy(state), event.deal);
    case 'MatchCreated': {
      const next = copy(state);
      next.phase = 'open';
      next.rulesVersion = event.rulesVersion;
      next.preset = event.preset;
      const options = optionsRecord(event.options); // one shape, also for options parsed from a stored log
      next.options = options;
      next.settings = event.settings;
      next.createdBy = event.createdBy;
      next.seedCommitment = event.seedCommitment;
      next.seats = event.seats;
      next.clientSeeds = new Array<string | null>(event.seats.length).fill(null);
      next.clockPaused = new Array<boolean>(event.seats.length).fill(false);
      next.scores = new Array<number>(sideCount(options)).fill(0);
      return next;
    }
    case 'SeatTaken': {
      const next = copy(state);
      next.seats = replaceAt(state.seats, event.seat, { ...state.seats[event.seat], player: event.player });
      if (event.clientSeed !== undefined) next.clientSeeds = replaceAt(state.clientSeeds, event.seat, event.clientSeed);
      return next;
    }
    case 'ClientSeedGiven': {
      const next = copy(state);
      next.clientSeeds = replaceAt(state.clientSeeds, event.seat, event.clientSeed);
      return next;
    }
    case 'MatchStarted': {
      const next = copy(state);
      next.phase = 'playing';
      // Without the server seed (a public replay) no deck can be known.
      next.deckSeed = state.seed ? deckSeedOf(state.rulesVersion, state.seed, state.clientSeeds) : null;
      return next;
    }
    case 'RoundDealt': {
      const options = state.options!;
      const deck = cachedDeck(state.deckSeed!, event.round, event.attempt);
      const sides = sideCount(options);
      const next = copy(state);
      next.round = event.round;
      next.attempt = event.attempt;
      next.dealer = event.dealer;
      next.deck = deck;
      next.deckPos = options.tableSize;
      next.table = tableOf(deck, options.tableSize);
      const captured = new Array<Card[]>(sides);
      for (let side = 0; side < sides; side++) captured[side] = noCards();
      next.captured = captured;
      next.scope = new Array<number>(sides).fill(0);
      next.lastCapturer = null;
      const declared = new Array<Card[]>(options.players);
      for (let seat = 0; seat < options.players; seat++) declared[seat] = noCards();
      next.declared = declared;
      next.mattaValue = null;
      next.bonusScope = new Array<number>(sides).fill(0);
      next.turn = (event.dealer + 1) % options.players;
      return dealHands(next, 0);
    }
    case 'InitialTableCaptured': {
      const next = copy(state);
      const side = event.side;
      const before = state.captured[side];
      const pile = new Array<Card>(before.length + event.cards.length);
      for (let k = 0; k < before.length; k++) pile[k] = before[k];
      for (let k = 0; k < event.cards.length; k++) pile[before.length + k] = parseCard(event.cards[k]);
      next.captured = replaceAt(state.captured, side, pile);
      next.table = noCards();
      next.scope = replaceAt(state.scope, side, state.scope[side] + event.scope);
      next.bonusScope = replaceAt(state.bonusScope, side, state.bonusScope[side] + event.scope);
      next.lastCapturer = side;
      return next;
    }
    case 'HandDeclared': {
      const next = copy(state);
      const side = sideOf(state.options!, event.seat);
      const cards = new Array<Card>(event.cards.length);
      for (let k = 0; k < cards.length; k++) cards[k] = parseCard(event.cards[k]);
      next.declared = replaceAt(state.declared, event.seat, cards);
      if (event.mattaValue !== null) next.mattaValue = event.mattaValue;
      next.scope = replaceAt(state.scope, side, state.scope[side] + event.scope);
      next.bonusScope = replaceAt(state.bonusScope, side, state.bonusScope[side] + event.scope);
      return next;
    }
    case 'RoundEnded': {
      const next = copy(state);
      next.table = noCards();
      next.turn = -1;
      next.mattaValue = null; // a named value lasts until the round ends
      if (event.side !== null) {
        const before = state.captured[event.side];
        const pile = new Array<Card>(before.length + event.cards.length);
        for (let k = 0; k < before.length; k++) pile[k] = before[k];
        for (let k = 0; k < event.cards.length; k++) pile[before.length + k] = parseCard(event.cards[k]);
        next.captured = replaceAt(state.captured, event.side, pile);
      }
      return next;
    }
    case 'RoundScored': {
      const next = copy(state);
      next.scores = event.totals.slice();
      next.rounds = [...state.rounds, { round: event.round, breakdown: event.breakdown }];
      return next;
    }
    case 'SeatResigned':
    case 'SeatForfeited':
    case 'MatchAborted':
      return state;
    case 'ClockPaused':
    case 'ClockResumed': {
      const next = copy(state);
      next.clockPaused = replaceAt(state.clockPaused, event.seat, event.type === 'ClockPaused');
      return next;
    }
    case 'MatchEnded': {
      const next = copy(state, { reason: event.reason, winner: event.winner }, state.seed ?? bytesFromHex(event.seed));
      next.phase = 'over';
      next.turn = -1;
      next.scores = event.totals.slice();
      return next;
    }
    default: {
      const unknown: never = event;
      throw new TypeError(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

function played(state: MatchState, event: Extract<MatchEvent, { type: 'CardPlayed' }>): MatchState {
  const options = state.options!;
  const card = parseCard(event.card);
  const seat = event.seat;
  const hands = replaceAt(state.hands, seat, without(state.hands[seat], card));
  // A declared card stops being shown once played.
  let declared = state.declared;
  const shown = declared[seat];
  if (shown !== undefined && shown.length > 0) declared = replaceAt(declared, seat, without(shown, card));
  const table = state.table;
  const codes = event.capture;
  let nextTable: Card[];
  let captured = state.captured;
  let scope = state.scope;
  let lastCapturer = state.lastCapturer;
  if (codes.length === 0) {
    nextTable = new Array<Card>(table.length + 1);
    for (let k = 0; k < table.length; k++) nextTable[k] = table[k];
    nextTable[table.length] = card;
  } else {
    const side = sideOf(options, seat);
    const before = captured[side];
    const pile = new Array<Card>(before.length + codes.length + 1);
    for (let k = 0; k < before.length; k++) pile[k] = before[k];
    // Taken cards as a bit set over the 40 (two words: bitwise operators are 32-bit).
    let lo = 0;
    let hi = 0;
    for (let k = 0; k < codes.length; k++) {
      const c = parseCard(codes[k]);
      pile[before.length + k] = c;
      if (c < 20) lo |= 1 << c;
      else hi |= 1 << (c - 20);
    }
    pile[pile.length - 1] = card;
    let left = 0;
    for (let k = 0; k < table.length; k++) {
      const c = table[k];
      if (!((c < 20 ? lo >> c : hi >> (c - 20)) & 1)) left++;
    }
    nextTable = new Array<Card>(left);
    for (let k = 0, j = 0; k < table.length; k++) {
      const c = table[k];
      if (!((c < 20 ? lo >> c : hi >> (c - 20)) & 1)) nextTable[j++] = c;
    }
    captured = replaceAt(captured, side, pile);
    if (event.scopa) scope = replaceAt(scope, side, scope[side] + 1);
    lastCapturer = side;
  }
  // The new state last, in one literal with copy()'s field order (same shape):
  // nothing is written twice, and no store needs a write barrier.
  return {
    phase: state.phase,
    seed: state.seed,
    rulesVersion: state.rulesVersion,
    preset: state.preset,
    options,
    settings: state.settings,
    createdBy: state.createdBy,
    seedCommitment: state.seedCommitment,
    seats: state.seats,
    clientSeeds: state.clientSeeds,
    deckSeed: state.deckSeed,
    round: state.round,
    attempt: state.attempt,
    dealer: state.dealer,
    deal: state.deal,
    deck: state.deck,
    deckPos: state.deckPos,
    hands,
    table: nextTable,
    captured,
    scope,
    lastCapturer,
    declared,
    mattaValue: state.mattaValue,
    bonusScope: state.bonusScope,
    turn: (seat + 1) % options.players,
    clockPaused: state.clockPaused,
    scores: state.scores,
    rounds: state.rounds,
    result: state.result,
  };
}

/** State after the given events, from a match's seed: replay is a fold. */
export function replay(events: Iterable<MatchEvent>, seed: Uint8Array | null, from: MatchState = initialState(seed)): MatchState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}
