// The match's chat setting in the engine (src/engine/decider.ts): recorded in MatchCreated only when off, checked, and in the state.
import { decide, evolve, initialState, seedCommitment } from '../engine';
import type { Command, MatchEvent } from '../engine';

const seed = new Uint8Array(32).fill(3);

function create(settings: Record<string, unknown>) {
  const command = {
    type: 'create',
    preset: 'scopa',
    seats: [{ player: 'ann' }, { player: 'bob' }],
    createdBy: 'ann',
    seedCommitment: seedCommitment(seed),
    settings,
  } as Command;
  return decide(command, initialState(seed));
}

const created = (d: ReturnType<typeof create>) => (d.ok ? (d.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>) : null);

describe("a match's chat setting", () => {
  it('is recorded only when off: the logs of matches with the players’ chat stay as they were', () => {
    expect(created(create({ chat: 'off' }))?.settings).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay', chat: 'off' });
    expect(created(create({ chat: 'players' }))?.settings).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay' });
    expect(created(create({}))?.settings).toEqual({ turnTimeLimit: null, onExpiry: 'autoPlay' });
  });

  it('is players or off, nothing else', () => {
    const d = create({ chat: 'partners' });
    expect(d.ok ? null : d.rejection.code).toBe('INVALID_COMMAND');
  });

  it('is in the state the log folds to', () => {
    const event = created(create({ chat: 'off' }))!;
    expect(evolve(initialState(seed), event).settings.chat).toBe('off');
  });
});
