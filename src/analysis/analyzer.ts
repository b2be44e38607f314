/**
 * Post-game analysis of a finished match (docs/analysis.md): for every
 * decision of every seat, every legal option valued from that seat's view
 * (./option-values.ts), the option played against the best one, the loss and its
 * class; per seat, the total loss, an accuracy and the costliest decisions.
 *
 * Decisions: each play (CardPlayed, auto-plays included and marked), and
 * where the ruleset has hand declarations (cirulla), each declaration window
 * the seat had: declaring (with each matta value that scores) or not
 * declaring, at the seq of the HandDeclared, or of the play that closed the
 * window unused.
 *
 * Pure: the input is the log (its seed is revealed by MatchEnded, so every
 * state can be folded), the output a plain object; randomness is a mulberry32
 * seeded from the match id, the seq, the decision's kind and the analyzer
 * key, so the same request reproduces the same numbers. The analysis is a
 * generator yielding its progress after each decision, so that a worker can
 * publish it and let its event loop breathe.
 */
import { cardCode, cardCodes } from '../engine/cards';
import type { CardCode } from '../engine/cards';
import { evolve, initialState } from '../engine/decider';
import { hasDeclarations, sideOf } from '../engine/options';
import { seedFromHex } from '../engine/shuffle';
import type { MatchEvent, MatchState } from '../engine/types';
import { declarationsInView, legalPlaysInView, seatView } from '../engine/views';
import { mulberry32 } from '../engine/bots/rng';
import { drain, evaluateMovesSteps } from './option-values';
import type { Method, Move, SearchBudget } from './option-values';

export const ANALYZER_NAME = 'ismcts';
/** Bumped whenever a change to the analyzer can change its numbers: a new version is a new analysis. */
export const ANALYZER_VERSION = 1;

/** The default budget (docs/analysis.md): what `ANALYSIS_ITERATIONS` leaves it at. */
export const DEFAULT_ANALYSIS_BUDGET: SearchBudget = { iterationsPerOption: 1000, exploration: 2.5 };

export const DECISION_CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type DecisionClass = (typeof DECISION_CLASSES)[number];

/**
 * Loss thresholds in round points (best value minus the value of the option
 * played): a loss up to `best` is the best option (or as good as the search
 * can tell), below `good` good, below `inaccuracy` an inaccuracy, below
 * `mistake` a mistake, from `mistake` on a blunder. A settebello given away
 * or a missed scopa is worth about a point: a mistake at least.
 */
export const CLASS_THRESHOLDS = { best: 0.05, good: 0.25, inaccuracy: 0.5, mistake: 1 } as const;

