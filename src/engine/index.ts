/**
 * The Scopa rules engine: pure functions, no I/O. The only place the rules of
 * the game live; the service, the bots, the audit tool and the benchmarks all
 * go through it.
 */
export * from './cards';
export * from './options';
export * from './errors';
export * from './version';
export * from './types';
export * from './captures';
export * from './plays';
export * from './shuffle';
export * from './deal';
export * from './scoring';
export * from './views';
export * from './audit';
export * from './turn-time';
export { runConformance } from './conformance';
export { decide, evolve, replay, initialState, seatOf, botPlayerId } from './decider';
export type { Decision } from './decider';
export { randomPlay } from './bots/random';
export { greedyPlay } from './bots/greedy';
export { ismctsPlay, ismctsSearch, ISMCTS_DEFAULT_ITERATIONS } from './bots/ismcts';
export type { IsmctsBudget, IsmctsOptions, IsmctsResult } from './bots/ismcts';
export { botPlay } from './bots/index';
export { mulberry32 } from './bots/rng';
export type { Rng } from './bots/rng';
