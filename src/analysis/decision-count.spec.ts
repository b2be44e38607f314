/**
 * decisionCount (what ANALYSIS_MAX_DECISIONS bounds, counted at request time) is the number of decisions the
 * analysis evaluates: without hand declarations counted from the plays alone, with them by the replay.
 */
import { mulberry32 } from '../engine/bots/index';
import { playedWithMistakes, startedMatch } from '../engine/testing';
import { decisionCount, decisionPoints } from './analyzer';
import type { LoggedEvent } from './analyzer';

function playedMatch(preset: string, overrides: Record<string, unknown>, seedByte: number): LoggedEvent[] {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 41 + seedByte) & 0xff);
  return playedWithMistakes(startedMatch(seed, preset, overrides), mulberry32(seedByte)).map((event, i) => ({ seq: i + 1, event }));
}

describe('decisionCount', () => {
  it.each([
    ['scopa', { target: 11 }, 3],
    ['scopa-fr', { players: 6, target: 11 }, 5],
    ['cirulla', { target: 11 }, 7],
    ['acchiappaquindici', { target: 11 }, 9],
  ] as const)('%s %j: the decisions the analysis evaluates', (preset, overrides, seedByte) => {
    const events = playedMatch(preset, overrides, seedByte);
    const plays = events.filter((e) => e.event.type === 'CardPlayed').length;
    const n = decisionCount(events);
    expect(n).toBe(decisionPoints(events).length);
    expect(n).toBeGreaterThanOrEqual(plays);
    if (preset === 'cirulla' || preset === 'acchiappaquindici')
      expect(n).toBeGreaterThan(plays); // declaration windows count too
    else expect(n).toBe(plays);
  });

  it('refuses an unfinished log as the analysis does', () => {
    const events = playedMatch('scopa', { target: 1 }, 11).slice(0, -1);
    expect(() => decisionCount(events)).toThrow(RangeError);
  });
});
