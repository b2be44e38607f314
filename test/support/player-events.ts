/** One sample of each player event (src/inbox/player-events.ts), for the specs that check every transport knows every member. */
import type { PlayerEvent, PlayerEventType } from '../../src/inbox/player-events';

/** One of each member: the compiler asks for a new one here. */
export const SAMPLES: { [T in PlayerEventType]: Extract<PlayerEvent, { type: T }> } = {
  matchStarted: { type: 'matchStarted', matchId: 'm', seq: 3, seat: 0, preset: 'scopa', players: ['a', 'b'] },
  matchEnded: { type: 'matchEnded', matchId: 'm', seq: 40, seat: 0, result: { reason: 'points', winner: 0, totals: [11, 8] } },
  clockLow: { type: 'clockLow', matchId: 'm', seq: 7, seat: 1, deadline: '2026-01-01T00:00:00.000Z' },
  seekPaired: { type: 'seekPaired', seekId: 's', matchId: 'm', seat: 1, preset: 'scopa', rulesetId: null, players: ['a', 'b'] },
  challengeReceived: { type: 'challengeReceived', challenge: { id: 'c' } },
  challengeAccepted: { type: 'challengeAccepted', challenge: { id: 'c' }, matchId: 'm' },
  challengeDeclined: { type: 'challengeDeclined', challenge: { id: 'c' } },
  challengeCanceled: { type: 'challengeCanceled', challenge: { id: 'c' } },
  rematchOffered: { type: 'rematchOffered', matchId: 'm', by: 'a', expiresAt: '2026-01-01T00:05:00.000Z' },
  rematchDeclined: { type: 'rematchDeclined', matchId: 'm', by: 'a' },
  rematchStarted: { type: 'rematchStarted', matchId: 'm', newMatchId: 'n' },
  analysisReady: { type: 'analysisReady', matchId: 'm', analyzer: 'ismcts/1' },
  tournamentRoundPaired: { type: 'tournamentRoundPaired', tournamentId: 't', round: 1, matchId: 'm', seat: 0, players: ['a', 'b'] },
  directMessage: {
    type: 'directMessage',
    message: {
      id: 'c',
      room: { kind: 'direct', id: null, matchRoom: null, participants: ['a', 'b'] },
      author: 'b',
      text: 'hi',
      sentAt: '2026-01-01T00:00:00.000Z',
    },
  },
};
