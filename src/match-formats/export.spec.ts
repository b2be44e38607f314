import { apply, playRandomly, seedFrom } from '../engine/testing';
import type { Driven } from '../engine/testing';
import { generateKeyPairSync } from 'node:crypto';
import { initialState, mulberry32, seedCommitment, toHex } from '../engine';
import type { MatchEvent } from '../engine';
import { GENESIS_HASH, chainEvents, eventHash, joinEvent } from './chain';
import type { StoredEvent } from './chain';
import { EXPORT_FORMAT_V1, auditJsonl, keyIdOf, parseJsonl, publicJwkOf, toJsonl, verifyHeaderSignature, writeExport } from './export';
import type { ExportFields, ExportHeader, ExportLine, ExportSigner } from './export';
import { auditNotation, toNotation } from './notation';

const MATCH = '00000000-0000-4000-8000-000000000019';

/** The export of a finished scopa-rules/2 match where both seats gave a client seed (one alone, one with its join). */
function exported(n: number, rulesVersion = 'scopa-rules/2', play?: (m: Driven) => void): string {
  const rng = mulberry32(n);
  const seed = seedFrom(rng);
  const m: Driven = { state: initialState(seed), events: [] };
  apply(m, { type: 'create', preset: 'scopa', seats: [{ player: 'ann' }, {}], createdBy: 'ann', seedCommitment: seedCommitment(seed), rulesVersion });
  apply(m, { type: 'setClientSeed', player: 'ann', clientSeed: '5eed'.repeat(8) });
  apply(m, { type: 'join', player: 'bob', clientSeed: '0b' });
  if (play) play(m);
  else {
    apply(m, { type: 'start', player: 'ann' });
    while (m.state.phase === 'playing') playRandomly(m, rng);
  }
  const time = new Date('2026-11-23T10:00:00Z');
  const stored: StoredEvent[] = chainEvents(MATCH, 0, GENESIS_HASH, m.events, 'ann').map((e) => ({ ...e, matchId: MATCH, time }));
  const created = m.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>;
  const ended = m.events[m.events.length - 1] as Extract<MatchEvent, { type: 'MatchEnded' }>;
  const header: ExportHeader = {
    format: EXPORT_FORMAT_V1,
    matchId: MATCH,
    preset: created.preset,
    options: created.options,
    rulesVersion: created.rulesVersion,
    seats: m.state.seats.slice(),
    settings: created.settings,
    createdBy: created.createdBy,
    seedCommitment: created.seedCommitment,
    seed: toHex(seed),
    result: { reason: ended.reason, winner: ended.winner, totals: ended.totals },
    events: stored.length,
    lastHash: stored[stored.length - 1].hash,
    createdAt: time.toISOString(),
    endedAt: time.toISOString(),
  };
  return toJsonl(header, stored);
}