export function classOf(loss: number): DecisionClass {
  if (loss <= CLASS_THRESHOLDS.best) return 'best';
  if (loss < CLASS_THRESHOLDS.good) return 'good';
  if (loss < CLASS_THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (loss < CLASS_THRESHOLDS.mistake) return 'mistake';
  return 'blunder';
}

/**
 * Accuracy of a seat, 0 to 100: the mean over its decisions that had a choice
 * of 100 × 2^(−loss), every point lost halving a decision's share (a loss of
 * 0.25 scores 84, 0.5 scores 71, 1 scores 50, 2 scores 25); 100 when it had
 * no choice to make.
 */
export function accuracyOf(losses: readonly number[]): number {
  if (losses.length === 0) return 100;
  let sum = 0;
  for (const loss of losses) sum += 100 * Math.pow(2, -loss);
  return round(sum / losses.length, 1);
}

export interface AnalyzerInfo {
  name: string;
  version: number;
  /** `name/version`, e.g. `ismcts/1`. */
  id: string;
  budget: SearchBudget;
  /** What identifies one analysis of a match: the id and the budget (one analysis per match and key). */
  key: string;
}

export function analyzerInfo(budget: SearchBudget = DEFAULT_ANALYSIS_BUDGET): AnalyzerInfo {
  const id = `${ANALYZER_NAME}/${ANALYZER_VERSION}`;
  const standard = budget.iterationsPerOption === DEFAULT_ANALYSIS_BUDGET.iterationsPerOption && budget.exploration === DEFAULT_ANALYSIS_BUDGET.exploration;
  return {
    name: ANALYZER_NAME,
    version: ANALYZER_VERSION,
    id,
    budget: { ...budget },
    key: standard ? id : `${id}?iterations=${budget.iterationsPerOption}&exploration=${budget.exploration}`,
  };
}

/** The analyzer a key names (the budget it carries); a key of another analyzer or version throws. */
export function analyzerFromKey(key: string): AnalyzerInfo {
  const [id, query = ''] = key.split('?');
  if (id !== `${ANALYZER_NAME}/${ANALYZER_VERSION}`) throw new RangeError(`this worker runs ${ANALYZER_NAME}/${ANALYZER_VERSION}, not ${id}`);
  const params = new URLSearchParams(query);
  const iterations = Number(params.get('iterations') ?? DEFAULT_ANALYSIS_BUDGET.iterationsPerOption);
  const exploration = Number(params.get('exploration') ?? DEFAULT_ANALYSIS_BUDGET.exploration);
  if (!Number.isInteger(iterations) || iterations < 1 || !Number.isFinite(exploration)) throw new RangeError(`bad analyzer key ${key}`);
  return analyzerInfo({ iterationsPerOption: iterations, exploration });
}

/** An option as the analysis reports it. */
export type AnalysisOption =
  | { type: 'play'; card: CardCode; capture: CardCode[]; scopa: boolean }
  | { type: 'declare'; mattaValue: number | null; points: number }
  | { type: 'noDeclaration' };

export interface OptionValue {
  option: AnalysisOption;
  /** Expected round point difference for the seat's side (its round points minus the best other side's) at the round's end. */
  value: number;
}

export interface DecisionAnalysis {
  /** Seq of the event that made the decision (CardPlayed, HandDeclared; for a window left unused, the play that closed it). */
  seq: number;
  round: number;
  seat: number;
  side: number;
  player: string | null;
  kind: 'play' | 'declaration';
  /** `exact`: full search, nothing hidden (2 players, last deal); `search`: determinized search. */
  method: Method;
  /** Only one legal option: not counted in the seat's accuracy or loss. */
  forced: boolean;
  /** The server played it when the turn clock ran out. */
  auto: boolean;
  /** Every legal option, best first. */
  options: OptionValue[];
  /** Index in `options` of the one played. */
  played: number;
  /** Index in `options` of the best (0). */
  best: number;
  playedValue: number;
  bestValue: number;
  /** bestValue − playedValue (≥ 0). */
  loss: number;
  class: DecisionClass;
}

export interface SeatAnalysis {
  seat: number;
  side: number;
  player: string | null;
  /** Decisions with a choice (forced ones left out). */
  decisions: number;
  totalLoss: number;
  accuracy: number;
  classes: Record<DecisionClass, number>;
  /** The three costliest decisions (largest loss first, loss above 0 only). */
  costliest: { seq: number; kind: 'play' | 'declaration'; loss: number; class: DecisionClass }[];
}

export interface MatchAnalysis {
  matchId: string;
  analyzer: AnalyzerInfo;
  decisions: DecisionAnalysis[];
  players: SeatAnalysis[];
}

export interface LoggedEvent {
  seq: number;
  event: MatchEvent;
}

export interface AnalysisProgress {
  done: number;
  total: number;
}

/** A decision point found in the log, before its evaluation. */
export interface Point {
  seq: number;
  state: MatchState;
  seat: number;
  kind: 'play' | 'declaration';
  moves: Move[];
  played: number;
  /** The seat plays without declaring: its window closes with the play. */
  closeWindow: boolean;
  auto: boolean;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c) => b.includes(c));

