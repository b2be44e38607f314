/**
 * bench:engine — random full rounds of preset `scopa` (2 players) through the
 * service's own decide / evolve / legal-play code, on one core, for a few
 * seconds. Last line: `rounds_per_s=<n> plays_per_s=<n>`.
 */
// Straight from the modules rather than the index: the same functions, without re-export indirection.
import { DECK_SIZE, cardCode, cardCodes } from '../src/engine/cards';
import { decide, evolve, initialState } from '../src/engine/decider';
import { legalPlaysOf } from '../src/engine/plays';
import { mulberry32 } from '../src/engine/bots/rng';
import { seedCommitment } from '../src/engine/shuffle';
import type { Command, MatchState } from '../src/engine/types';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const seconds = Number(arg('seconds') ?? 5);
// --plays=N: a fixed amount of work instead of a time budget (for instruction counting)
const playBudget = Number(arg('plays') ?? Infinity);
const rng = mulberry32(20261122);

function newMatch(): MatchState {
  const seed = new Uint8Array(32);
  for (let i = 0; i < 32; i++) seed[i] = Math.floor(rng() * 256);
  let state = initialState(seed);
  const commands: Command[] = [
    {
      type: 'create',
      preset: 'scopa',
      overrides: { target: 100 },
      seats: [{ player: 'a' }, { player: 'b' }],
      createdBy: 'a',
      seedCommitment: seedCommitment(seed),
    },
    { type: 'start', player: 'a' },
  ];
  for (const command of commands) {
    const d = decide(command, state);
    if (!d.ok) throw new Error(d.rejection.message);
    for (const e of d.events) state = evolve(state, e);
  }
  return state;
}

let rounds = 0;
let plays = 0;
let state = newMatch();
const players = ['a', 'b'];
// CPU time, not wall time: the figure should not depend on what else the machine runs.
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const started = cpuSeconds();
while (cpuSeconds() - started < seconds && plays < playBudget) {
  for (let k = 0; k < 8192 && plays < playBudget; k++) {
    if (state.phase !== 'playing') state = newMatch();
    const lastPlay = state.deckPos === DECK_SIZE && state.hands[0].length + state.hands[1].length === 1;
    const legal = legalPlaysOf(state.options!, state.hands[state.turn], state.table, lastPlay);
    const play = legal[Math.floor(rng() * legal.length)];
    const d = decide({ type: 'play', player: players[state.turn], card: cardCode(play.card), capture: cardCodes(play.capture) }, state);
    if (!d.ok) throw new Error(d.rejection.message);
    const events = d.events;
    for (let i = 0; i < events.length; i++) state = evolve(state, events[i]);
    // Only a round's last play sets off more than a deal (the type test is a megamorphic read: not on every play).
    if (events.length > 2) for (let i = 0; i < events.length; i++) if (events[i].type === 'RoundScored') rounds++;
    plays++;
  }
}
const elapsed = cpuSeconds() - started;
console.log(`preset scopa, 2 players, random plays, ${elapsed.toFixed(1)} s of CPU time on one core`);
console.log(`${rounds} rounds, ${plays} plays, ${((elapsed / plays) * 1e6).toFixed(2)} µs per play`);
console.log(`rounds_per_s=${Math.round(rounds / elapsed)} plays_per_s=${Math.round(plays / elapsed)}`);
