/**
 * A third-party Scopa bot, written only against `@scopa/sdk`:
 *
 * - it authenticates with a personal API token (scopes `read`, `play` and
 *   `challenge:write`);
 * - every `pollMs` it lists the challenges made to it (`GET /v1/challenges`)
 *   and accepts those it can play (two players: every challenge today; the
 *   check guards against a future four-player one, which it declines with the
 *   reason `variant`), giving its client seed if the match waits for it; it
 *   looks for matches it is invited to (a seat reserved for it) and joins them
 *   with a fresh client seed; and for matches where it is to move (the inbox:
 *   a safety net should a live event be missed);
 * - it follows each of its matches live (`client.follow`, graphql-ws) and plays
 *   as soon as its turn comes, choosing among `legalPlays` (so well within any
 *   turn clock); `follow` reconnects after a dropped socket and resumes from
 *   the last seq, so a network blip costs nothing;
 * - a refused play (`VERSION_CONFLICT`, `NOT_YOUR_TURN`: the match moved on) is
 *   skipped: the next event brings the new position.
 */
import { ScopaClient, isScopaError } from '@scopa/sdk';
import type { Challenge, DeclineReason, LegalPlay, LiveMatchEvent, MatchSummary } from '@scopa/sdk';

export interface BotOptions {
  /** A client holding the bot's API token. */
  client: ScopaClient;
  /** How often to look for invitations and due turns (default 1000 ms). */
  pollMs?: number;
  /** Where the bot says what it does (default: nothing). */
  log?: (line: string) => void;
  /** Chooses one of the legal plays (default: {@link choosePlay}). */
  choose?: (plays: LegalPlay[]) => LegalPlay;
}

export interface BotStats {
  /** Challenges accepted (each made a match). */
  accepted: number;
  /** Challenges declined (ones it cannot play). */
  declined: number;
  joined: number;
  plays: number;
  reconnects: number;
  finished: number;
  errors: string[];
}

/** Card value (rank 1..10) of a card code such as `7D`. */
const rank = (card: string): number => Number(card.slice(0, -1));
const suit = (card: string): string => card.slice(-1);

/**
 * A greedy choice: a scopa first, then the capture worth most (the settebello,
 * sevens, denari, then the number of cards); when it cannot capture, it lays the
 * card that gives least away (no seven, no denari, the highest rank).
 */
export function choosePlay(plays: LegalPlay[]): LegalPlay {
  const worth = (p: LegalPlay): number => {
    const cards = [p.card, ...p.capture];
    if (p.capture.length === 0) return -(rank(p.card) === 7 ? 50 : 0) - (suit(p.card) === 'D' ? 20 : 0) + rank(p.card) / 10;
    let w = 100 + cards.length * 10;
    if (p.scopa) w += 1000;
    for (const c of cards) {
      if (c === '7D') w += 200;
      if (rank(c) === 7) w += 30;
      if (suit(c) === 'D') w += 15;
    }
    return w;
  };
  return plays.reduce((best, p) => (worth(p) > worth(best) ? p : best), plays[0]);
}

export class ScopaBot {
  readonly stats: BotStats = { accepted: 0, declined: 0, joined: 0, plays: 0, reconnects: 0, finished: 0, errors: [] };
  private readonly client: ScopaClient;
  private readonly pollMs: number;
  private readonly log: (line: string) => void;
  private readonly choose: (plays: LegalPlay[]) => LegalPlay;
  private readonly watching = new Map<string, Promise<void>>();
  private readonly busy = new Set<string>();
  /** Challenges answered (or given up on): never answered twice. */
  private readonly answered = new Set<string>();
  private username = '';

  constructor(options: BotOptions) {
    this.client = options.client;
    this.pollMs = options.pollMs ?? 1000;
    this.log = options.log ?? (() => undefined);
    this.choose = options.choose ?? choosePlay;
  }

  /** Runs until `signal` aborts; resolves once every match it followed has stopped. */
  async run(signal: AbortSignal): Promise<void> {
    this.username = (await this.client.me()).username;
    this.log(`playing as ${this.username}`);
    while (!signal.aborted) {
      try {
        await this.tick(signal);
      } catch (error) {
        this.note(`poll failed: ${describe(error)}`);
      }
      await wait(this.pollMs, signal);
    }
    await Promise.allSettled(this.watching.values());
  }

  /** One look around: answer challenges, join invitations, follow my matches, play due turns. */
  private async tick(signal: AbortSignal): Promise<void> {
    await this.answerChallenges(signal);
    for (const match of await this.client.myMatches({ status: 'open' })) {
      if (this.invited(match)) await this.join(match);
      this.follow(match.id, signal);
    }
    for (const match of await this.client.myMatches({ status: 'playing' })) this.follow(match.id, signal);
    for (const due of await this.client.inbox()) await this.playIfMyTurn(due.matchId, undefined);
  }