/** The decision points of a finished log, each with the state just before it. */
export function decisionPoints(events: readonly LoggedEvent[]): Point[] {
  const last = events[events.length - 1]?.event;
  if (!last || last.type !== 'MatchEnded') throw new RangeError('only a finished match can be analysed');
  let state = initialState(seedFromHex(last.seed));
  const points: Point[] = [];
  for (let i = 0; i < events.length; i++) {
    const { seq, event } = events[i];
    if (event.type === 'HandDeclared' || event.type === 'CardPlayed') {
      const seat = event.seat;
      const view = seatView(state, seat);
      const open = declarationsInView(view);
      if (open.length > 0) {
        // The declaration window: declaring with each value that scores, or not declaring.
        const moves: Move[] = [{ kind: 'pass' }, ...open.map((declaration): Move => ({ kind: 'declare', declaration }))];
        const played = event.type === 'HandDeclared' ? moves.findIndex((m) => m.kind === 'declare' && m.declaration.mattaValue === event.mattaValue) : 0;
        if (played < 0) throw new RangeError(`seq ${seq}: the declaration is not among the legal ones`);
        points.push({ seq, state, seat, kind: 'declaration', moves, played, closeWindow: false, auto: false });
      }
      if (event.type === 'CardPlayed') {
        const plays = legalPlaysInView(view);
        const played = plays.findIndex((p) => cardCode(p.card) === event.card && sameSet(cardCodes(p.capture), event.capture));
        if (played < 0) throw new RangeError(`seq ${seq}: the play is not among the legal ones`);
        points.push({
          seq,
          state,
          seat,
          kind: 'play',
          moves: plays.map((play): Move => ({ kind: 'play', play })),
          played,
          closeWindow: open.length > 0,
          auto: event.auto,
        });
      }
    }
    state = evolve(state, event);
  }
  return points;
}

/**
 * The decisions an analysis of this finished log evaluates (its `total`): what ANALYSIS_MAX_DECISIONS bounds.
 * Without hand declarations in the rules there is one decision per play and no window to find: counted without a
 * replay (a replay of a 6-player match to 100 takes half a second of the event loop).
 */
export function decisionCount(events: readonly LoggedEvent[]): number {
  const created = events.find((e) => e.event.type === 'MatchCreated')?.event;
  if (created?.type === 'MatchCreated' && !hasDeclarations(created.options) && events[events.length - 1]?.event.type === 'MatchEnded') {
    return events.reduce((n, e) => n + (e.event.type === 'CardPlayed' ? 1 : 0), 0);
  }
  return decisionPoints(events).length;
}

/**
 * The decision point of the seat to move in `state` choosing `chosen` (a play,
 * or for the declaration window a declaration or `noDeclaration`): for tests
 * and tools that value one position.
 */
export function decisionAt(state: MatchState, seq: number, chosen: AnalysisOption): Point {
  const seat = state.turn;
  const view = seatView(state, seat);
  const open = declarationsInView(view);
  if (chosen.type === 'play') {
    const plays = legalPlaysInView(view);
    const played = plays.findIndex((p) => cardCode(p.card) === chosen.card && sameSet(cardCodes(p.capture), chosen.capture));
    if (played < 0) throw new RangeError('not a legal play');
    return { seq, state, seat, kind: 'play', moves: plays.map((play): Move => ({ kind: 'play', play })), played, closeWindow: open.length > 0, auto: false };
  }
  const moves: Move[] = [{ kind: 'pass' }, ...open.map((declaration): Move => ({ kind: 'declare', declaration }))];
  const played = chosen.type === 'noDeclaration' ? 0 : moves.findIndex((m) => m.kind === 'declare' && m.declaration.mattaValue === chosen.mattaValue);
  if (open.length === 0 || played < 0) throw new RangeError('not a legal declaration');
  return { seq, state, seat, kind: 'declaration', moves, played, closeWindow: false, auto: false };
}

/** FNV-1a of a string: the seed of one decision's search. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

function optionOf(move: Move): AnalysisOption {
  if (move.kind === 'play') return { type: 'play', card: cardCode(move.play.card), capture: cardCodes(move.play.capture), scopa: move.play.scopa };
  if (move.kind === 'declare') return { type: 'declare', mattaValue: move.declaration.mattaValue, points: move.declaration.points };
  return { type: 'noDeclaration' };
}

type DecisionPoint = Pick<Point, 'seq' | 'state' | 'seat' | 'kind' | 'moves' | 'played' | 'closeWindow' | 'auto'>;

/** One decision: every option valued from the seat's view of `state` (nothing else of the state is read). */
export function analyzeDecision(matchId: string, point: DecisionPoint, analyzer: AnalyzerInfo): DecisionAnalysis {
  return drain(analyzeDecisionSteps(matchId, point, analyzer));
}

