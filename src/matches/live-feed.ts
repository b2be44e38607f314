/**
 * The events of a match from `fromSeq`: first those already logged, then
 * live ones, with no gap and no duplicate. A notice carries the events of its
 * append: taken as they are when they follow the last one delivered, else (a
 * gap: notices from two instances may cross) the log is read from there.
 * Each event comes out with the state right after it (SECRET: the caller
 * turns it into what its subscriber may see). The feed ends after the event
 * that ends the match: nothing can follow it (a command on an ended match is
 * MATCH_OVER), and every transport completes there (graphql-ws and
 * graphql-sse send `complete`, the NDJSON stream closes). A log read that
 * meets a lost database (a failover) waits for it and reads again, up to
 * OUTAGE_WAIT_MS, so the feed stays open across a failover and goes on from
 * its last seq.
 *
 * Redis pub/sub drops what is published while this instance's subscriber
 * connection is away (a Sentinel switch, a restart): `resumes` says when it
 * is back, and the feed then reads the log after the last event it delivered,
 * as after a gap, rather than wait for a next notice that may never come (the
 * match's last play, or a turn that waits for this very event).
 */
import { evolve } from '../engine';
import type { MatchState } from '../engine';
import { joinEvent } from '../match-formats/chain';
import type { StoredEvent } from '../match-formats/chain';
import type { Snapshot } from '../match-store/snapshot-cache';
import type { MatchNotice, PresenceChange } from '../realtime/channels';
import { isDatabaseUnavailable } from '../common/database-unavailable';

/** What the feed reads: the match store, in the service. */
export interface FeedLog {
  /** SECRET: the state at a seq (folded from the log). */
  state(matchId: string, atSeq: number): Promise<MatchState>;
  eventsFrom(matchId: string, fromSeq: number, limit: number): Promise<StoredEvent[]>;
  /** Told of the events a notice brought (they keep this instance's snapshot current). */
  absorb(matchId: string, events: readonly StoredEvent[]): void;
  /** SECRET: this instance's snapshot of the match, if it holds one (no read). */
  peek(matchId: string): FeedSnapshot | undefined;
}

/** What the feed needs of the instance's snapshot: where it is, and its state there. */
export type FeedSnapshot = Pick<Snapshot, 'seq' | 'hash' | 'state'>;

/** Log reads after a gap go this many events at a time. */
const PAGE = 200;
/** How long a log read waits for a lost database to come back before the feed fails (SERVICE_UNAVAILABLE), and how often it tries. */
const OUTAGE_WAIT_MS = 60_000;
const OUTAGE_RETRY_MS = 500;

/** `read`, again while it fails with the database lost (up to OUTAGE_WAIT_MS), unless `gone()` (the subscriber left). */
async function throughOutage<T>(read: () => Promise<T>, gone: () => boolean): Promise<T> {
  const until = Date.now() + OUTAGE_WAIT_MS;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() > until || gone()) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_RETRY_MS));
  }
}

export class LiveFeed<T> implements AsyncIterableIterator<T> {
  private readonly gen: AsyncGenerator<T, undefined>;

  /**
   * `notices` must already be listening (subscribe before the first log
   * read: a notice that comes meanwhile is skipped or causes one more read).
   */
  constructor(
    private readonly log: FeedLog,
    private readonly matchId: string,
    fromSeq: number,
    private readonly notices: AsyncIterableIterator<MatchNotice>,
    private readonly toItem: (event: StoredEvent, state: MatchState) => T,
    /** A presence change of a player (opponentGone / opponentBack), given the state at the last event delivered; omitted: not passed on. */
    private readonly toPresence?: (change: PresenceChange, seq: number, state: MatchState) => T,
    /** Registers a listener told when the notices' connection is back after a loss (src/realtime/realtime.ts FeedResumes); returns its removal. */
    private readonly onResume?: (listener: () => void) => () => void,
  ) {
    this.gen = this.run(fromSeq);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    return this.gen.next();
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    await this.notices.return?.(); // wakes the generator if it waits for a notice
    return this.gen.return(undefined);
  }

  throw(err?: unknown): Promise<IteratorResult<T, undefined>> {
    return this.gen.throw(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private async *run(fromSeq: number): AsyncGenerator<T, undefined> {
    const { matchId, notices } = this;
    const signal: { wake: (() => void) | null } = { wake: null };
    const inbox: MatchNotice[] = [];
    let readLog = true; // read the log once before the first notice
    let closed = false;
    const pump = (async () => {
      try {
        for await (const notice of notices as AsyncIterable<MatchNotice>) {
          inbox.push(notice);
          signal.wake?.();
        }
      } finally {
        closed = true;
        signal.wake?.();
      }
    })();
    // Back from a loss of the notices' connection: whatever was published meanwhile is lost, the log has it.
    const offResume = this.onResume?.(() => {
      readLog = true;
      signal.wake?.();
    });
    let last = fromSeq - 1;
    let state: MatchState | null = null;
    const ended = { yes: false };
    const next = async (e: StoredEvent): Promise<T> => {
      // The state follows the events one by one, from the log folded up to the first one; the
      // instance's snapshot when it is at this very event (every subscriber here shares it).
      const snap = this.log.peek(matchId);
      if (snap && snap.seq === e.seq && snap.hash === e.hash) state = snap.state;
      else
        state = state
          ? evolve(state, joinEvent(e))
          : await throughOutage(
              () => this.log.state(matchId, e.seq),
              () => closed,
            );
      last = e.seq;
      ended.yes = state.phase === 'over';
      return this.toItem(e, state);
    };
    try {
      while (!closed) {
        if (!readLog && inbox.length === 0) await new Promise<void>((resolve) => (signal.wake = resolve));
        signal.wake = null;
        if (closed) break;
        for (const notice of inbox.splice(0)) {
          if (notice.presence) {
            // Not a log event: it carries the seq of the last one delivered and does not move it.
            if (this.toPresence && last >= 1) {
              state ??= await throughOutage(
                () => this.log.state(matchId, last),
                () => closed,
              );
              yield this.toPresence(notice.presence, last, state);
            }
            continue;
          }
          if (readLog || notice.seq <= last) continue;
          const events = notice.events ?? [];
          if (events.length === 0 || events[0].seq > last + 1 || events[events.length - 1].seq !== notice.seq) {
            readLog = true;
            continue;
          }
          const stored = events.map((e) => ({ ...e, time: new Date(e.time) }));
          // The same events keep this instance's snapshot current (plays of a match may arrive on any instance).
          this.log.absorb(matchId, stored);
          for (const e of stored) {
            if (e.seq <= last) continue;
            yield await next(e);
            if (ended.yes) return undefined;
          }
        }
        if (!readLog) continue;
        readLog = false;
        for (;;) {
          const batch = await throughOutage(
            () => this.log.eventsFrom(matchId, last + 1, PAGE),
            () => closed,
          );
          if (batch.length === 0) break;
          for (const e of batch) {
            if (e.seq !== last + 1) throw new Error(`event log gap at ${last + 1}`);
            yield await next(e);
            if (ended.yes) return undefined;
          }
        }
      }
    } finally {
      offResume?.();
      await notices.return?.();
      await pump.catch(() => undefined);
    }
    return undefined;
  }
}
