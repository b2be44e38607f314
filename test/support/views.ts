/** Test helpers over src/matches/match-views.ts. */
import type { MatchReveal, MatchState, MatchView } from '../../src/engine';
import { viewsFor } from '../../src/matches/match-views';

/** The view alone: a seat's, a spectator's, or everything once over. */
export function viewFor(viewer: string | null, state: MatchState): MatchView | MatchReveal {
  return viewsFor(viewer, state)[0];
}
