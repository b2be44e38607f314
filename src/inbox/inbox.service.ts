/** "My turn" across all my matches, the most urgent first; and my own events (./player-events.ts) as they happen. */
import { Inject, Injectable } from '@nestjs/common';
import { MatchStore } from '../match-store/match-store';
import { ClocksConfig } from '../config/slices';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from './player-events';
import { VacationsService } from '../vacations/vacations.service';

export type { PlayerEvent } from './player-events';

export interface InboxEntry {
  matchId: string;
  preset: string;
  /** The seq to send as expectedSeq (If-Match). */
  seq: number;
  seat: number;
  /** When the turn clock runs out (null: untimed). */
  deadline: Date | null;
  /** When the turn came (the last append). */
  since: Date;
  /** Less than CLOCK_LOW_FRACTION of the turn time limit is left (src/clocks/clock-low.ts). */
  clockLow: boolean;
  /** My turn clock stands still: I am on vacation (a correspondence match; `deadline` is then null). */
  paused: boolean;
  /** When my vacation ends, for an entry whose clock it pauses; null otherwise. */
  onVacationUntil: Date | null;
}

@Injectable()
export class InboxService {
  constructor(
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly clocks: ClocksConfig,
    private readonly vacations: VacationsService,
  ) {}

  /** Every event of `player`'s channel from now on (GraphQL myEvents; the NDJSON event stream reads the same channel). */
  myEvents(player: string): AsyncIterableIterator<PlayerEvent> {
    return this.pubsub.asyncIterableIterator<PlayerEvent>(playerChannel(player));
  }

  /** Matches where it is `player`'s turn: by deadline (soonest first; untimed last, oldest turn first). `limit` (1..500) is checked by InboxQuery. */
  async myTurn(player: string, limit = 50): Promise<InboxEntry[]> {
    const rows = await this.store.myTurn(player, limit, this.clocks.CLOCK_LOW_FRACTION);
    // Read only when a clock of mine stands still (docs/async-play.md "Vacations").
    const away = rows.some((r) => r.paused) ? ((await this.vacations.onVacationUntil([player])).get(player) ?? null) : null;
    return rows.map((r) => ({
      matchId: r.match_id,
      preset: r.preset,
      seq: r.current_seq,
      seat: r.turn_seat,
      deadline: r.deadline,
      since: r.updated_at,
      clockLow: r.clock_low === true,
      paused: r.paused,
      onVacationUntil: r.paused ? away : null,
    }));
  }
}
