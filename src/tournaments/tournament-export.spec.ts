import { generateKeyPairSync } from 'node:crypto';
import { publicJwkOf } from '../match-formats/export';
import { auditTournament } from './tournament-audit';
import { headerProblems, verifyTournamentSignature, writeTournamentExport } from './tournament-export';
import type { TournamentExportHeader } from './tournament-export';
import { chainTournamentEvents } from './tournament-log';
import type { TournamentEvent, TournamentSettings } from './tournament-log';

const settings: TournamentSettings = {
  name: 'club',
  format: 'swiss',
  preset: 'scopa',
  overrides: {},
  rulesetId: null,
  rulesetVersion: null,
  rounds: 1,
  maxPlayers: 8,
  startsAt: null,
  turnTimeLimit: null,
  onExpiry: null,
  rated: false,
  duplicate: false,
  visibility: 'public',
  invited: [],
};

const key = generateKeyPairSync('ed25519').privateKey;
const signer = { issuer: 'https://scopa.example', keyId: publicJwkOf(key).kid, privateKey: key };
const keys = { keys: [publicJwkOf(key)] };

function log() {
  const events: TournamentEvent[] = [
    { type: 'TournamentCreated', createdBy: 'ann', seedCommitment: null, ...settings },
    { type: 'PlayerJoined', player: 'ann', rating: null, clientSeed: null },
    { type: 'PlayerJoined', player: 'bob', rating: null, clientSeed: null },
  ];
  return chainTournamentEvents('t1', null, events, 'ann', new Date('2026-12-01T10:00:00.000Z'));
}

const parse = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('tournament export (scopa-tournament/2)', () => {
  it('heads the events with a signed header that says what the log says', () => {
    const events = log();
    const [header, ...lines] = parse(writeTournamentExport(events, signer));
    expect(header).toMatchObject({
      format: 'scopa-tournament/2',
      tournamentId: 't1',
      createdBy: 'ann',
      status: 'created',
      players: ['ann', 'bob'],
      events: 3,
      lastHash: events[2].hash,
      issuer: signer.issuer,
      keyId: signer.keyId,
    });
    expect(lines).toEqual(JSON.parse(JSON.stringify(events)));
    expect(verifyTournamentSignature(header as unknown as TournamentExportHeader, keys).status).toBe('valid');
    expect(headerProblems(header as unknown as TournamentExportHeader, events)).toEqual([]);
  });

  it('a header edit fails the signature; a header that is not the log is a problem of the audit', () => {
    const events = log();
    const [header] = parse(writeTournamentExport(events, signer));
    const edited = { ...header, players: ['ann', 'mal'] } as unknown as TournamentExportHeader;
    expect(verifyTournamentSignature(edited, keys).status).toBe('invalid');
    expect(headerProblems(edited, events)).toEqual(['header: players ["ann","mal"] is not the log\'s ["ann","bob"]']);
    const otherKey = generateKeyPairSync('ed25519').privateKey;
    expect(verifyTournamentSignature(header as unknown as TournamentExportHeader, { keys: [publicJwkOf(otherKey)] }).status).toBe('unknown-key');
    const { signature: _s, issuer: _i, keyId: _k, ...unsigned } = header;
    expect(verifyTournamentSignature(unsigned as unknown as TournamentExportHeader, keys).status).toBe('unsigned');
  });

  it('the audit reads both formats: with the header, and the headerless lines of before', () => {
    const events = log();
    const text = writeTournamentExport(events, signer);
    const withHeader = auditTournament(text);
    expect(withHeader.problems).toEqual([]);
    expect(withHeader.header?.format).toBe('scopa-tournament/2');
    const old = auditTournament(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    expect(old.problems).toEqual([]);
    expect(old.header).toBeNull();
    expect(old.events).toBe(withHeader.events);
    // the header's count and last hash hold the log: a line dropped is seen
    const dropped = text.trimEnd().split('\n').slice(0, -1).join('\n') + '\n';
    expect(auditTournament(dropped).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^header: events 3 is not the log's 2/), expect.stringMatching(/^header: lastHash/)]),
    );
  });
});
