/** What the analysis suites share: matches finished fast through the store, and polling until a read says done. */
import { cardCode, greedyPlay, seatView } from '../../src/engine';
import type { MatchStore } from '../../src/match-store/match-store';

/** A match of `preset` between `players`, played to its end by greedy seats through the store (fast: no HTTP). */
export async function finishedMatch(
  store: MatchStore,
  players: readonly string[],
  overrides: Record<string, unknown> = { target: 1 },
  preset = 'scopa',
): Promise<string> {
  const created = await store.create({ preset, overrides, seats: players.map((player) => ({ player })), createdBy: players[0], startBy: players[0] });
  const id = created.matchId;
  for (;;) {
    const { seq, state } = await store.current(id);
    if (state.phase === 'over') return id;
    const play = greedyPlay(seatView(state, state.turn));
    const player = players[state.turn];
    await store.execute(id, { type: 'play', player, card: cardCode(play.card), capture: play.capture.map(cardCode) }, { actor: player, expectedSeq: seq });
  }
}

/** Reads until `ok` holds, every `everyMs`; past `ms`, fails naming `what` and the last value read. */
export async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 240_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
