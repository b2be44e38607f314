import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { cardCode } from '../cards';
import { PRESET_IDS } from '../options';
import type { Play } from '../plays';
import { playRandomly, startedMatch } from '../testing';
import { seatView } from '../views';
import { ismctsSearch } from './ismcts';
import type { IsmctsOptions } from './ismcts';
import { mulberry32 } from './rng';

// The ismcts bot's search, pinned: the same seeds give the same statistics
// (visits and mean rewards of every root move) and the same move, on positions
// of every preset, at the start of a deal (declarations open in cirulla) and
// later. A change of the search's order of draws, of its tree or of its
// rollouts shows here as a new digest.

const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 53 + 7) & 0xff);
const code = (p: Play | null) => (p ? `${cardCode(p.card)}${p.capture.map(cardCode).join('')}` : null);

function searchesOf(preset: string, budget: IsmctsOptions): unknown[] {
  const driven = startedMatch(SEED, preset);
  const rng = mulberry32(5);
  const out: unknown[] = [];
  for (let ply = 0; ply < 12 && driven.state.phase === 'playing'; ply++) {
    if (ply % 4 === 0 || ply === 1) {
      const r = ismctsSearch(seatView(driven.state, driven.state.turn), mulberry32(ply + 1), budget);
      out.push({
        ply,
        move: r.move.type === 'play' ? code(r.move.play) : r.move,
        iterations: r.iterations,
        stats: r.stats.map((s) => [code(s.play), s.declaration?.mattaValue ?? null, s.visits, s.mean]),
      });
    }
    playRandomly(driven, rng);
  }
  return out;
}

const digest = (value: unknown) => bytesToHex(sha256(utf8ToBytes(JSON.stringify(value)))).slice(0, 16);

describe('ismcts search, pinned', () => {
  it('gives the same statistics for the same seeds, greedy rollouts', () => {
    const all = Object.fromEntries(PRESET_IDS.map((preset) => [preset, digest(searchesOf(preset, { iterations: 120 }))]));
    expect(all).toEqual({
      scopa: '3406efc471dfa2ac',
      'scopa-fr': 'b0907f3c0ade6596',
      'scopa-initiation': 'c4fa3468df5f9f3f',
      'scopa-simple': '5c2d5b640df429e5',
      scopone: 'cf74a64694973845',
      'scopone-scientifico': 'ae98fe848441d913',
      'scopone-trenta': 'b464763d8bf8346f',
      'scopa-quindici': 'e85f28d2c2f25309',
      'scopa-d-assi': '4c2afa416dc6e8a9',
      're-bello': '0e19e51485540d53',
      escoba: 'dfda2cff904749e2',
      cirulla: '019e27b3a271ace9',
      acchiappaquindici: '019e27b3a271ace9',
      chkobba: '5c2d5b640df429e5',
      chkop: '2c03ea91ed67606f',
    });
  });

  it('gives the same statistics for the same seeds, random rollouts and another exploration', () => {
    const all = Object.fromEntries(
      ['scopa', 'cirulla', 'scopone'].map((preset) => [preset, digest(searchesOf(preset, { iterations: 90, rollout: 'random', exploration: 1.5 }))]),
    );
    expect(all).toEqual({ scopa: '31c9da50279fb351', cirulla: 'd88705c755687d6d', scopone: '7080c4eebc07736b' });
  });
});
