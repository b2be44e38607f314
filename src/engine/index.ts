/**
 * The Scopa rules engine: pure functions, no I/O. The only place the rules of
 * the game live; the service, the bots, the audit tool and the benchmarks all
 * go through it. This barrel is the package's public face, not part of the
 * core: it alone (with testing.ts) may import bots/.
 */
export * from './cards';
export * from './options';
export * from './errors';
export * from './version';
export * from './types';
export * from './captures';
export * from './plays';
export * from './shuffle';
export * from './client-seeds';
export * from './deal';
export * from './bonuses';
export * from './scoring';
export * from './views';
export * from './audit';
export * from './turn-time';
export { runConformance } from './conformance';
export { decide, evolve, replay, initialState, seatOf, botPlayerId, captureValuesOf } from './decider';
export type { Decision } from './decider';
export { autoPlay } from './auto-play';
// The bots live in bots/ and import the engine, never the reverse; this
// barrel re-exports them so that the service has one import path.
export * from './bots/index';