/** analyzeDecision, pausing (yielding) between slices of its search. */
export function* analyzeDecisionSteps(matchId: string, point: DecisionPoint, analyzer: AnalyzerInfo): Generator<void, DecisionAnalysis, void> {
  const { state, seat } = point;
  const view = seatView(state, seat);
  const rng = mulberry32(seedOf(`${matchId}:${point.seq}:${point.kind}:${analyzer.key}`));
  const { method, values } = yield* evaluateMovesSteps(view, point.moves, rng, analyzer.budget, point.closeWindow);
  const order = point.moves.map((_, i) => i).sort((a, b) => values[b] - values[a] || a - b);
  const options = order.map((i) => ({ option: optionOf(point.moves[i]), value: round(values[i]) }));
  const played = order.indexOf(point.played);
  const bestValue = options[0].value;
  const playedValue = options[played].value;
  const loss = round(Math.max(0, bestValue - playedValue));
  return {
    seq: point.seq,
    round: state.round,
    seat,
    side: sideOf(state.options!, seat),
    player: state.seats[seat]?.player ?? null,
    kind: point.kind,
    method,
    forced: point.moves.length === 1,
    auto: point.auto,
    options,
    played,
    best: 0,
    playedValue,
    bestValue,
    loss,
    class: classOf(loss),
  };
}

function seatSummaries(state: MatchState, decisions: readonly DecisionAnalysis[]): SeatAnalysis[] {
  return state.seats.map((s, seat) => {
    const mine = decisions.filter((d) => d.seat === seat && !d.forced);
    const classes = Object.fromEntries(DECISION_CLASSES.map((c) => [c, 0])) as Record<DecisionClass, number>;
    for (const d of mine) classes[d.class]++;
    const costliest = mine
      .filter((d) => d.loss > 0)
      .sort((a, b) => b.loss - a.loss || a.seq - b.seq)
      .slice(0, 3)
      .map((d) => ({ seq: d.seq, kind: d.kind, loss: d.loss, class: d.class }));
    return {
      seat,
      side: sideOf(state.options!, seat),
      player: s.player,
      decisions: mine.length,
      totalLoss: round(mine.reduce((sum, d) => sum + d.loss, 0)),
      accuracy: accuracyOf(mine.map((d) => d.loss)),
      classes,
      costliest,
    };
  });
}

/**
 * The analysis, one decision at a time: yields the progress after each decision and between slices of a
 * decision's search (a few milliseconds apart: a worker gives its event loop a turn at each), returns the result.
 */
export function* analyzeMatchSteps(
  matchId: string,
  events: readonly LoggedEvent[],
  analyzer: AnalyzerInfo = analyzerInfo(),
): Generator<AnalysisProgress, MatchAnalysis, void> {
  const points = decisionPoints(events);
  const decisions: DecisionAnalysis[] = [];
  yield { done: 0, total: points.length };
  for (const point of points) {
    const steps = analyzeDecisionSteps(matchId, point, analyzer);
    for (;;) {
      const next = steps.next();
      if (next.done) {
        decisions.push(next.value);
        break;
      }
      yield { done: decisions.length, total: points.length };
    }
    yield { done: decisions.length, total: points.length };
  }
  let final = initialState(null);
  for (const { event } of events) if (event.type === 'MatchCreated' || event.type === 'SeatTaken') final = evolve(final, event);
  return { matchId, analyzer, decisions, players: seatSummaries(final, decisions) };
}

/** The whole analysis at once (tests, tools). */
export function analyzeMatch(matchId: string, events: readonly LoggedEvent[], analyzer: AnalyzerInfo = analyzerInfo()): MatchAnalysis {
  const steps = analyzeMatchSteps(matchId, events, analyzer);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
