import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { roundSeed, seedCommitment, tableSeed } from './duplicate-seed';
import { PAIRING_VERSION } from './round-pairing';
import { auditTournament } from './tournament-audit';
import { chainTournamentEvents, foldTournament, nextPairing, standingsOf, tournamentEventHash } from './tournament-log';
import type { TournamentEvent, TournamentSettings } from './tournament-log';

const settings = (over: Partial<TournamentSettings> = {}): TournamentSettings => ({
  name: 'club',
  format: 'swiss',
  preset: 'scopa-2p',
  overrides: {},
  rulesetId: null,
  rulesetVersion: null,
  rounds: 3,
  maxPlayers: 8,
  startsAt: null,
  turnTimeLimit: null,
  onExpiry: null,
  rated: false,
  duplicate: false,
  visibility: 'public',
  invited: [],
  ...over,
});

describe('tournament log', () => {
  it('chains every event to the one before (the formula of the header)', () => {
    const events: TournamentEvent[] = [
      { type: 'TournamentCreated', createdBy: 'ann', seedCommitment: null, ...settings() },
      { type: 'PlayerJoined', player: 'ann', rating: null, clientSeed: null },
    ];
    const chained = chainTournamentEvents('t1', null, events, 'ann', new Date('2026-11-26T10:00:00.000Z'));
    expect(chained[0].prevHash).toBe('0'.repeat(64));
    const expected = createHash('sha256')
      .update(
        '0'.repeat(64) +
          canonicalize({ tournamentId: 't1', seq: 1, type: 'TournamentCreated', payload: chained[0].payload, actor: 'ann', time: '2026-11-26T10:00:00.000Z' }),
      )
      .digest('hex');
    expect(chained[0].hash).toBe(expected);
    expect(chained[1].prevHash).toBe(chained[0].hash);
    expect(tournamentEventHash(chained[0].hash, chained[1])).toBe(chained[1].hash);
  });

  it('folds to a state whose next pairing follows from the results, and ends after the last round', () => {
    const players = ['a', 'b', 'c', 'd'];
    const events: TournamentEvent[] = [
      { type: 'TournamentCreated', createdBy: 'a', seedCommitment: null, ...settings({ rounds: 2 }) },
      ...players.map((p): TournamentEvent => ({ type: 'PlayerJoined', player: p, rating: null, clientSeed: null })),
      { type: 'TournamentStarted', players, rounds: 2 },
    ];
    let state = foldTournament('t', events);
    const first = nextPairing(state);
    if ('done' in first) throw new Error('expected a pairing');
    expect(first.round).toBe(1);
    events.push({
      type: 'RoundPaired',
      round: 1,
      tables: first.pairing.tables.map((t, i) => ({ table: i + 1, players: t, matchId: `m${i}` })),
      bye: null,
      seedCommitment: null,
    });
    // the first seat wins at table 1, the second at table 2: the winners hold opposite seat balances
    first.pairing.tables.forEach((_, i) =>
      events.push({
        type: 'MatchResultRecorded',
        round: 1,
        table: i + 1,
        matchId: `m${i}`,
        outcome: i === 0 ? 'first' : 'second',
        points: i === 0 ? [11, 4] : [4, 11],
        forfeit: false,
        reason: 'points',
      }),
    );
    events.push({ type: 'RoundEnded', round: 1, seed: null });
    state = foldTournament('t', events);
    const second = nextPairing(state);
    if ('done' in second) throw new Error('expected a pairing');
    const winners = [first.pairing.tables[0][0], first.pairing.tables[1][1]].sort();
    // the two winners meet, and so do the two losers
    expect(second.pairing.tables.some((t) => [...t].sort().join() === winners.join())).toBe(true);
    events.push({
      type: 'RoundPaired',
      round: 2,
      tables: second.pairing.tables.map((t, i) => ({ table: i + 1, players: t, matchId: null })),
      bye: null,
      seedCommitment: null,
    });
    expect(nextPairing(foldTournament('t', events))).toEqual({ done: 'completed' });
    expect(standingsOf(state)[0].matchPoints).toBe(1);
  });

  it('gives a round robin table against a withdrawn player to the other player as a forfeit', () => {
    const players = ['a', 'b', 'c', 'd'];
    const events: TournamentEvent[] = [
      { type: 'TournamentCreated', createdBy: 'a', seedCommitment: null, ...settings({ format: 'roundRobin' }) },
      ...players.map((p): TournamentEvent => ({ type: 'PlayerJoined', player: p, rating: null, clientSeed: null })),
      { type: 'TournamentStarted', players, rounds: 3 },
      { type: 'PlayerWithdrew', player: 'b', round: null },
    ];
    const next = nextPairing(foldTournament('t', events));
    if ('done' in next) throw new Error('expected a pairing');
    const withB = next.pairing.tables.findIndex((t) => t.includes('b'));
    expect(next.forfeits).toEqual([{ table: withB + 1, winner: next.pairing.tables[withB][0] === 'b' ? 1 : 0 }]);
  });
});

