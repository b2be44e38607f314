import { describe, expect, it } from '@jest/globals';
import { auditEvents, decide, initialState, isCorrespondence, seatView, seedCommitment, spectatorView } from './index';
import { apply, playRandomly } from './testing';
import type { Driven } from './testing';
import { mulberry32 } from './bots/rng';
import { RULES_V4 } from './version';

const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 11 + 3);

function timedMatch(turnTimeLimit: string | null, rulesVersion?: string): Driven {
  const driven: Driven = { state: initialState(seed), events: [] };
  apply(driven, {
    type: 'create',
    preset: 'scopa',
    seats: [{ player: 'p0' }, { player: 'p1' }],
    createdBy: 'p0',
    seedCommitment: seedCommitment(seed),
    settings: { turnTimeLimit, onExpiry: 'autoPlay' },
    ...(rulesVersion ? { rulesVersion } : {}),
  });
  return driven;
}

describe('clock pauses (scopa-rules/5, vacations)', () => {
  it('a correspondence limit is a day or more', () => {
    expect(isCorrespondence('P1D')).toBe(true);
    expect(isCorrespondence('PT24H')).toBe(true);
    expect(isCorrespondence('P3D')).toBe(true);
    expect(isCorrespondence('PT23H59M59S')).toBe(false);
    expect(isCorrespondence('PT10S')).toBe(false);
    expect(isCorrespondence(null)).toBe(false);
  });

  it('pauses and resumes a seat of a correspondence match, before and during play; views show it; the log audits sound', () => {
    const m = timedMatch('P2D');
    expect(apply(m, { type: 'pauseClock', seat: 1 })).toEqual([{ type: 'ClockPaused', seat: 1 }]);
    apply(m, { type: 'start', player: 'p0' });
    expect(m.state.clockPaused).toEqual([false, true]);
    expect(seatView(m.state, 0).seats.map((s) => s.clock)).toEqual([{ paused: false }, { paused: true }]);
    expect(spectatorView(m.state).seats[1].clock).toEqual({ paused: true });
    apply(m, { type: 'pauseClock', seat: 0 });
    apply(m, { type: 'resumeClock', seat: 1 });
    expect(m.state.clockPaused).toEqual([true, false]);
    // A pause changes no play: the match plays on to its end with the seat paused, and the expiry is still decided.
    apply(m, { type: 'clockExpired', seat: m.state.turn });
    const rng = mulberry32(7);
    while (m.state.phase === 'playing') playRandomly(m, rng);
    expect(m.state.phase).toBe('over');
    const verdict = auditEvents(m.events, seed);
    expect(verdict.sound).toBe(true);
  });

  it('refuses a pause of a paused clock and a resume of a running one, so each pause has one resume', () => {
    const m = timedMatch('P1D');
    apply(m, { type: 'start', player: 'p0' });
    const resume = decide({ type: 'resumeClock', seat: 0 }, m.state);
    expect(!resume.ok && resume.rejection.code).toBe('INVALID_COMMAND');
    apply(m, { type: 'pauseClock', seat: 0 });
    const twice = decide({ type: 'pauseClock', seat: 0 }, m.state);
    expect(!twice.ok && twice.rejection.code).toBe('INVALID_COMMAND');
    const noSeat = decide({ type: 'pauseClock', seat: 2 }, m.state);
    expect(!noSeat.ok && noSeat.rejection.code).toBe('INVALID_COMMAND');
  });

  it('never pauses a live clock, an untimed match, a match over, nor a match made under scopa-rules/4', () => {
    for (const limit of ['PT1H', 'PT23H', null]) {
      const m = timedMatch(limit);
      apply(m, { type: 'start', player: 'p0' });
      const d = decide({ type: 'pauseClock', seat: 0 }, m.state);
      expect(!d.ok && d.rejection.code).toBe('INVALID_COMMAND');
    }
    const old = timedMatch('P3D', RULES_V4);
    apply(old, { type: 'start', player: 'p0' });
    const d = decide({ type: 'pauseClock', seat: 0 }, old.state);
    expect(!d.ok && d.rejection.message).toMatch(/scopa-rules\/4/);
    const over = timedMatch('P1D');
    apply(over, { type: 'start', player: 'p0' });
    apply(over, { type: 'resign', player: 'p1' });
    const late = decide({ type: 'pauseClock', seat: 0 }, over.state);
    expect(!late.ok && late.rejection.code).toBe('MATCH_OVER');
  });

  it('the audit refuses a pause the rules do not allow (a live match)', () => {
    const m = timedMatch('PT1H');
    apply(m, { type: 'start', player: 'p0' });
    const forged = [...m.events, { type: 'ClockPaused' as const, seat: 0 }];
    const verdict = auditEvents(forged, seed);
    expect(verdict).toMatchObject({ sound: false, index: forged.length - 1 });
  });
});
