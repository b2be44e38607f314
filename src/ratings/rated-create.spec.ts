// The engine's part of rated matches (src/engine/decider.ts): recorded in MatchCreated, refused without two sides of people.
import { decide, initialState, seedCommitment } from '../engine';
import type { Command, MatchEvent, SeatSpec } from '../engine';

const seed = new Uint8Array(32).fill(7);

function create(seats: SeatSpec[], settings: Record<string, unknown>, preset = 'scopa') {
  const command = { type: 'create', preset, seats, createdBy: 'ann', seedCommitment: seedCommitment(seed), settings } as Command;
  return decide(command, initialState(seed));
}

const settingsOf = (d: ReturnType<typeof create>) => (d.ok ? (d.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>).settings : null);

describe('creating a rated match', () => {
  it('records rated: true in MatchCreated, and nothing for an unrated match', () => {
    expect(settingsOf(create([{ player: 'ann' }, { player: 'bob' }], { rated: true }))).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay', rated: true });
    expect(settingsOf(create([{ player: 'ann' }, { player: 'bob' }], { rated: false }))).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay' });
    expect(settingsOf(create([{ player: 'ann' }, { player: 'bob' }], {}))).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay' });
  });

  it('counts an open or reserved seat as a person to come', () => {
    expect(create([{ player: 'ann' }, {}], { rated: true }).ok).toBe(true);
    expect(create([{ player: 'ann' }, { reservedFor: 'bob' }], { rated: true }).ok).toBe(true);
  });

  it('refuses a rated match without two sides with a person', () => {
    const d = create([{ player: 'ann' }, { bot: 'greedy' }], { rated: true });
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.rejection).toMatchObject({ code: 'INVALID_COMMAND', message: expect.stringMatching(/two sides/) });
    // Teams: ann and her partner on side 0, two bots on side 1.
    expect(create([{ player: 'ann' }, { bot: 'greedy' }, { player: 'cat' }, { bot: 'random' }], { rated: true }, 'scopone').ok).toBe(false);
    expect(create([{ player: 'ann' }, { player: 'cat' }, { bot: 'greedy' }, { bot: 'random' }], { rated: true }, 'scopone').ok).toBe(true);
  });

  it('refuses a rated flag that is not a boolean', () => {
    const d = create([{ player: 'ann' }, { player: 'bob' }], { rated: 'yes' });
    expect(!d.ok && d.rejection.code).toBe('INVALID_COMMAND');
  });
});
