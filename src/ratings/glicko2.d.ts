// Types for the `glicko2` package (mmai/glicko2js, plain CommonJS without its own types): the parts used here.
declare module 'glicko2' {
  interface Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
    /** One rating period: the games added since the last update, or the no-game step (RD grows) without any. */
    update_rank(): void;
  }
  interface Glicko2Settings {
    tau?: number;
    rating?: number;
    rd?: number;
    vol?: number;
  }
  class Glicko2 {
    constructor(settings?: Glicko2Settings);
    makePlayer(rating?: number, rd?: number, vol?: number): Player;
    addResult(player1: Player, player2: Player, outcome: number): void;
    /** Rates every player made by this instance over the results added. */
    updateRatings(): void;
  }
  const glicko2: { Glicko2: typeof Glicko2 };
  export default glicko2;
  export type { Player, Glicko2 };
}
