import { PubSub } from 'graphql-subscriptions';
import { mulberry32, replay } from '../engine';
import type { MatchState } from '../engine';
import { playRandomly, seedFrom, startedMatch } from '../engine/testing';
import { GENESIS_HASH, chainEvents, joinEvent } from '../match-formats/chain';
import type { StoredEvent } from '../match-formats/chain';
import type { MatchNotice } from '../realtime/channels';
import { LiveFeed } from './live-feed';
import type { FeedLog, FeedSnapshot } from './live-feed';

const MATCH = 'feed-match';
const CHANNEL = `match:${MATCH}`;

/** A started match with `plays` plays, as the store would have logged it. */
function loggedMatch(plays: number): { seed: Uint8Array; events: StoredEvent[] } {
  const seed = seedFrom(mulberry32(7));
  const driven = startedMatch(seed, 'scopa');
  const rng = mulberry32(11);
  for (let i = 0; i < plays; i++) playRandomly(driven, rng);
  const events = chainEvents(MATCH, 0, GENESIS_HASH, driven.events, null).map((e) => ({ ...e, matchId: MATCH, time: new Date(1_000 * e.seq) }));
  return { seed, events };
}

/** The log as the feed reads it: `upTo` events are "appended" so far; reads are counted. */
class FakeLog implements FeedLog {
  upTo: number;
  reads: number[] = [];
  absorbed: number[][] = [];
  /** This instance's snapshot, as the store's cache holds it (none by default). */
  snapshot: FeedSnapshot | undefined;

  constructor(
    readonly all: StoredEvent[],
    private readonly seed: Uint8Array,
    upTo: number,
  ) {
    this.upTo = upTo;
  }

  async state(_matchId: string, atSeq: number): Promise<MatchState> {
    return replay(this.all.slice(0, atSeq).map(joinEvent), this.seed);
  }

  async eventsFrom(_matchId: string, fromSeq: number, limit: number): Promise<StoredEvent[]> {
    this.reads.push(fromSeq);
    return this.all.slice(fromSeq - 1, Math.min(this.upTo, fromSeq - 1 + limit));
  }

  absorb(_matchId: string, events: readonly StoredEvent[]): void {
    this.absorbed.push(events.map((e) => e.seq));
  }

  peek(): FeedSnapshot | undefined {
    return this.snapshot;
  }
}

