/** Commands, events and state of one match: the decider's vocabulary. */
import type { Card, CardCode } from './cards';
import type { PresetId, RulesetOptions } from './options';
import type { RoundBreakdown } from './scoring';

export const BOT_LEVELS = ['random', 'greedy', 'ismcts'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** What happens when a seat's turn clock runs out. */
export type ExpiryPolicy = 'autoPlay' | 'forfeit';

export interface MatchSettings {
  /** ISO 8601 duration per turn, or null for no clock. The engine only records it. */
  turnTimeLimit: string | null;
  onExpiry: ExpiryPolicy;
  /** A rated match (ratings are a projection of such logs); absent means unrated. */
  rated?: boolean;
  /** The players' chat room (src/chat): `off` closes it; absent means `players` (the logs of earlier matches stay as they were). The chat itself is never in the log. */
  chat?: 'players' | 'off';
}

/** How a seat starts: open, reserved for one player, taken, or held by a bot. */
export interface SeatSpec {
  player?: string;
  reservedFor?: string;
  bot?: BotLevel;
}

export interface Seat {
  /** Who sits here (a bot's id is `bot:<level>:<seat>`), or null while open. */
  player: string | null;
  reservedFor: string | null;
  bot: BotLevel | null;
}

// ---------------------------------------------------------------- commands

export type Command =
  | {
      type: 'create';
      preset: string;
      overrides?: Record<string, unknown>;
      seats: SeatSpec[];
      createdBy: string;
      seedCommitment: string;
      settings?: Partial<MatchSettings>;
      /** Only to re-decide an old log (the audit): new matches take RULES_VERSION. */
      rulesVersion?: string;
    }
  /** `clientSeed` (hex, 1 to 64 bytes): the seat's client seed, given with the join (`scopa-rules/2`). */
  | { type: 'join'; player: string; seat?: number; clientSeed?: string }
  /** A seated human gives its client seed, once, before the start (`scopa-rules/2`; see client-seeds.ts). */
  | { type: 'setClientSeed'; player: string; clientSeed: string }
  | { type: 'start'; player: string }
  | { type: 'play'; player: string; card: CardCode; capture: CardCode[] }
  /**
   * A hand declaration (cirulla, `scopa-rules/4`): on the seat's first turn
   * after a deal, before it plays. `mattaValue` (1..10) is required when the
   * hand holds the matta, absent (or null) otherwise.
   */
  | { type: 'declareHand'; player: string; mattaValue?: number | null }
  | { type: 'resign'; player: string }
  /** A seated player calls the match off before its first play (`scopa-rules/3`): no result, never rated. */
  | { type: 'abort'; player: string }
  | { type: 'clockExpired'; seat: number }
  /**
   * The seat's turn clock stands still (`scopa-rules/5`: its player went on
   * vacation) / runs again. Only a correspondence match's clock (a turn limit
   * of a day or more, CORRESPONDENCE_SECONDS) pauses; issued by the service,
   * never by a player. The time left is the clocks' (the service keeps it
   * beside the deadline): the engine records only that the clock is paused.
   */
  | { type: 'pauseClock'; seat: number }
  | { type: 'resumeClock'; seat: number };

// ---------------------------------------------------------------- events

/** `aborted`: called off before the first play (MatchAborted): no winner, no result for the ratings. */
export type EndReason = 'points' | 'allDenari' | 'resignation' | 'forfeit' | 'aborted';

/**
 * Every event is public: hands and the deck order never appear in one (they
 * follow from the seed, which only MatchEnded reveals), so a log can be shown
 * to anybody and hashed without leaking hidden cards.
 */
export type MatchEvent =
  | {
      type: 'MatchCreated';
      rulesVersion: string;
      preset: PresetId;
      options: RulesetOptions;
      seats: Seat[];
      createdBy: string;
      seedCommitment: string;
      settings: MatchSettings;
    }
  /** `clientSeed` only when the join gave one (public: lowercase hex). */
  | { type: 'SeatTaken'; seat: number; player: string; clientSeed?: string }
  /** A seat's client seed (public at once, lowercase hex); the deal mixes it in at the start. */
  | { type: 'ClientSeedGiven'; seat: number; clientSeed: string }
  | { type: 'MatchStarted' }
  /** A round's first deal; the table is face up. A later RoundDealt with the next attempt voids it (redeal on kings). */
  | { type: 'RoundDealt'; round: number; attempt: number; dealer: number; table: CardCode[] }
  /** Fresh hands from the deck (deal 1, 2, ... of the round; deal 0 comes with RoundDealt). */
  | { type: 'HandsDealt'; round: number; deal: number }
  /**
   * The dealer's side takes the initial table (`initialTableCapture`, `scopa-rules/4`), right after
   * the RoundDealt that stands: `scope` scope for it, and it counts as the last to capture.
   */
  | { type: 'InitialTableCaptured'; dealer: number; side: number; cards: CardCode[]; scope: number }
  /**
   * A hand declaration (`scopa-rules/4`): the seat's three cards, public from now until each is
   * played; the value named for the matta (null: the hand holds none); the scope its side scores.
   */
  | { type: 'HandDeclared'; seat: number; cards: CardCode[]; mattaValue: number | null; scope: number }
  | { type: 'CardPlayed'; seat: number; card: CardCode; capture: CardCode[]; scopa: boolean; auto: boolean }
  /** End of the round's plays: the last side to capture takes what is left (null: nobody captured). */
  | { type: 'RoundEnded'; round: number; side: number | null; cards: CardCode[] }
  | { type: 'RoundScored'; round: number; breakdown: RoundBreakdown; totals: number[] }
  | { type: 'SeatResigned'; seat: number }
  | { type: 'SeatForfeited'; seat: number }
  /** The seat that called the match off before its first play; a MatchEnded (reason `aborted`) follows. */
  | { type: 'MatchAborted'; seat: number }
  /** The seat's turn clock stands still from here (`scopa-rules/5`), until ClockResumed. */
  | { type: 'ClockPaused'; seat: number }
  | { type: 'ClockResumed'; seat: number }
  | { type: 'MatchEnded'; reason: EndReason; winner: number | null; totals: number[]; seed: string };

// ---------------------------------------------------------------- state

export type Phase = 'new' | 'open' | 'playing' | 'over';

export interface MatchResult {
  reason: EndReason;
  /** Winning side, or null for a draw. */
  winner: number | null;
}

export interface RoundRecord {
  round: number;
  breakdown: RoundBreakdown;
}

/**
 * The folded state. `seed`, `deckSeed` and `deck` are secret: views never
 * copy them before the match is over.
 */
export interface MatchState {
  readonly phase: Phase;
  /** The server seed (its SHA-256 is the commitment in MatchCreated). */
  readonly seed: Uint8Array | null;
  readonly rulesVersion: string;
  readonly preset: PresetId | null;
  readonly options: RulesetOptions | null;
  readonly settings: MatchSettings;
  readonly createdBy: string | null;
  readonly seedCommitment: string | null;
  readonly seats: readonly Seat[];
  /** Client seed per seat (lowercase hex), null where none was given: public. */
  readonly clientSeeds: readonly (string | null)[];
  /** The seed every deck follows from, set at the start (client-seeds.ts deckSeedOf). */
  readonly deckSeed: Uint8Array | null;
  readonly round: number;
  readonly attempt: number;
  readonly dealer: number;
  /** Next deal of this round (1 after the first). */
  readonly deal: number;
  readonly deck: Uint8Array | null;
  /** Index in `deck` of the next card to deal. */
  readonly deckPos: number;
  readonly hands: readonly (readonly Card[])[];
  readonly table: readonly Card[];
  /** Cards captured this round, per side. */
  readonly captured: readonly (readonly Card[])[];
  /** Scope this round, per side. */
  readonly scope: readonly number[];
  readonly lastCapturer: number | null;
  /** Per seat, the cards of its hand declaration still in its hand (public): empty without one. */
  readonly declared: readonly (readonly Card[])[];
  /** The capture value a declaration named for the matta, until the round ends; null: none named. */
  readonly mattaValue: number | null;
  /** Scope this round per side from the initial-table capture and hand declarations (part of `scope`). */
  readonly bonusScope: readonly number[];
  /** Seat to move, or -1. */
  readonly turn: number;
  /** Per seat, whether its turn clock is paused (ClockPaused, `scopa-rules/5`); all false before. */
  readonly clockPaused: readonly boolean[];
  /** Match points per side. */
  readonly scores: readonly number[];
  readonly rounds: readonly RoundRecord[];
  readonly result: MatchResult | null;
}