describe('pairing versions', () => {
  /** The issue-41 example: 6 players, every first seat wins round 1; the log up to round 2's pairing. */
  function sixPlayers(pairingVersion: number | undefined): { events: TournamentEvent[]; scores: Map<string, number> } {
    const players = ['a', 'b', 'c', 'd', 'e', 'f'];
    const events: TournamentEvent[] = [
      { type: 'TournamentCreated', createdBy: 'a', seedCommitment: null, ...settings({ rounds: 2 }) },
      ...players.map((p): TournamentEvent => ({ type: 'PlayerJoined', player: p, rating: null, clientSeed: null })),
      pairingVersion === undefined ? { type: 'TournamentStarted', players, rounds: 2 } : { type: 'TournamentStarted', players, rounds: 2, pairingVersion },
    ];
    const first = nextPairing(foldTournament('t', events));
    if ('done' in first) throw new Error('expected a pairing');
    events.push({
      type: 'RoundPaired',
      round: 1,
      tables: first.pairing.tables.map((t, i) => ({ table: i + 1, players: t, matchId: `m${i}` })),
      bye: null,
      seedCommitment: null,
    });
    const scores = new Map(players.map((p) => [p, 0]));
    first.pairing.tables.forEach((t, i) => {
      events.push({
        type: 'MatchResultRecorded',
        round: 1,
        table: i + 1,
        matchId: `m${i}`,
        outcome: 'first',
        points: [11, 3],
        forfeit: false,
        reason: 'points',
      });
      scores.set(t[0], 1);
    });
    events.push({ type: 'RoundEnded', round: 1, seed: null });
    const second = nextPairing(foldTournament('t', events));
    if ('done' in second) throw new Error('expected a pairing');
    events.push({
      type: 'RoundPaired',
      round: 2,
      tables: second.pairing.tables.map((t, i) => ({ table: i + 1, players: t, matchId: `n${i}` })),
      bye: null,
      seedCommitment: null,
    });
    return { events, scores };
  }
  const diffOf = (events: TournamentEvent[], scores: Map<string, number>) => {
    const r2 = events.filter((e) => e.type === 'RoundPaired')[1] as Extract<TournamentEvent, { type: 'RoundPaired' }>;
    return r2.tables.reduce((t, x) => t + Math.abs(scores.get(x.players[0])! - scores.get(x.players[1])!), 0);
  };
  const exported = (events: TournamentEvent[]) =>
    chainTournamentEvents('t', null, events, null, new Date('2026-12-01T10:00:00.000Z'))
      .map((e) => JSON.stringify(e))
      .join('\n');

  it('a log whose TournamentStarted names no version pairs as version 1 did; version 2 pairs by scores first; both audit sound', () => {
    expect(PAIRING_VERSION).toBe(2);
    const old = sixPlayers(undefined);
    expect(foldTournament('t', old.events).pairingVersion).toBe(1);
    expect(diffOf(old.events, old.scores)).toBe(3);
    expect(auditTournament(exported(old.events)).problems).toEqual([]);
    const current = sixPlayers(PAIRING_VERSION);
    expect(diffOf(current.events, current.scores)).toBe(1);
    expect(auditTournament(exported(current.events)).problems).toEqual([]);
  });

  it("the audit checks a round against its log's version: the other version's pairing, or an unknown version, is a problem", () => {
    const old = sixPlayers(undefined);
    const relabelled = old.events.map((e) => (e.type === 'TournamentStarted' ? { ...e, pairingVersion: PAIRING_VERSION } : e));
    const problems = auditTournament(exported(relabelled)).problems;
    // Version 1 pairs round 1 with the nearest player below, version 2 top half against bottom half: both rounds differ.
    expect(problems).toEqual([
      expect.stringMatching(/^seq 9 \(RoundPaired\): pairing .* is not the one the log implies/),
      expect.stringMatching(/^seq 14 \(RoundPaired\): pairing .* is not the one/),
    ]);
    const unknown = old.events.map((e) => (e.type === 'TournamentStarted' ? { ...e, pairingVersion: 99 } : e));
    expect(auditTournament(exported(unknown)).problems).toEqual([expect.stringMatching(/Swiss pairing version 99 is not implemented/)]);
  });
});

describe('duplicate seeds', () => {
  const master = '00'.repeat(31) + '01';
  it('derive as docs/fairness.md writes them (re-implemented with Node SHA-256)', () => {
    const n = Buffer.alloc(4);
    n.writeUInt32BE(2);
    const r2 = createHash('sha256').update('scopa-round/1').update(Buffer.from(master, 'hex')).update(n).digest('hex');
    expect(roundSeed(master, 2)).toBe(r2);
    expect(seedCommitment(r2)).toBe(createHash('sha256').update(Buffer.from(r2, 'hex')).digest('hex'));
    const d = createHash('sha256')
      .update('scopa-duplicate/1')
      .update(Buffer.from(r2, 'hex'))
      .update(Buffer.from([3, 0xc0, 0xff, 0xee, 0, 1, 0xab]))
      .digest('hex');
    expect(tableSeed(r2, ['c0ffee', null, 'ab'])).toBe(d);
  });

  it('differ by round and by any client seed', () => {
    expect(roundSeed(master, 1)).not.toBe(roundSeed(master, 2));
    const r = roundSeed(master, 1);
    expect(tableSeed(r, ['ab', 'cd'])).not.toBe(tableSeed(r, ['abcd', null]));
    expect(tableSeed(r, ['ab', 'cd'])).not.toBe(tableSeed(r, ['cd', 'ab']));
  });
});