/** Rewrites an export, then (when asked) recomputes every hash and the header's lastHash, as a forger who controls the file would. */
function forge(text: string, change: (header: ExportHeader, lines: ExportLine[]) => void, rechain: boolean): string {
  const { header, events } = parseJsonl(text);
  change(header, events);
  if (rechain) {
    let prev = GENESIS_HASH;
    for (const line of events) {
      line.prevHash = prev;
      line.hash = eventHash(prev, MATCH, line);
      prev = line.hash;
    }
    header.lastHash = prev;
  }
  return [header, ...events].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const seqOf = (text: string, type: string) => parseJsonl(text).events.find((e) => e.type === type)!.seq;

describe('the export of a scopa-rules/2 match', () => {
  const text = exported(19);
  const firstDeal = seqOf(text, 'RoundDealt');
  const given = seqOf(text, 'ClientSeedGiven');
  const joined = seqOf(text, 'SeatTaken');

  it('audits sound offline from the export alone, client seeds included', () => {
    const { header, events } = parseJsonl(text);
    expect(header.rulesVersion).toBe('scopa-rules/2');
    expect(events.find((e) => e.type === 'ClientSeedGiven')!.payload).toEqual({ seat: 0, clientSeed: '5eed'.repeat(8) });
    expect(events.find((e) => e.type === 'SeatTaken')!.payload).toEqual({ seat: 1, player: 'bob', clientSeed: '0b' });
    expect(auditJsonl(text)).toMatchObject({ sound: true, matchId: MATCH, events: events.length });
  });

  it('finds a changed client seed at its event, or at the first deal once the chain is forged too', () => {
    const change = (_h: ExportHeader, lines: ExportLine[]) => {
      lines.find((e) => e.type === 'ClientSeedGiven')!.payload.clientSeed = '5eed'.repeat(7) + '5eee';
    };
    expect(auditJsonl(forge(text, change, false))).toMatchObject({ sound: false, seq: given });
    expect(auditJsonl(forge(text, change, true))).toMatchObject({ sound: false, seq: firstDeal });
    const changeJoin = (_h: ExportHeader, lines: ExportLine[]) => {
      lines.find((e) => e.type === 'SeatTaken')!.payload.clientSeed = '0c';
    };
    expect(auditJsonl(forge(text, changeJoin, false))).toMatchObject({ sound: false, seq: joined });
    expect(auditJsonl(forge(text, changeJoin, true))).toMatchObject({ sound: false, seq: firstDeal });
  });

  it('finds client seeds moved to other seats (the seat order of the derivation) at the first deal', () => {
    const swap = (_h: ExportHeader, lines: ExportLine[]) => {
      const a = lines.find((e) => e.type === 'ClientSeedGiven')!.payload;
      const b = lines.find((e) => e.type === 'SeatTaken')!.payload;
      [a.clientSeed, b.clientSeed] = [b.clientSeed, a.clientSeed];
    };
    expect(auditJsonl(forge(text, swap, false))).toMatchObject({ sound: false, seq: given });
    expect(auditJsonl(forge(text, swap, true))).toMatchObject({ sound: false, seq: firstDeal });
  });

  it('finds a changed server seed: against the commitment, in MatchCreated, then at the first deal', () => {
    const other = 'ab'.repeat(32);
    expect(auditJsonl(forge(text, (h) => (h.seed = other), false))).toMatchObject({ sound: false, seq: null, reason: expect.stringContaining('commitment') });
    const recommitted = (h: ExportHeader) => {
      h.seed = other;
      h.seedCommitment = seedCommitment(Buffer.from(other, 'hex'));
    };
    expect(auditJsonl(forge(text, recommitted, true))).toMatchObject({ sound: false, seq: 1 });
    // A forger who also rewrites MatchCreated's commitment and MatchEnded's reveal: the deals no longer follow.
    const everywhere = (h: ExportHeader, lines: ExportLine[]) => {
      recommitted(h);
      lines[0].payload.seedCommitment = h.seedCommitment;
      lines[lines.length - 1].payload.seed = other;
    };
    expect(auditJsonl(forge(text, everywhere, true))).toMatchObject({ sound: false, seq: firstDeal });
  });

  it('keeps an unforged file byte for byte (so the forgeries above differ only by their change)', () => {
    expect(forge(text, () => undefined, true)).toBe(text);
  });

  it('writes a notation that carries the client seeds and audits sound, and unsound with another seed', () => {
    const { header, events } = parseJsonl(text);
    const notation = toNotation(header, events.map(joinEvent));
    expect(notation).toContain(`[ClientSeeds "${JSON.stringify(['5eed'.repeat(8), '0b'])}"]`);
    expect(auditNotation(notation)).toMatchObject({ sound: true });
    const changed = notation.replace('"0b"]', '"0c"]');
    expect(changed).not.toBe(notation);
    expect(auditNotation(changed)).toMatchObject({ sound: false, ply: 1 });
    expect(auditNotation(notation.replace(/\[ClientSeeds .*\]\n/, ''))).toMatchObject({ sound: false });
  });
});

describe('the export of an aborted scopa-rules/3 match', () => {
  it('audits sound as JSON Lines and as notation, aborted after the start or before it', () => {
    for (const beforeStart of [false, true]) {
      const text = exported(23, 'scopa-rules/3', (m) => {
        if (!beforeStart) apply(m, { type: 'start', player: 'ann' });
        apply(m, { type: 'abort', player: 'bob' });
      });
      const { header, events } = parseJsonl(text);
      expect(header.result).toEqual({ reason: 'aborted', winner: null, totals: [0, 0] });
      expect(events.map((e) => e.type).slice(-2)).toEqual(['MatchAborted', 'MatchEnded']);
      expect(auditJsonl(text)).toMatchObject({ sound: true });
      const notation = toNotation(
        header,
        events.map((e) => ({ type: e.type, ...e.payload }) as MatchEvent),
      );
      expect(notation).toContain('abort(1)');
      expect(notation.includes('[Started "no"]')).toBe(beforeStart);
      expect(auditNotation(notation)).toMatchObject({ sound: true });
      // The abort moved to the other seat is found.
      expect(auditNotation(notation.replace('abort(1)', 'abort(5)'))).toMatchObject({ sound: false });
    }
  });
});

describe('scopa-match/2: times in the chain, a signed header', () => {
  const v1 = exported(29);
  const { header: h1, events: lines } = parseJsonl(v1);
  const stored: StoredEvent[] = lines.map((l, i) => ({ ...l, matchId: MATCH, time: new Date(Date.parse('2026-11-23T10:00:00.000Z') + i * 1500) }));
  const { format: _f, events: _n, lastHash: _l, ...fields } = h1;
  const { privateKey } = generateKeyPairSync('ed25519');
  const signer: ExportSigner = { issuer: 'https://scopa.example', keyId: publicJwkOf(privateKey).kid, privateKey };
  const keys = { keys: [publicJwkOf(privateKey)] };
  const v2 = writeExport(fields as ExportFields, stored, signer);
  const edit = (change: (header: ExportHeader, lines: ExportLine[]) => void): string => {
    const { header, events } = parseJsonl(v2);
    change(header, events);
    return [header, ...events].map((l) => JSON.stringify(l)).join('\n') + '\n';
  };

  it('audits sound, signed by the key whose thumbprint is its keyId', () => {
    const { header } = parseJsonl(v2);
    expect(header).toMatchObject({
      format: 'scopa-match/2',
      issuer: 'https://scopa.example',
      keyId: keys.keys[0].kid,
      signature: expect.stringMatching(/^[\w-]{86}$/),
    });
    expect(keys.keys[0]).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: keyIdOf(keys.keys[0].x), use: 'sig', alg: 'EdDSA' });
    expect(auditJsonl(v2)).toMatchObject({ sound: true, format: 'scopa-match/2', events: lines.length });
    expect(verifyHeaderSignature(header, keys)).toEqual({ status: 'valid', issuer: 'https://scopa.example', keyId: header.keyId });
  });

  it('chains the times: a re-dated event breaks the chain at its seq, and a rechained one the signature', () => {
    const redated = edit((_h, ls) => (ls[2].time = '2099-01-01T00:00:00.000Z'));
    expect(auditJsonl(redated)).toMatchObject({ sound: false, seq: 3, reason: expect.stringContaining('time') });
    // A forger who recomputes the timed chain and lastHash: sound again, but no longer signed by the key.
    const rechained = edit((h, ls) => {
      ls[2].time = '2099-01-01T00:00:00.000Z';
      const again = parseJsonl(
        writeExport(
          fields as ExportFields,
          ls.map((l) => ({ ...l, matchId: MATCH, time: new Date(l.time) })),
        ),
      ).events;
      ls.splice(0, ls.length, ...again);
      h.lastHash = again[again.length - 1].hash;
    });
    expect(auditJsonl(rechained)).toMatchObject({ sound: true });
    expect(verifyHeaderSignature(parseJsonl(rechained).header, keys)).toMatchObject({ status: 'invalid' });
    // The time must be written as the export writes it (one text per instant).
    expect(auditJsonl(edit((_h, ls) => (ls[0].time = ls[0].time.replace('.000Z', 'Z'))))).toMatchObject({ sound: false });
  });

  it('the signature covers every header field: a renamed seat, a swapped result, another issuer or key id fail it', () => {
    const changes: ((h: ExportHeader) => void)[] = [
      (h) => (h.createdAt = '2099-01-01T00:00:00.000Z'),
      (h) => (h.issuer = 'https://evil.example'),
      (h) => (h.keyId = 'other'),
      (h) => (h.ratingChanges = []),
      (h) => (h.seats[0].player = 'mallory'),
    ];
    for (const change of changes) {
      const verdict = verifyHeaderSignature(parseJsonl(edit(change)).header, keys);
      expect(verdict.status).not.toBe('valid');
    }
    expect(verifyHeaderSignature(parseJsonl(edit((h) => (h.keyId = 'other'))).header, keys)).toMatchObject({ status: 'unknown-key' });
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(verifyHeaderSignature(parseJsonl(v2).header, { keys: [{ ...publicJwkOf(other), kid: keys.keys[0].kid }] })).toMatchObject({ status: 'invalid' });
  });

  it('an unsigned export says so; scopa-match/1 still audits as it was, times outside its hashes', () => {
    const unsigned = writeExport(fields as ExportFields, stored);
    expect(parseJsonl(unsigned).header.signature).toBeUndefined();
    expect(verifyHeaderSignature(parseJsonl(unsigned).header, keys)).toEqual({ status: 'unsigned' });
    expect(auditJsonl(v1)).toMatchObject({ sound: true, format: 'scopa-match/1' });
    const redatedV1 = parseJsonl(v1);
    redatedV1.events[2].time = '2099-01-01T00:00:00.000Z';
    expect(auditJsonl([redatedV1.header, ...redatedV1.events].map((l) => JSON.stringify(l)).join('\n'))).toMatchObject({ sound: true });
  });
});
