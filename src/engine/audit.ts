/**
 * Re-deciding a whole log: every command is rebuilt from the event that
 * starts its batch and decided again from the revealed server seed under the
 * rules version the match recorded; the events it yields must be the logged
 * ones. Under `scopa-rules/2` the deck seed is recomputed on the way from the
 * server seed and the logged client seeds, so a deal that does not follow
 * from them is found at its RoundDealt.
 */
import { canonical } from './conformance';
import { decide, initialState, evolve } from './decider';
import { seedCommitment } from './shuffle';
import type { Command, MatchEvent, MatchState, SeatSpec } from './types';
import { SUPPORTED_RULES_VERSIONS } from './version';

export type AuditVerdict = { sound: true; events: number; state: MatchState } | { sound: false; index: number; reason: string };

/** The command whose decision starts with this event, or null for an event that only follows one. */
export function commandOf(event: MatchEvent, state: MatchState): Command | null {
  switch (event.type) {
    case 'MatchCreated':
      return {
        type: 'create',
        preset: event.preset,
        overrides: { ...event.options },
        seats: event.seats.map((s): SeatSpec =>
          s.bot ? { bot: s.bot } : s.player ? { player: s.player } : s.reservedFor ? { reservedFor: s.reservedFor } : {},
        ),
        createdBy: event.createdBy,
        seedCommitment: event.seedCommitment,
        settings: event.settings,
        rulesVersion: event.rulesVersion,
      };
    case 'SeatTaken':
      return event.clientSeed === undefined
        ? { type: 'join', player: event.player, seat: event.seat }
        : { type: 'join', player: event.player, seat: event.seat, clientSeed: event.clientSeed };
    case 'ClientSeedGiven':
      return { type: 'setClientSeed', player: state.seats[event.seat]?.player ?? '', clientSeed: event.clientSeed };
    case 'MatchStarted':
      return { type: 'start', player: state.createdBy ?? '' };
    case 'CardPlayed':
      if (event.auto) return { type: 'clockExpired', seat: event.seat };
      return { type: 'play', player: state.seats[event.seat]?.player ?? '', card: event.card, capture: event.capture };
    case 'HandDeclared':
      return event.mattaValue === null
        ? { type: 'declareHand', player: state.seats[event.seat]?.player ?? '' }
        : { type: 'declareHand', player: state.seats[event.seat]?.player ?? '', mattaValue: event.mattaValue };
    case 'SeatResigned':
      return { type: 'resign', player: state.seats[event.seat]?.player ?? '' };
    case 'SeatForfeited':
      return { type: 'clockExpired', seat: event.seat };
    case 'MatchAborted':
      return { type: 'abort', player: state.seats[event.seat]?.player ?? '' };
    case 'ClockPaused':
      return { type: 'pauseClock', seat: event.seat };
    case 'ClockResumed':
      return { type: 'resumeClock', seat: event.seat };
    default:
      return null;
  }
}

export function auditEvents(events: readonly MatchEvent[], seed: Uint8Array): AuditVerdict {
  const first = events[0];
  if (!first || first.type !== 'MatchCreated') return { sound: false, index: 0, reason: 'the log does not start with MatchCreated' };
  if (!SUPPORTED_RULES_VERSIONS.includes(first.rulesVersion)) {
    return { sound: false, index: 0, reason: `rules version ${first.rulesVersion} is not implemented by this engine` };
  }
  if (seedCommitment(seed) !== first.seedCommitment) return { sound: false, index: 0, reason: 'the seed does not match the commitment' };
  let state = initialState(seed);
  let i = 0;
  while (i < events.length) {
    const command = commandOf(events[i], state);
    if (!command) return { sound: false, index: i, reason: `${events[i].type} does not follow from the command before it` };
    const decision = decide(command, state);
    if (!decision.ok) return { sound: false, index: i, reason: `${decision.rejection.code}: ${decision.rejection.message}` };
    for (let k = 0; k < decision.events.length; k++) {
      const logged = events[i + k];
      if (!logged) return { sound: false, index: i + k, reason: `missing ${decision.events[k].type}` };
      if (canonical(logged) !== canonical(decision.events[k])) {
        return { sound: false, index: i + k, reason: `${logged.type} differs from what the rules give (${decision.events[k].type})` };
      }
      state = evolve(state, logged);
    }
    i += decision.events.length;
  }
  return { sound: true, events: events.length, state };
}
