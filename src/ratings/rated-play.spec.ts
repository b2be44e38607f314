import { RATED_PLAY_RULE, suspendedUntil } from './rated-play';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
const m = (minutes: number, leftEarly: boolean) => ({ endedAt: at(minutes), leftEarly });

describe('the rated-play suspension rule', () => {
  it('is documented as: more than 3 of the last 10 dealt rated matches left early, one hour from the latest', () => {
    expect(RATED_PLAY_RULE).toEqual({ recent: 10, maxLeftEarly: 3, suspensionMs: 3_600_000 });
  });

  it('three leavings do not suspend; the fourth does, until an hour after the latest', () => {
    const three = [m(0, true), m(1, true), m(2, true), m(3, false)];
    expect(suspendedUntil(three, at(4))).toBeNull();
    const four = [...three, m(5, true)];
    expect(suspendedUntil(four, at(6))).toEqual(at(65));
    // Any order in, the latest leaving decides.
    expect(suspendedUntil([...four].reverse(), at(6))).toEqual(at(65));
  });

  it('ends when the time is over', () => {
    const four = [m(0, true), m(1, true), m(2, true), m(5, true)];
    expect(suspendedUntil(four, at(64))).toEqual(at(65));
    expect(suspendedUntil(four, at(65))).toBeNull();
  });

  it('looks at the last ten matches only: older leavings fall out', () => {
    const old = [m(0, true), m(1, true), m(2, true), m(3, true)];
    const since = Array.from({ length: 7 }, (_, i) => m(10 + i, false));
    expect(suspendedUntil([...old, ...since], at(20))).toBeNull(); // 3 of the last 10
    expect(suspendedUntil([...old, ...since.slice(0, 6)], at(20))).toEqual(at(63)); // 4 of the last 10
  });
});
