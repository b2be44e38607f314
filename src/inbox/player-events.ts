/**
 * Every event a player receives on their own channel (`playerChannel`), as
 * one closed union: the one list the transports are derived from.
 * - the NDJSON event stream (`GET /v1/stream/events`) forwards each as a line
 *   (src/streams/streams.model.ts EVENT_LINE_TYPES: `matchInPlay`,
 *   `yourTurn`, then these);
 * - GraphQL `myEvents` (graphql-ws and graphql-sse: one schema) sends each as
 *   a `PlayerEvent` whose `type` enum is PLAYER_EVENT_TYPES;
 * - a webhook, for the events that have one (PLAYER_EVENT_WEBHOOKS), carries
 *   the event itself as its payload (src/webhooks/outbox.ts).
 * A new member must be added here, and the compiler then asks for it in
 * PLAYER_EVENT_WEBHOOKS; src/inbox/player-events.spec.ts checks that every
 * transport knows every member. The names are public: never rename one.
 */

/** `matchStarted`: a match where the player holds a seat has been dealt. */
export interface MatchStartedEvent {
  type: 'matchStarted';
  matchId: string;
  /** The seq of the MatchStarted event. */
  seq: number;
  /** The player's seat. */
  seat: number;
  preset: string | null;
  /** Who sits where (bots as `bot:<level>:<seat>`). */
  players: (string | null)[];
}

/** `matchEnded`: a match where the player holds a seat is over (points, resignation, forfeit...). */
export interface MatchEndedEvent {
  type: 'matchEnded';
  matchId: string;
  /** The seq of the MatchEnded event (the last of the log). */
  seq: number;
  seat: number;
  result: { reason: string; winner: number | null; totals: number[] };
}

/** `clockLow`: less than CLOCK_LOW_FRACTION of the player's turn time is left (once per turn; src/clocks/clock-low.ts). */
export interface ClockLowEvent {
  type: 'clockLow';
  matchId: string;
  seq: number;
  seat: number;
  /** ISO time the turn clock runs out. */
  deadline: string;
}

/** `seekPaired`: a seek of the player's was paired into a new match (src/lobby/seek-pairing.ts). */
export interface SeekPairedEvent {
  type: 'seekPaired';
  seekId: string;
  matchId: string;
  seat: number;
  preset: string;
  rulesetId: string | null;
  /** Who sits where, by seat. */
  players: string[];
}

/** A challenge as the challenge events carry it (ChallengeInfo with ISO times: src/challenges). */
export type ChallengeWire = Record<string, unknown>;

/** `challengeReceived`: someone challenged the player. */
export interface ChallengeReceivedEvent {
  type: 'challengeReceived';
  challenge: ChallengeWire;
}

/** `challengeAccepted`: the player's challenge was accepted; the match is made. */
export interface ChallengeAcceptedEvent {
  type: 'challengeAccepted';
  challenge: ChallengeWire;
  matchId: string;
}

/** `challengeDeclined`: the player's challenge was declined. */
export interface ChallengeDeclinedEvent {
  type: 'challengeDeclined';
  challenge: ChallengeWire;
}

/** `challengeCanceled`: a challenge made to the player was canceled by its challenger. */
export interface ChallengeCanceledEvent {
  type: 'challengeCanceled';
  challenge: ChallengeWire;
}

/** `rematchOffered`: another player of a finished match asked for its rematch. */
export interface RematchOfferedEvent {
  type: 'rematchOffered';
  matchId: string;
  by: string;
  /** ISO time the offer lapses. */
  expiresAt: string;
}

/** `rematchDeclined`: another player declined the rematch offer. */
export interface RematchDeclinedEvent {
  type: 'rematchDeclined';
  matchId: string;
  by: string;
}

/** `rematchStarted`: every player asked; the rematch is made. */
export interface RematchStartedEvent {
  type: 'rematchStarted';
  matchId: string;
  newMatchId: string;
}

/**
 * `analysisReady`: the post-game analysis of a match is done (docs/analysis.md): sent to whoever asked for
 * it and to the match's players. Read it with GET /v1/matches/{matchId}/analysis or `analysis(matchId)`.
 */
export interface AnalysisReadyEvent {
  type: 'analysisReady';
  matchId: string;
  /** The analyzer's key, e.g. `ismcts/1`. */
  analyzer: string;
}

/**
 * `tournamentRoundPaired`: a round of a tournament the player plays in was
 * paired (docs/tournaments.md): their match (already made and started, or
 * starting once the client seeds are in), or a bye (matchId and seat null).
 */
export interface TournamentRoundPairedEvent {
  type: 'tournamentRoundPaired';
  tournamentId: string;
  round: number;
  /** The player's match this round; null for a bye or a table decided without play. */
  matchId: string | null;
  /** The player's seat in it (0 sits first), or null. */
  seat: number | null;
  /** Who sits where ([first, second]); the player alone for a bye. */
  players: string[];
}

/** A chat message as a direct message carries it (src/chat: id, room, author, text, sentAt as ISO time). */
export interface ChatMessageWire {
  id: string;
  room: { kind: 'direct'; id: null; matchRoom: null; participants: string[] };
  author: string;
  text: string;
  sentAt: string;
}

/** `directMessage`: another player sent the player a direct message (docs/social.md "Chat"); plain text, never markup. */
export interface DirectMessageEvent {
  type: 'directMessage';
  message: ChatMessageWire;
}

/** One event on a player's channel. Closed: a switch over `type` is exhaustive. */
export type PlayerEvent =
  | MatchStartedEvent
  | MatchEndedEvent
  | ClockLowEvent
  | SeekPairedEvent
  | ChallengeReceivedEvent
  | ChallengeAcceptedEvent
  | ChallengeDeclinedEvent
  | ChallengeCanceledEvent
  | RematchOfferedEvent
  | RematchDeclinedEvent
  | RematchStartedEvent
  | AnalysisReadyEvent
  | TournamentRoundPairedEvent
  | DirectMessageEvent;

export type PlayerEventType = PlayerEvent['type'];

/**
 * The webhook that carries each player event (its payload: the event without
 * `type`, plus `player` where it says so), or null for an event no webhook
 * carries. `satisfies` makes the compiler ask for every member. The two
 * webhooks of the append itself, `your_turn` and `match_finished`, are
 * written by its statement (src/webhooks/outbox.ts APPEND_WEBHOOKS).
 */
export const PLAYER_EVENT_WEBHOOKS = {
  matchStarted: null,
  matchEnded: null,
  clockLow: { webhook: 'clock_low', player: true },
  seekPaired: { webhook: 'match_started', player: true },
  challengeReceived: { webhook: 'challenge_received', player: false },
  challengeAccepted: { webhook: 'challenge_accepted', player: false },
  challengeDeclined: { webhook: 'challenge_declined', player: false },
  challengeCanceled: null,
  rematchOffered: null,
  rematchDeclined: null,
  rematchStarted: null,
  analysisReady: { webhook: 'analysis_ready', player: true },
  tournamentRoundPaired: { webhook: 'tournament_round_paired', player: true },
  directMessage: null,
} as const satisfies Record<PlayerEventType, { webhook: string; player: boolean } | null>;

/** Every member's `type`, in the order of the union. */
export const PLAYER_EVENT_TYPES = Object.keys(PLAYER_EVENT_WEBHOOKS) as PlayerEventType[];
