import { SAMPLES } from '../../test/support/player-events';
import { pushOf } from './push-outbox';
import { PUSH_KINDS } from './push-kinds';
import { pushPayload, pushTopic, pushTtlSeconds } from './push-payloads';

describe('push payloads: public facts only, and where each opens', () => {
  it('carries only the fields its kind declares, whatever the job holds', () => {
    const p = pushPayload('yourTurn', { matchId: 'm-1', seq: 7, seat: 1, deadline: null, hand: ['1C', '7D'], serverSeed: 'x' }, new Date(0));
    expect(p).toEqual({
      v: 1,
      kind: 'yourTurn',
      matchId: 'm-1',
      data: { matchId: 'm-1', seq: 7, seat: 1, deadline: null },
      url: '/#/match/m-1',
      sentAt: '1970-01-01T00:00:00.000Z',
    });
  });

  it('opens the match, the replay (analysis), the lobby (challenge) or the tournament (a bye)', () => {
    const url = (kind: (typeof PUSH_KINDS)[number], facts: Record<string, unknown>) => pushPayload(kind, facts).url;
    expect(url('clockLow', { matchId: 'a/b' })).toBe('/#/match/a%2Fb');
    expect(url('analysisReady', { matchId: 'm', analyzer: 'ismcts/1' })).toBe('/#/replay/m');
    expect(url('challengeReceived', { challengeId: 'c', from: 'ann' })).toBe('/#/lobby');
    expect(url('tournamentRoundPaired', { tournamentId: 't', round: 2, matchId: 'm', seat: 0 })).toBe('/#/match/m');
    expect(url('tournamentRoundPaired', { tournamentId: 't', round: 2, matchId: null, seat: null })).toBe('/#/tournament/t');
  });

  it('waits at most until the deadline (or a day), and takes its match as topic', () => {
    const now = Date.parse('2026-12-04T00:00:00Z');
    const p = pushPayload('clockLow', { matchId: '0b9e6c1e-0000-4000-8000-000000000001', seq: 1, seat: 0, deadline: '2026-12-04T00:01:00Z' });
    expect(pushTtlSeconds(p, now)).toBe(60);
    expect(pushTtlSeconds(pushPayload('analysisReady', { matchId: 'm', analyzer: 'a' }), now)).toBe(24 * 3600);
    expect(pushTopic(p)).toBe('0b9e6c1e000040008000000000000001');
    expect(pushTopic(pushPayload('challengeReceived', { challengeId: 'c', from: 'ann' }))).toBeUndefined();
  });

  it('maps the player events of the push kinds, and no other', () => {
    const mapped = Object.values(SAMPLES).flatMap((event) => pushOf('ann', event) ?? []);
    expect(mapped.map((r) => r.kind).sort()).toEqual(['analysisReady', 'challengeReceived', 'clockLow', 'tournamentRoundPaired']);
    for (const r of mapped)
      expect(Object.keys(pushPayload(r.kind, r.facts as unknown as Record<string, unknown>).data).sort()).toEqual(Object.keys(r.facts).sort());
  });
});
