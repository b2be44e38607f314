import { ISMCTS_DEFAULT_ITERATIONS } from '../engine';
import { ISMCTS_DEFAULT_MS, ISMCTS_MAX_MS, ismctsBudgetFromEnv } from './bot-seats';
import { loadConfig } from '../config/config';

describe('the ismcts budget of bot seats and hints', () => {
  it('always has a time budget, with a clock passed in (the search runs on the event loop)', () => {
    const budget = ismctsBudgetFromEnv(loadConfig({}));
    expect(budget).toMatchObject({ iterations: ISMCTS_DEFAULT_ITERATIONS, ms: ISMCTS_DEFAULT_MS });
    expect(typeof budget.now).toBe('function');
    // more iterations do not lift the time budget
    expect(ismctsBudgetFromEnv(loadConfig({ BOT_ISMCTS_ITERATIONS: '1000000' }))).toMatchObject({ iterations: 1_000_000, ms: ISMCTS_DEFAULT_MS });
  });

  it('never thinks longer than the cap, whatever BOT_ISMCTS_MS says', () => {
    expect(ISMCTS_MAX_MS).toBeLessThan(100);
    expect(ismctsBudgetFromEnv(loadConfig({ BOT_ISMCTS_MS: '5000' })).ms).toBe(ISMCTS_MAX_MS);
    expect(ismctsBudgetFromEnv(loadConfig({ BOT_ISMCTS_MS: '15' })).ms).toBe(15);
    // a value that is no budget stops the start, naming the variable (it used to fall back to the defaults)
    expect(() => loadConfig({ BOT_ISMCTS_MS: 'soon' })).toThrow(/BOT_ISMCTS_MS="soon"/);
    expect(() => loadConfig({ BOT_ISMCTS_ITERATIONS: '-3' })).toThrow(/BOT_ISMCTS_ITERATIONS="-3"/);
  });
});
