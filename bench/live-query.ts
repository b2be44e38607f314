/**
 * The subscription a load generator's seat holds (bench:api, bench:embedded):
 * what a bot needs after each event. The match's options never change, so
 * they come once, with the match.
 */
export const LIVE = `subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) {
  event { seq type }
  match { seq status view { viewer phase turn hand table deckSize seats { handSize } } } } }`;
