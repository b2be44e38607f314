import { describe, expect, it } from '@jest/globals';
import { auditEvents, decide, initialState, legalPlayCodesInView, seatView, seedCommitment } from './index';
import { apply, startedMatch } from './testing';
import type { Driven } from './testing';
import { RULES_V2 } from './version';

const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);

function openMatch(): Driven {
  const driven: Driven = { state: initialState(seed), events: [] };
  apply(driven, { type: 'create', preset: 'scopa', seats: [{ player: 'p0' }, {}], createdBy: 'p0', seedCommitment: seedCommitment(seed) });
  return driven;
}

describe('abort (scopa-rules/3)', () => {
  it('ends a started match before its first play with no winner, and the log audits sound', () => {
    const m = startedMatch(seed, 'scopa');
    const events = apply(m, { type: 'abort', player: 'p1' });
    expect(events.map((e) => e.type)).toEqual(['MatchAborted', 'MatchEnded']);
    expect(events[1]).toMatchObject({ reason: 'aborted', winner: null, totals: [0, 0] });
    expect(m.state.phase).toBe('over');
    expect(auditEvents(m.events, seed)).toMatchObject({ sound: true });
  });

  it('ends an open match too (a seated player), and refuses a player with no seat', () => {
    const m = openMatch();
    const stranger = decide({ type: 'abort', player: 'zed' }, m.state);
    expect(stranger.ok ? null : stranger.rejection.code).toBe('NOT_SEATED');
    apply(m, { type: 'abort', player: 'p0' });
    expect(m.state.phase).toBe('over');
    expect(auditEvents(m.events, seed)).toMatchObject({ sound: true });
  });

  it('is refused after the first play (ABORT_TOO_LATE), and once over (MATCH_OVER)', () => {
    const m = startedMatch(seed, 'scopa');
    const seat = m.state.turn;
    const [first] = legalPlayCodesInView(seatView(m.state, seat));
    apply(m, { type: 'play', player: `p${seat}`, card: first.card, capture: first.capture });
    const late = decide({ type: 'abort', player: 'p0' }, m.state);
    expect(late.ok ? null : late.rejection.code).toBe('ABORT_TOO_LATE');
    const over = startedMatch(seed, 'scopa');
    apply(over, { type: 'resign', player: 'p0' });
    const after = decide({ type: 'abort', player: 'p1' }, over.state);
    expect(after.ok ? null : after.rejection.code).toBe('MATCH_OVER');
  });

  it('is refused in a scopa-rules/2 match, whose logs never hold one', () => {
    const m = startedMatch(seed, 'scopa', {}, undefined, { rulesVersion: RULES_V2 });
    const d = decide({ type: 'abort', player: 'p0' }, m.state);
    expect(d.ok ? null : d.rejection.code).toBe('ABORT_TOO_LATE');
  });
});
