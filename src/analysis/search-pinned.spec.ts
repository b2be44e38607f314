import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { mulberry32 } from '../engine/bots/rng';
import { playedWithMistakes, startedMatch } from '../engine/testing';
import { seatView } from '../engine/views';
import { decisionPoints } from './analyzer';
import { evaluateMoves } from './option-values';

// The analyzer's values, pinned: the same seeds give the same value of every
// option (unrounded), decision after decision of played matches, by the
// determinized search and by the exact one. A change of the search's order of
// draws, of its trees or of its rollouts shows here as a new digest.

const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 3) & 0xff);
const digest = (value: unknown) => bytesToHex(sha256(utf8ToBytes(JSON.stringify(value)))).slice(0, 16);

function valuesOf(preset: string, decisions: number): { methods: string; digest: string } {
  const events = playedWithMistakes(startedMatch(SEED, preset), mulberry32(SEED[1])).map((event, i) => ({ seq: i + 1, event }));
  const points = decisionPoints(events);
  // The first decisions, every declaration window (declare or not; a play that closes one), and the last ones (exact positions in two-player games).
  const windows = points.slice(decisions, -6).filter((p) => p.kind === 'declaration' || p.closeWindow);
  const chosen = [...points.slice(0, decisions), ...windows, ...points.slice(-6)];
  const results = chosen.map((p) =>
    evaluateMoves(seatView(p.state, p.seat), p.moves, mulberry32(p.seq), { iterationsPerOption: 40, exploration: 2.5 }, p.closeWindow),
  );
  return { methods: results.map((r) => r.method[0]).join(''), digest: digest(results.map((r) => r.values)) };
}

describe('analysis search, pinned', () => {
  it('gives the same values for the same seeds', () => {
    const all = Object.fromEntries(['scopa', 'cirulla', 'scopone', 'escoba'].map((preset) => [preset, valuesOf(preset, 14)]));
    expect(all).toEqual({
      scopa: { methods: 'sssssssssssssseeeeee', digest: 'e9dc89ac4c628280' },
      cirulla: { methods: 'sssssssssssssseessesseeeeee', digest: '2443deb1c8690749' },
      scopone: { methods: 'ssssssssssssssssssss', digest: '10d3722340a21ae2' },
      escoba: { methods: 'sssssssssssssseeeeee', digest: '5a41c2bb600c47e3' },
    });
  });
});
