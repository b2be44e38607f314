/**
 * Why the engine refuses a command. A rejection is a value, never a thrown
 * exception: transports map these codes once (GraphQL extensions, REST
 * problem+json).
 */
export type RejectionCode =
  /** The create command names an unknown preset or a bad option (`option` says which). */
  | 'INVALID_RULESET'
  /** The command is malformed (missing or mistyped fields). */
  | 'INVALID_COMMAND'
  /** A match already exists in this state (create sent twice). */
  | 'MATCH_EXISTS'
  /** The command needs a created match. */
  | 'MATCH_NOT_CREATED'
  /** Seats can be taken and the match started only before it starts. */
  | 'MATCH_ALREADY_STARTED'
  /** Plays, resignations and clock expiries need a match in play. */
  | 'MATCH_NOT_STARTED'
  | 'MATCH_OVER'
  /** The seat asked for is taken, reserved for someone else, or does not exist. */
  | 'SEAT_UNAVAILABLE'
  /** Every seat is taken. */
  | 'MATCH_FULL'
  | 'ALREADY_SEATED'
  /** Start needs every seat filled. */
  | 'SEATS_NOT_FILLED'
  /** The acting player holds no seat in this match (or may not start it, or holds a bot seat for a client seed). */
  | 'NOT_SEATED'
  | 'NOT_YOUR_TURN'
  /** A client seed is not 1 to 64 bytes of hex. */
  | 'INVALID_CLIENT_SEED'
  /** The seat already gave its client seed (once per seat: the log keeps one seed per seat). */
  | 'CLIENT_SEED_ALREADY_GIVEN'
  /** An abort after the first play (resign instead), or in a match whose rules version has no abort. */
  | 'ABORT_TOO_LATE'
  /** The play breaks a rule; `reason` says which. */
  | 'ILLEGAL_PLAY'
  /** A hand declaration the rules do not allow now (`scopa-rules/4`); `reason` says why. */
  | 'DECLARATION_NOT_ALLOWED';

export type IllegalPlayReason =
  /** Not one of the 40 card codes. */
  | 'UNKNOWN_CARD'
  | 'CARD_NOT_IN_HAND'
  /** A capture names a card that is not on the table, or a card twice. */
  | 'CAPTURE_NOT_ON_TABLE'
  /** The card was laid although it can capture (contract step 5). */
  | 'MUST_CAPTURE'
  /** The cards named are on the table but are not a legal capture for this card. */
  | 'CAPTURE_NOT_LEGAL';

export type DeclarationReason =
  /** The ruleset has no hand declarations (`lowHandBonus` and `tripleBonus` are 0). */
  | 'NO_DECLARATIONS'
  /** The seat already played a card of this deal's hand: the window closed. */
  | 'WINDOW_CLOSED'
  /** This deal's hand is already declared (once per deal). */
  | 'ALREADY_DECLARED'
  /** The hand holds the matta and no `mattaValue` was given. */
  | 'MATTA_VALUE_MISSING'
  /** `mattaValue` is not an integer from 1 to 10. */
  | 'MATTA_VALUE_OUT_OF_RANGE'
  /** A `mattaValue` for a hand without the matta. */
  | 'MATTA_VALUE_NOT_EXPECTED'
  /** The hand (the matta counted as named) is neither triple nor low: it scores nothing. */
  | 'HAND_DOES_NOT_QUALIFY';

export interface Rejection {
  code: RejectionCode;
  message: string;
  reason?: IllegalPlayReason | DeclarationReason;
  /** For INVALID_RULESET: the option at fault. */
  option?: string;
}

export function reject(code: RejectionCode, message: string, extra: Partial<Rejection> = {}): Rejection {
  return { code, message, ...extra };
}
