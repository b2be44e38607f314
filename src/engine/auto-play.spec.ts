import { createHash } from 'node:crypto';
import { cardCode, cardCodes } from './cards';
import { autoPlay } from './auto-play';
import { decide } from './decider';
import { mulberry32 } from './bots/rng';
import type { Play } from './plays';
import { apply, seedFrom, startedMatch } from './testing';
import { RULES_V1 } from './version';
import { legalPlaysInView, seatView } from './views';

const text = (p: Play) => `${cardCode(p.card)}${p.capture.length ? '*' + cardCodes(p.capture).join('+') : ''}${p.scopa ? '#' : ''}`;

/**
 * Auto-play's choice at every turn of a match whose plays are random (so the
 * views vary: early, late, last plays, every preset's capture rule). Dealt
 * under scopa-rules/1, whose deal is the seed's own (shuffle.spec.ts).
 */
function choices(preset: string, overrides: Record<string, unknown>, n: number): string[] {
  const rng = mulberry32(n);
  const m = startedMatch(seedFrom(rng), preset, overrides, undefined, { rulesVersion: RULES_V1 });
  const out: string[] = [];
  while (m.state.phase === 'playing') {
    const seat = m.state.turn;
    const view = seatView(m.state, seat);
    out.push(text(autoPlay(view)));
    const legal = legalPlaysInView(view);
    const r = legal[Math.floor(rng() * legal.length)];
    apply(m, { type: 'play', player: m.state.seats[seat].player!, card: cardCode(r.card), capture: cardCodes(r.capture) });
  }
  return out;
}

