import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { cardCodes } from './cards';
import { deckSeedOf, deriveDeckSeed, normalizeClientSeed, seatsAwaitingClientSeed } from './client-seeds';
import { decide, initialState } from './decider';
import { mulberry32 } from './bots/rng';
import { seedCommitment, seedFromHex, shuffledDeck, toHex } from './shuffle';
import { apply, playRandomly, seedFrom, startedMatch } from './testing';
import type { Driven } from './testing';
import type { Command, MatchState } from './types';
import { RULES_V1, RULES_VERSION } from './version';
import { revealView, seatView, spectatorView } from './views';

const SERVER = seedFromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');

/** The documented derivation, written again from the README with Node's own SHA-256. */
function referenceDeckSeed(server: Uint8Array, clientSeeds: (string | null)[]): string {
  const hash = createHash('sha256').update('scopa-seed/2', 'ascii').update(server);
  for (const hex of clientSeeds) {
    const bytes = Buffer.from(hex ?? '', 'hex');
    hash.update(Buffer.from([bytes.length])).update(bytes);
  }
  return hash.digest('hex');
}

const clientSeedArb = fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString('hex'));
const seatSeedsArb = (seats: number) => fc.array(fc.option(clientSeedArb, { nil: null }), { minLength: seats, maxLength: seats });

describe('the deck seed of scopa-rules/2', () => {
  it('is pinned: this server seed and these client seeds always give this deck seed and deal', () => {
    const clientSeeds = ['c0ffee', null, 'ff'.repeat(64), '00'];
    const deckSeed = deriveDeckSeed(SERVER, clientSeeds);
    expect(toHex(deckSeed)).toBe('103eec24bb6b1407be1d11373d0b0918e52e629e00b9e31d1f61fdc531260104');
    expect(cardCodes(Array.from(shuffledDeck(deckSeed, 1, 0))).slice(0, 8)).toEqual(['10S', '2S', '9D', '10B', '5B', '2D', '8B', '7B']);
    // No seed from anyone still goes through the hash (one zero length byte per seat).
    expect(toHex(deriveDeckSeed(SERVER, [null, null]))).toBe('167b4849b2d16dfd75618cb6304af267d5a1b4c7448f07fc4ab53d5904ba11a1');
  });

  it('follows the documented byte layout exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 2, max: 6 }).chain(seatSeedsArb), (server, clientSeeds) => {
        expect(toHex(deriveDeckSeed(server, clientSeeds))).toBe(referenceDeckSeed(server, clientSeeds));
      }),
    );
  });

  it('deals differently for the same server seed and different client seeds, or the same seeds in another seat order', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), seatSeedsArb(2), seatSeedsArb(2), (server, a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        expect(Array.from(shuffledDeck(deriveDeckSeed(server, a), 1, 0))).not.toEqual(Array.from(shuffledDeck(deriveDeckSeed(server, b), 1, 0)));
      }),
    );
    // The length prefix: moving bytes from one seat's seed to the next one's is another list, another deal.
    expect(toHex(deriveDeckSeed(SERVER, ['abcd', null]))).not.toBe(toHex(deriveDeckSeed(SERVER, ['ab', 'cd'])));
    expect(toHex(deriveDeckSeed(SERVER, ['ab', 'cd']))).not.toBe(toHex(deriveDeckSeed(SERVER, ['cd', 'ab'])));
  });

  it('is the server seed itself under scopa-rules/1', () => {
    expect(deckSeedOf(RULES_V1, SERVER, ['c0ffee', null])).toBe(SERVER);
    expect(toHex(deckSeedOf(RULES_VERSION, SERVER, ['c0ffee', null]))).toBe(referenceDeckSeed(SERVER, ['c0ffee', null]));
  });

  it('takes 1 to 64 bytes of hex, recorded in lowercase', () => {
    expect(normalizeClientSeed('C0FFee')).toBe('c0ffee');
    expect(normalizeClientSeed('ab'.repeat(64))).toBe('ab'.repeat(64));
    for (const bad of ['', 'a', 'abc', 'zz', '0x00', 'ab'.repeat(65), ' ab', 42, null, undefined, ['ab']]) expect(normalizeClientSeed(bad)).toBeNull();
    expect(() => deriveDeckSeed(SERVER, ['ABCD'])).toThrow(RangeError);
    expect(() => deriveDeckSeed(new Uint8Array(31), [])).toThrow(RangeError);
  });
});

// ------------------------------------------------------------------ in the decider

function rejection(command: Command, state: MatchState) {
  const d = decide(command, state);
  if (d.ok) throw new Error(`expected a rejection, got ${JSON.stringify(d.events)}`);
  return d.rejection;
}

/** ann in seat 0, a greedy bot in seat 1, seat 2 open: created, not started. */
function openMatch(rulesVersion?: string): Driven {
  const m: Driven = { state: initialState(SERVER), events: [] };
  const create: Command = {
    type: 'create',
    preset: 'scopa',
    overrides: { players: 3 },
    seats: [{ player: 'ann' }, { bot: 'greedy' }, {}],
    createdBy: 'ann',
    seedCommitment: seedCommitment(SERVER),
  };
  apply(m, rulesVersion ? { ...create, rulesVersion } : create);
  return m;
}

