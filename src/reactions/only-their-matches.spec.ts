/**
 * The steps that concern some matches only return at once, with no read,
 * for the others: the lobby (public matches that are or were open), the
 * ratings (rated matches), the tournaments (private matches: every table
 * is private) and the bot turns (a bot to move, by the snapshot at or past
 * the append).
 */
import { LobbyService } from '../lobby/lobby.service';
import { RatingsRecorder } from '../ratings/ratings-recorder.service';
import { TournamentsService } from '../tournaments/tournaments.service';
import { TournamentReactions } from '../tournaments/tournament-reactions';
import { TournamentTablesStore } from '../match-store/tournament-tables-store';
import { BotSeatsService } from '../bots/bot-seats.service';
import { Scheduler } from '../jobs/scheduler';
import type { AppConfig } from '../config/config';
import type { CommandResult } from '../match-store/match-store';

const seat = (player: string | null) => ({ player, reservedFor: null, bot: null });
const snapshot = (seq: number, started: boolean, seats: ReturnType<typeof seat>[], rated = false, visibility: 'public' | 'private' = 'public') => ({
  seq,
  visibility,
  state: { deckSeed: started ? new Uint8Array(32) : null, seats, settings: { rated } },
});
const result = (seq: number, ...types: string[]): CommandResult =>
  ({
    matchId: 'm',
    seq,
    replayed: false,
    events: types.map((type, i) => ({ matchId: 'm', seq: seq - types.length + 1 + i, type, actor: 'a', payload: {}, time: new Date() })),
  }) as unknown as CommandResult;

function lobby(snap: unknown) {
  const reads: string[] = [];
  const published: unknown[] = [];
  const store = { peek: () => snap, lobbyRow: async () => (reads.push('read'), null) };
  return {
    service: new LobbyService(store as never, { publish: async (_channel: string, change: unknown) => void published.push(change) } as never),
    reads,
    published,
  };
}

describe('lobby step', () => {
  it('reads nothing for a match created started (pairing, challenges, rematches)', async () => {
    const { service, reads } = lobby(snapshot(4, true, [seat('a'), seat('b')]));
    await service.publishChange(result(4, 'MatchCreated', 'SeatTaken', 'MatchStarted', 'RoundDealt'));
    expect(reads).toEqual([]);
  });

  it('reads nothing for a match created with no seat to take', async () => {
    const { service, reads } = lobby(snapshot(3, false, [seat('a'), seat('b')]));
    await service.publishChange(result(3, 'MatchCreated', 'SeatTaken', 'SeatTaken'));
    expect(reads).toEqual([]);
  });

  it('reads nothing for the end of a match that was in play', async () => {
    const { service, reads } = lobby(snapshot(40, true, [seat('a'), seat('b')]));
    await service.publishChange(result(40, 'CardPlayed', 'MatchEnded'));
    expect(reads).toEqual([]);
  });

  it('reads the match for an open one (a seat taken)', async () => {
    const open = lobby(snapshot(2, false, [seat('a'), seat(null)]));
    await open.service.publishChange(result(2, 'SeatTaken'));
    expect(open.reads).toEqual(['read']);
  });

  it('takes a public match out of the lobby at its start without reading it', async () => {
    const started = lobby(snapshot(5, true, [seat('a'), seat('b')]));
    await started.service.publishChange(result(5, 'MatchStarted', 'RoundDealt'));
    expect(started.reads).toEqual([]);
    expect(started.published).toEqual([{ type: 'removed', matchId: 'm' }]);
  });

  it('publishes nothing and reads nothing for a private match, open or starting', async () => {
    for (const [snap, r] of [
      [snapshot(2, false, [seat('a'), seat(null)], false, 'private'), result(2, 'SeatTaken')],
      [snapshot(5, true, [seat('a'), seat('b')], false, 'private'), result(5, 'MatchStarted', 'RoundDealt')],
    ] as const) {
      const { service, reads, published } = lobby(snap);
      await service.publishChange(r);
      expect(reads).toEqual([]);
      expect(published).toEqual([]);
    }
  });

  it('reads the match when this instance has no snapshot of it', async () => {
    const { service, reads } = lobby(undefined);
    await service.publishChange(result(5, 'MatchStarted', 'RoundDealt'));
    expect(reads).toEqual(['read']);
  });
});