  /** Accepts the challenges made to me that I can play, declines the others (each once). */
  private async answerChallenges(signal: AbortSignal): Promise<void> {
    const { in: received } = await this.client.myChallenges();
    for (const challenge of received) {
      if (this.answered.has(challenge.id) || signal.aborted) continue;
      this.answered.add(challenge.id);
      const refusal = cannotPlay(challenge);
      try {
        if (refusal) {
          await this.client.declineChallenge(challenge.id, refusal);
          this.stats.declined++;
          this.log(`declined challenge ${challenge.id} from ${challenge.challenger} (${refusal})`);
          continue;
        }
        const accepted = await this.client.acceptChallenge(challenge.id);
        this.stats.accepted++;
        this.log(`accepted challenge ${challenge.id} from ${challenge.challenger}: match ${accepted.matchId}`);
        if (accepted.matchId) {
          await this.giveSeedIfAsked(accepted.matchId);
          this.follow(accepted.matchId, signal);
        }
      } catch (error) {
        // canceled, expired or answered meanwhile: nothing to do
        if (isScopaError(error, 'CONFLICT', 'NOT_FOUND')) this.log(`challenge ${challenge.id}: ${describe(error)}`);
        else this.note(`challenge ${challenge.id}: ${describe(error)}`);
      }
    }
  }

  /** An accepted match that waits for the players' client seeds (CLIENT_SEED_WINDOW) gets mine. */
  private async giveSeedIfAsked(matchId: string): Promise<void> {
    const match = await this.client.getMatch(matchId);
    const seat = match.view.viewer;
    if (match.status === 'open' && match.startsAt && seat !== null && !match.view.clientSeeds[seat]) {
      await this.client.setClientSeed(matchId);
      this.log(`${matchId}: gave my client seed`);
    }
  }

  private invited(match: MatchSummary): boolean {
    const me = this.username.toLowerCase();
    const seated = match.seats.some((s) => s.player?.toLowerCase() === me);
    return !seated && match.seats.some((s) => s.player === null && s.reservedFor?.toLowerCase() === me);
  }

  private async join(match: MatchSummary): Promise<void> {
    const me = this.username.toLowerCase();
    const seat = match.seats.findIndex((s) => s.player === null && s.reservedFor?.toLowerCase() === me);
    try {
      await this.client.joinMatch(match.id, { seat }); // with a fresh client seed
      this.stats.joined++;
      this.log(`joined ${match.id} in seat ${seat}`);
    } catch (error) {
      this.note(`join ${match.id}: ${describe(error)}`);
    }
  }

  /** Follows a match live (once per match) and plays whenever it is my turn. */
  private follow(matchId: string, signal: AbortSignal): void {
    if (this.watching.has(matchId)) return;
    const task = (async () => {
      try {
        const events = this.client.follow(matchId, 1, {
          signal,
          onReconnect: ({ fromSeq, error }) => {
            this.stats.reconnects++;
            this.log(`${matchId}: connection lost (${describe(error)}), resuming from seq ${fromSeq}`);
          },
        });
        for await (const live of events) {
          if (live.event.type === 'MatchEnded') {
            this.stats.finished++;
            this.log(`${matchId}: over (${JSON.stringify(live.match.view.result)})`);
          }
          if (isMyTurn(live)) await this.playIfMyTurn(matchId, live.event.seq);
        }
      } catch (error) {
        this.note(`follow ${matchId}: ${describe(error)}`);
        this.watching.delete(matchId); // the next poll follows it again
      }
    })();
    this.watching.set(matchId, task);
  }

  /**
   * Plays one of my legal plays, decided at the match's current seq. `atSeq`: the
   * seq of the event that showed my turn; when the match is already further on
   * (more events of the same batch are coming), the last of them decides.
   */
  private async playIfMyTurn(matchId: string, atSeq: number | undefined): Promise<void> {
    if (this.busy.has(matchId)) return;
    this.busy.add(matchId);
    try {
      const legal = await this.client.legalPlays(matchId);
      if (legal.plays.length === 0 || (atSeq !== undefined && legal.seq !== atSeq)) return;
      const play = this.choose(legal.plays);
      await this.client.play(matchId, play, { expectedSeq: legal.seq });
      this.stats.plays++;
      this.log(`${matchId}: played ${play.card}${play.capture.length ? ' taking ' + play.capture.join('+') : ''} at seq ${legal.seq}`);
    } catch (error) {
      if (isScopaError(error, 'VERSION_CONFLICT', 'NOT_YOUR_TURN', 'MATCH_OVER')) return; // the match moved on
      this.note(`play ${matchId}: ${describe(error)}`);
    } finally {
      this.busy.delete(matchId);
    }
  }

  private note(line: string): void {
    this.stats.errors.push(line);
    this.log(line);
  }
}

/** Why the bot cannot play a challenge (a decline reason), or null: it plays any two-player ruleset from its legal plays. */
export function cannotPlay(challenge: Challenge): DeclineReason | null {
  const players = challenge.overrides.players;
  if ((players !== undefined && players !== 2) || challenge.overrides.teams === true) return 'variant';
  return null;
}

function isMyTurn(live: LiveMatchEvent): boolean {
  const view = live.match.view;
  return live.match.status === 'playing' && view.viewer !== null && view.turn === view.viewer;
}

function describe(error: unknown): string {
  if (isScopaError(error)) return `${error.code}${error.reason ? ` (${error.reason})` : ''}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