describe('client seeds in the decider', () => {
  it('records a human seat’s seed in public, once, and waits for nobody else', () => {
    const m = openMatch();
    expect(m.state.rulesVersion).toBe('scopa-rules/5');
    expect(seatsAwaitingClientSeed(m.state)).toEqual([0, 2]);
    expect(apply(m, { type: 'setClientSeed', player: 'ann', clientSeed: 'C0FFEE' })).toEqual([{ type: 'ClientSeedGiven', seat: 0, clientSeed: 'c0ffee' }]);
    expect(spectatorView(m.state).clientSeeds).toEqual(['c0ffee', null, null]);
    expect(seatsAwaitingClientSeed(m.state)).toEqual([2]);
    expect(rejection({ type: 'setClientSeed', player: 'ann', clientSeed: 'beef' }, m.state).code).toBe('CLIENT_SEED_ALREADY_GIVEN');
    expect(apply(m, { type: 'join', player: 'bob', clientSeed: '0123' })).toEqual([{ type: 'SeatTaken', seat: 2, player: 'bob', clientSeed: '0123' }]);
    expect(seatsAwaitingClientSeed(m.state)).toEqual([]);
    expect(rejection({ type: 'setClientSeed', player: 'bob', clientSeed: 'beef' }, m.state).code).toBe('CLIENT_SEED_ALREADY_GIVEN');
    apply(m, { type: 'start', player: 'ann' });
    expect(m.state.deckSeed).toEqual(deriveDeckSeed(SERVER, ['c0ffee', null, '0123']));
    expect(m.state.table).toEqual(Array.from(shuffledDeck(m.state.deckSeed!, 1, 0).subarray(0, 4)));
    expect(seatsAwaitingClientSeed(m.state)).toEqual([]);
    expect(seatView(m.state, 2).clientSeeds).toEqual(['c0ffee', null, '0123']);
  });

  it.each([
    ['a seed that is not hex', { type: 'setClientSeed', player: 'ann', clientSeed: 'xyz0' }, 'INVALID_CLIENT_SEED'],
    ['an odd number of hex digits', { type: 'setClientSeed', player: 'ann', clientSeed: 'abc' }, 'INVALID_CLIENT_SEED'],
    ['an empty seed', { type: 'setClientSeed', player: 'ann', clientSeed: '' }, 'INVALID_CLIENT_SEED'],
    ['65 bytes', { type: 'setClientSeed', player: 'ann', clientSeed: '00'.repeat(65) }, 'INVALID_CLIENT_SEED'],
    ['a seed that is not a string', { type: 'setClientSeed', player: 'ann', clientSeed: 12 as unknown as string }, 'INVALID_CLIENT_SEED'],
    ['a bad seed with a join', { type: 'join', player: 'bob', clientSeed: 'q' }, 'INVALID_CLIENT_SEED'],
    ['a player without a seat', { type: 'setClientSeed', player: 'eve', clientSeed: 'ab' }, 'NOT_SEATED'],
    ['a bot seat', { type: 'setClientSeed', player: 'bot:greedy:1', clientSeed: 'ab' }, 'NOT_SEATED'],
  ] as [string, Command, string][])('refuses %s, changing nothing', (_, command, code) => {
    const m = openMatch();
    expect(rejection(command, m.state).code).toBe(code);
    expect(m.state.clientSeeds).toEqual([null, null, null]);
  });

  it('refuses seeds before the match exists, after it starts, and under scopa-rules/1', () => {
    expect(rejection({ type: 'setClientSeed', player: 'ann', clientSeed: 'ab' }, initialState(SERVER)).code).toBe('MATCH_NOT_CREATED');
    const started = openMatch();
    apply(started, { type: 'join', player: 'bob' });
    apply(started, { type: 'start', player: 'ann' });
    expect(rejection({ type: 'setClientSeed', player: 'ann', clientSeed: 'ab' }, started.state).code).toBe('MATCH_ALREADY_STARTED');
    const old = openMatch(RULES_V1);
    expect(old.state.rulesVersion).toBe(RULES_V1);
    expect(seatsAwaitingClientSeed(old.state)).toEqual([]);
    expect(rejection({ type: 'setClientSeed', player: 'ann', clientSeed: 'ab' }, old.state).code).toBe('INVALID_COMMAND');
    expect(rejection({ type: 'join', player: 'bob', clientSeed: 'ab' }, old.state).code).toBe('INVALID_COMMAND');
    expect(
      rejection(
        { type: 'create', preset: 'scopa', seats: [], createdBy: 'ann', seedCommitment: seedCommitment(SERVER), rulesVersion: 'scopa-rules/99' },
        initialState(SERVER),
      ).code,
    ).toBe('INVALID_COMMAND');
  });

  it('deals a scopa-rules/1 match from the server seed exactly as before, and a scopa-rules/2 one from the deck seed', () => {
    const old = startedMatch(SERVER, 'scopa', {}, undefined, { rulesVersion: RULES_V1 });
    expect(old.state.deckSeed).toBe(old.state.seed);
    expect(old.state.table).toEqual(Array.from(shuffledDeck(SERVER, 1, 0).subarray(0, 4)));
    const unseeded = startedMatch(SERVER, 'scopa');
    expect(toHex(unseeded.state.deckSeed!)).toBe(referenceDeckSeed(SERVER, [null, null]));
    expect(unseeded.state.table).toEqual(Array.from(shuffledDeck(unseeded.state.deckSeed!, 1, 0).subarray(0, 4)));
  });

  it('keeps the server seed and the deck seed out of every view until the end, then reveals the server seed', () => {
    const rng = mulberry32(21);
    const m = startedMatch(seedFrom(rng), 'scopa', {}, undefined, { clientSeeds: ['aa', 'bb'] });
    const secrets = [toHex(m.state.seed!), toHex(m.state.deckSeed!)];
    while (m.state.phase === 'playing') {
      for (const view of [spectatorView(m.state), seatView(m.state, 0), seatView(m.state, 1)]) {
        const text = JSON.stringify(view);
        for (const secret of secrets) expect(text.includes(secret)).toBe(false);
        expect(view.clientSeeds).toEqual(['aa', 'bb']);
      }
      playRandomly(m, rng);
    }
    expect(revealView(m.state)!.seed).toBe(secrets[0]);
  });
});