describe('tournaments step', () => {
  function tournaments(snap: unknown) {
    const reads: string[] = [];
    const prisma = { $queryRawUnsafe: async () => (reads.push('read'), []) };
    const store = { peek: () => snap };
    return {
      service: new TournamentsService(
        prisma as never,
        {} as never,
        store as never,
        {} as never,
        {} as never,
        new TournamentTablesStore(prisma as never),
        {} as never,
        {} as never,
        {} as never,
        {} as never,
      ),
      reads,
    };
  }
  const end = { winner: 0, totals: [11, 4], reason: 'target' };

  it('reads nothing at the end of a public match (no table is public)', async () => {
    const { service, reads } = tournaments(snapshot(40, true, [seat('a'), seat('b')]));
    await service.matchEnded('m', end);
    expect(reads).toEqual([]);
  });

  it('looks a private match up (it may be a table), and one this instance has no snapshot of', async () => {
    for (const snap of [snapshot(40, true, [seat('a'), seat('b')], false, 'private'), undefined]) {
      const { service, reads } = tournaments(snap);
      await service.matchEnded('m', end);
      expect(reads).toEqual(['read']);
    }
  });
});

describe('tournaments step (the appending instance)', () => {
  function reactions(snap: unknown) {
    const calls: string[] = [];
    const store = { peek: () => snap, state: async () => (calls.push('read'), {}) };
    const jobs = { notify: (kind: string) => calls.push(`notify ${kind}`) };
    const tournaments = { matchEnded: async () => void calls.push('matchEnded') };
    return { step: new TournamentReactions(jobs as never, store as never, tournaments as never), calls };
  }

  it('reads and records nothing on the request path: a private match end wakes the result worker, anything else does nothing', () => {
    const priv = reactions(snapshot(40, true, [seat('a'), seat('b')], false, 'private'));
    priv.step.appended(result(40, 'CardPlayed', 'MatchEnded'));
    priv.step.appended(result(41, 'CardPlayed'));
    expect(priv.calls).toEqual(['notify tournament-result']);
    const pub = reactions(snapshot(40, true, [seat('a'), seat('b')]));
    pub.step.appended(result(40, 'CardPlayed', 'MatchEnded'));
    expect(pub.calls).toEqual([]);
  });
});

describe('bot turns step', () => {
  function bots(snap: unknown) {
    const reads: string[] = [];
    const humanToMove = { phase: 'playing', turn: 0, seats: [seat('a'), seat('b')] };
    const store = {
      peek: () => snap,
      current: async () => (reads.push('read'), { seq: 9, state: humanToMove }),
      atLeast: async () => (reads.push('read'), { seq: 9, state: humanToMove }),
    };
    return { service: new BotSeatsService(store as never, { BOT_SWEEP_MS: 0, BOT_ISMCTS_MS: 50 } as AppConfig, new Scheduler()), reads };
  }
  const humans = (seq: number) => ({ seq, visibility: 'public', state: { phase: 'playing', turn: 1, seats: [seat('a'), seat('b')] } });

  it('reads nothing when the snapshot is at this append, or past it (the match moved on meanwhile), and no bot is to move', async () => {
    for (const snap of [humans(8), humans(9)]) {
      const { service, reads } = bots(snap);
      await service.replyTo({ matchId: 'm', seq: 8 });
      expect(reads).toEqual([]);
      await service.onModuleDestroy();
    }
  });

  it('reads the log when this instance has no snapshot, or an older one', async () => {
    for (const snap of [undefined, humans(7)]) {
      const { service, reads } = bots(snap);
      await service.replyTo({ matchId: 'm', seq: 8 });
      expect(reads).toEqual(['read']);
      await service.onModuleDestroy();
    }
  });
});

describe('ratings step', () => {
  // The rating itself is a durable job queued by the append's trigger (src/ratings/ratings-recorder.service.ts): the step only wakes the worker.
  function recorder(waiting: { id: string; data: { matchId: string } }[] = []) {
    const calls: string[] = [];
    const ratings = { record: async (id: string) => (calls.push(`record ${id}`), 'rated') };
    const jobs = {
      notify: (kind: string) => calls.push(`notify ${kind}`),
      writesSettledBefore: async () => void calls.push('settled'),
      waitingBefore: async (_job: unknown, tie: string) => (calls.push(`waiting by ${tie}`), waiting),
    };
    return { r: new RatingsRecorder(ratings as never, jobs as never), calls };
  }

  it('reads and records nothing on the request path: an end wakes the rating worker, any other append does nothing', () => {
    const { r, calls } = recorder();
    r.appended(result(39, 'CardPlayed'));
    expect(calls).toEqual([]);
    r.appended(result(40, 'MatchEnded'));
    expect(calls).toEqual(['notify match-rating']);
  });

  it('a rating job rates the earlier jobs still waiting first, then its own match, once the writes before it settled', async () => {
    const { r, calls } = recorder([
      { id: 'j1', data: { matchId: 'early' } },
      { id: 'j2', data: { matchId: 'retried' } },
    ]);
    await r.run({ id: 'j3', name: 'match-rating', data: { matchId: 'm', seq: 40 }, retryCount: 0, retryLimit: 10, createdOn: new Date() });
    expect(calls).toEqual(['settled', 'waiting by matchId', 'record early', 'record retried', 'record m']);
  });
});