function notice(events: StoredEvent[], seq = events[events.length - 1].seq): MatchNotice {
  return { matchId: MATCH, seq, events: events.map((e) => ({ ...e, time: e.time.toISOString() })) };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Pulls from the feed all along, as a subscriber does; `until(n)` waits for n items in all. */
function collect<T>(it: AsyncIterableIterator<T>) {
  const items: T[] = [];
  let arrived: () => void = () => undefined;
  const done = (async () => {
    for await (const item of it) {
      items.push(item);
      arrived();
    }
  })();
  const until = async (n: number): Promise<T[]> => {
    while (items.length < n) await new Promise<void>((resolve) => (arrived = resolve));
    return items.slice(0, n);
  };
  return { items, until, done };
}

describe('LiveFeed', () => {
  const { seed, events } = loggedMatch(12);
  const started = events.findIndex((e) => e.type === 'HandsDealt') + 1; // seq of the last event of the start
  let pubsub: PubSub;
  let log: FakeLog;
  let feed: LiveFeed<{ seq: number; state: MatchState }>;

  const open = (fromSeq: number) => {
    feed = new LiveFeed(log, MATCH, fromSeq, pubsub.asyncIterableIterator<MatchNotice>(CHANNEL), (e, state) => ({ seq: e.seq, state }));
    return feed;
  };
  /** Appends events up to `seq` to the log and returns them. */
  const append = (seq: number): StoredEvent[] => {
    const added = events.slice(log.upTo, seq);
    log.upTo = seq;
    return added;
  };

  beforeEach(() => {
    pubsub = new PubSub();
    log = new FakeLog(events, seed, started);
  });
  afterEach(async () => {
    await feed?.return();
  });

  it('sends the logged events from fromSeq, then the events notices carry, each with the state right after it', async () => {
    const got = collect(open(2));
    await got.until(started - 1);
    await settle();
    expect(log.reads).toEqual([2, started + 1]); // caught up: the log has nothing more
    await pubsub.publish(CHANNEL, notice(append(started + 1)));
    await pubsub.publish(CHANNEL, notice(append(started + 2)));
    const all = await got.until(started + 1);
    expect(all.map((x) => x.seq)).toEqual(Array.from({ length: started + 1 }, (_, i) => i + 2));
    for (const x of all) expect(x.state).toEqual(await log.state(MATCH, x.seq));
    expect(log.reads).toEqual([2, started + 1]); // no read for the notices
    expect(log.absorbed).toEqual([[started + 1], [started + 2]]);
  });

  it('reads the log after a gap, from the last event it sent', async () => {
    const got = collect(open(1));
    await got.until(started);
    await settle();
    expect(append(started + 1)).toHaveLength(1); // its notice is lost
    await pubsub.publish(CHANNEL, notice(append(started + 2)));
    const all = await got.until(started + 2);
    expect(all.slice(started).map((x) => x.seq)).toEqual([started + 1, started + 2]);
    for (const x of all) expect(x.state).toEqual(await log.state(MATCH, x.seq));
    expect(log.reads).toEqual([1, started + 1, started + 1, started + 3]);
    expect(log.absorbed).toEqual([]);
  });

  it('reads the log after the last event it sent when the notices connection is back, with no notice to come', async () => {
    const resumed = new Set<() => void>();
    const onResume = (listener: () => void) => {
      resumed.add(listener);
      return () => resumed.delete(listener);
    };
    feed = new LiveFeed(log, MATCH, 1, pubsub.asyncIterableIterator<MatchNotice>(CHANNEL), (e, state) => ({ seq: e.seq, state }), undefined, onResume);
    const got = collect(feed);
    await got.until(started);
    await settle();
    // Two plays whose notices were dropped while the subscriber connection was away: nothing else will be published.
    append(started + 2);
    await settle();
    expect(got.items).toHaveLength(started);
    for (const listener of resumed) listener();
    const all = await got.until(started + 2);
    expect(all.map((x) => x.seq)).toEqual(Array.from({ length: started + 2 }, (_, i) => i + 1));
    for (const x of all) expect(x.state).toEqual(await log.state(MATCH, x.seq));
    expect(log.reads).toEqual([1, started + 1, started + 1, started + 3]);
    // A late notice of those plays changes nothing: no duplicate.
    await pubsub.publish(CHANNEL, notice(events.slice(started, started + 2)));
    await settle();
    expect(got.items).toHaveLength(started + 2);
    await feed.return();
    expect(resumed.size).toBe(0); // the feed let go of its listener
  });

  it('takes notices that come out of order without a gap or a duplicate', async () => {
    const got = collect(open(1));
    await got.until(started);
    await settle();
    const first = append(started + 1);
    const second = append(started + 2);
    const third = append(started + 3);
    await pubsub.publish(CHANNEL, notice(second)); // crossed: the later notice first (a gap: the log is read)
    await pubsub.publish(CHANNEL, notice(first)); // late: already sent
    await pubsub.publish(CHANNEL, notice(third));
    await got.until(started + 3);
    await settle();
    expect(got.items.map((x) => x.seq)).toEqual(Array.from({ length: started + 3 }, (_, i) => i + 1));
    for (const x of got.items) expect(x.state).toEqual(await log.state(MATCH, x.seq));
  });

  it('skips a notice it has already sent the events of', async () => {
    const got = collect(open(1));
    await got.until(started);
    await settle();
    const batch = append(started + 1);
    await pubsub.publish(CHANNEL, notice(batch));
    await pubsub.publish(CHANNEL, notice(batch)); // the same again
    await pubsub.publish(CHANNEL, notice(events.slice(0, started))); // older events, already read from the log
    await pubsub.publish(CHANNEL, notice(append(started + 2)));
    await got.until(started + 2);
    await settle();
    expect(got.items.map((x) => x.seq)).toEqual(Array.from({ length: started + 2 }, (_, i) => i + 1));
    expect(log.reads).toEqual([1, started + 1]);
  });

  it("takes the state from the instance's snapshot when it is at that very event, and folds it otherwise", async () => {
    const got = collect(open(1));
    await got.until(started);
    await settle();
    const [next] = append(started + 1);
    const shared = await log.state(MATCH, started + 1);
    log.snapshot = { seq: next.seq, hash: next.hash, state: shared };
    await pubsub.publish(CHANNEL, notice([next]));
    const snapshotItem = (await got.until(started + 1))[started];
    expect(snapshotItem.seq).toBe(started + 1);
    expect(snapshotItem.state).toBe(shared); // the snapshot itself: no fold of its own
    // A snapshot at the same seq but another chain (not this log's event) is never taken.
    const [after] = append(started + 2);
    log.snapshot = { seq: after.seq, hash: 'f'.repeat(64), state: shared };
    await pubsub.publish(CHANNEL, notice([after]));
    const last = (await got.until(started + 2))[started + 1];
    expect(last.state).not.toBe(shared);
    expect(last.state).toEqual(await log.state(MATCH, started + 2));
    expect(log.reads).toEqual([1, started + 1]);
  });

  it('ends a subscriber that waits for a notice when it is closed, and stops listening', async () => {
    const got = collect(open(1));
    await got.until(started);
    await settle(); // waiting for a notice
    await feed.return();
    await got.done; // the waiting next() ended
    // nobody listens any more: a notice now goes nowhere
    await pubsub.publish(CHANNEL, notice(append(started + 1)));
    expect(await feed.next()).toEqual({ done: true, value: undefined });
    expect(got.items).toHaveLength(started);
  });
});