// Recorded from the policy as it was frozen (then the `greedy` bot's play).
const GOLDEN: { preset: string; overrides: Record<string, unknown>; n: number; count: number; first: string[]; digest: string }[] = [
  {
    preset: 'scopa',
    overrides: {},
    n: 1,
    count: 108,
    first: ['9S*6B+3S', '10B', '8B*8D', '9B', '8B*8D', '7C', '10C*10B', '7D*7C', '4S*4D', '7D*7C'],
    digest: 'cb6901fd81f0c01a2179597e3023744d6b6928cfc988687f0c0596cb6b252dda',
  },
  {
    preset: 'scopa',
    overrides: {},
    n: 2,
    count: 180,
    first: ['4B', '5C', '4B*4C', '5C', '6S*6C', '6B*1D+5C#', '9C', '2C', '10C', '2C'],
    digest: '728c6532680fade999d4a91055f457638a98ed93a15d4a5343fd798b1e57de93',
  },
  {
    preset: 'scopone',
    overrides: {},
    n: 1,
    count: 144,
    first: ['9S*6B+3S', '7D*3S+4D', '3B*3S', '10S*6B+3S+1C', '9S*8D+1C', '5S', '3B*3S', '10S*3S+7S', '7C*7S', '7D*5S+2C'],
    digest: 'e5b575ef6d77e04d1272ce94d42a6e1abd4a3a6caacbb57760e0f2c0ffb7d1a9',
  },
  {
    preset: 'scopone',
    overrides: {},
    n: 2,
    count: 180,
    first: ['10C*7S+2S+1D', '10B', '6D*6C#', '10S', '6S*6C', '10B*10S', '6D*6C', '9D*9C', '6S*6C', '4D*4B'],
    digest: '51080fc4fb7044d1f5b1390705e8d2c07cd3bbde0a95ba9d54c3da96e4e972fd',
  },
  {
    preset: 'scopa-quindici',
    overrides: {},
    n: 1,
    count: 108,
    first: ['9S*6B', '7C*3S+5D', '9S*6B', '9B', '8B', '10B*5D', '4D*8D+3S', '7D*8B', '4S', '7D*8B'],
    digest: 'd843d1f95ae062494c5c4e2e2f54e4e31b65d2c4d1ec2e1c08a3790d99dea101',
  },
  {
    preset: 'scopa-quindici',
    overrides: {},
    n: 2,
    count: 144,
    first: ['4B', '5C*7S+2S+1D#', '4B*7S+4C', '6B', '6S', '6B*2S+1D+6S', '10C*5C#', '2C', '9C', '2C'],
    digest: '28fe769eb6913b0eabbc9c7224995ec19e7e182eec3d9e1ceba3c272010797db',
  },
  {
    preset: 'scopa-d-assi',
    overrides: { players: 3 },
    n: 1,
    count: 180,
    first: ['9S*6B+3S', '10B', '10C*10B', '8B*8D', '9B', '4S', '8B*8D', '9B*5D+4S', '4D', '7D*7C'],
    digest: 'fdd21d94496c361ee248fab09b3961cab6e709b045e13b0bdef71bff2936d21a',
  },
  {
    preset: 'scopa-d-assi',
    overrides: { players: 3 },
    n: 2,
    count: 252,
    first: ['9S*2S+1D+6C', '5C', '3B', '6S*6C', '5C', '10C', '6S', '5C', '10C*1D+3B+6S', '2C'],
    digest: 'b3a2d9ea5210bd49bff06da3417bde6364574943ee173bf9a259d9740f56623e',
  },
  {
    preset: 're-bello',
    overrides: {},
    n: 1,
    count: 108,
    first: ['9S*6B+3S', '10B', '8B*8D', '9B', '8B*8D', '7C', '10C*10B', '7D*7C', '4S*4D', '7D*7C'],
    digest: '2710568c4c55990d05d68405ba8dbe890f5a5784921b524da33d284ce5ea8392',
  },
  {
    preset: 're-bello',
    overrides: {},
    n: 2,
    count: 144,
    first: ['4B', '5C', '4B*4C', '5C', '6S*6C', '6B*1D+5C#', '9C', '2C', '10C', '2C'],
    digest: 'cdebc2f09d19b0c6134b2a90050e28e6663e57f3638bfee1dd168f1e36dbe73d',
  },
  {
    preset: 'scopa-fr',
    overrides: { players: 4, teams: true },
    n: 1,
    count: 144,
    first: ['9S*6B+3S', '10B', '10C*10B', '8C*8D', '8B*8D', '7C*7D', '4S', '8C*8S', '5D', '7C*7D'],
    digest: '0b60aa4efa9e4ded4d1a5b8fedf3f5d4741f1bf67b47fd40ea84142a43b8f466',
  },
  {
    preset: 'scopa-fr',
    overrides: { players: 4, teams: true },
    n: 2,
    count: 180,
    first: ['4B', '5C', '3B', '2C', '4B*4C', '5C*1D+4C', '10C', '4D*1D+3B', '4B', '5C'],
    digest: '77a62b5cc82b89695f7ae048118d0c3604d555a94826424540c0b097e7225d8d',
  },
  {
    preset: 'scopa-initiation',
    overrides: {},
    n: 1,
    count: 144,
    first: ['9S*6B+3S', '10B', '8B*8D', '9B', '8B*8D', '7C', '10C*10B', '7D*7C', '4S*4D', '7D*7C'],
    digest: 'c952a436a964346e1cfb9042a17f531279a98ded22cc69b2cac0536d20e659bb',
  },
  {
    preset: 'scopa-initiation',
    overrides: {},
    n: 2,
    count: 144,
    first: ['4B', '5C', '4B*4C', '5C', '6S*6C', '6B*1D+5C#', '9C', '2C', '10C', '2C'],
    digest: '487c70af69469e18ecc57129e7d3930b2f800352012ffc2a7b10fa076d8d9bd8',
  },
  {
    preset: 'scopone-trenta',
    overrides: {},
    n: 1,
    count: 108,
    first: ['9S*6B+3S', '7D*3S+4D', '3B*3S', '3D*3S', '9S*8D+1C', '5S', '3B*3S', '3D*3S', '7C*7S', '7D*5S+2C'],
    digest: '87c1985bd49388531240c6bdcd1b93af4a02cdf4a8c6fdec11e1184105fd2777',
  },
  {
    preset: 'scopone-trenta',
    overrides: {},
    n: 2,
    count: 108,
    first: ['10C*7S+2S+1D', '10B', '6D*6C#', '10S', '6S*6C', '10B*10S', '6D*6C', '9D*9C', '6S*6C', '4D*4B'],
    digest: '32b0171e3e4e1b453b61b8b87174bca13566bd3a9b4f0f6a5a8928b725bb205d',
  },
];

describe('the auto-play policy', () => {
  it.each(GOLDEN)(
    'is pinned: $preset $overrides #$n always plays these (a change here breaks every recorded auto-play)',
    ({ preset, overrides, n, count, first, digest }) => {
      const got = choices(preset, overrides, n);
      expect(got.slice(0, first.length)).toEqual(first);
      expect(got).toHaveLength(count);
      expect(createHash('sha256').update(got.join(' ')).digest('hex')).toBe(digest);
    },
  );

  it('is what a clock expiry plays, marked auto', () => {
    const m = startedMatch(seedFrom(mulberry32(5)), 'scopa');
    const seat = m.state.turn;
    const expected = autoPlay(seatView(m.state, seat));
    const d = decide({ type: 'clockExpired', seat }, m.state);
    expect(d.ok && d.events[0]).toEqual({
      type: 'CardPlayed',
      seat,
      card: cardCode(expected.card),
      capture: cardCodes(expected.capture),
      scopa: expected.scopa,
      auto: true,
    });
  });

  it('refuses a view with nothing to play', () => {
    const m = startedMatch(seedFrom(mulberry32(6)), 'scopa');
    expect(() => autoPlay(seatView(m.state, 1 - m.state.turn))).toThrow(RangeError);
  });
});
