/**
 * `matchStarted` and `matchEnded` on the player channel of each human seat
 * (src/realtime/channels.ts `playerChannel`), after the append that starts or
 * ends a match, whoever made it (a person, a bot's reply, the clock's start
 * or forfeit): the event stream (`GET /v1/stream/events`) forwards them.
 * Called from the after-append pipeline (src/reactions/after-append.ts).
 * Nothing here is hidden information: the seats are public, and the
 * result only exists once the match is over.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult } from '../match-store/match-store';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { playerChannel } from '../realtime/channels';
import type { MatchEndedEvent, MatchStartedEvent } from './player-events';

export type { MatchEndedEvent, MatchStartedEvent } from './player-events';

const isHuman = (player: string | null): player is string => player !== null && !player.startsWith('bot:');

@Injectable()
export class LifecycleNotifier {
  private readonly logger = new Logger('LifecycleNotifier');

  constructor(
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
  ) {}

  /** Publishes what the append started or ended; never throws (a lost notice is logged). */
  async afterAppend(result: Pick<CommandResult, 'matchId' | 'seq' | 'events'>): Promise<void> {
    const started = result.events.find((e) => e.type === 'MatchStarted');
    const ended = result.events.find((e) => e.type === 'MatchEnded');
    if (!started && !ended) return;
    try {
      const { state } = await this.store.atLeast(result.matchId, result.seq);
      const players = state.seats.map((s) => s.player);
      const sent: Promise<void>[] = [];
      players.forEach((player, seat) => {
        if (!isHuman(player)) return;
        const channel = playerChannel(player);
        if (started) {
          const event: MatchStartedEvent = { type: 'matchStarted', matchId: result.matchId, seq: started.seq, seat, preset: state.preset, players };
          sent.push(this.pubsub.publish(channel, event));
        }
        if (ended) {
          const p = ended.payload as { reason: string; winner: number | null; totals: number[] };
          const event: MatchEndedEvent = {
            type: 'matchEnded',
            matchId: result.matchId,
            seq: ended.seq,
            seat,
            result: { reason: p.reason, winner: p.winner, totals: p.totals },
          };
          sent.push(this.pubsub.publish(channel, event));
        }
      });
      await Promise.all(sent);
    } catch (err) {
      this.logger.warn(`lifecycle notice for ${result.matchId}@${result.seq} not published: ${(err as Error).message}`);
    }
  }
}
