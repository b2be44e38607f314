/**
 * Signed exports and imports that attribute only what is proven (issue 26, item 1), end to end on PGlite:
 * the keys published at /.well-known/scopa-keys.json, `npm run audit --keys` on a signed export and on every
 * edit of it (a time included), and forged, renamed, re-dated and duplicated imports refused or attributed:
 * this service's own signed export is the match itself; a trusted issuer's is stored as username@host; an
 * unsigned or untrusted one is listed only in the importer's own archive. A private match is listed only to
 * its players.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { auditJsonl, keyIdOf, parseJsonl, publicJwkOf } from '../src/match-formats/export';
import type { ExportHeader, ExportLine, ExportSigner } from '../src/match-formats/export';
import { MatchStore } from '../src/match-store/match-store';
import { createTestApp } from './support/app';
import { gqlOk, register } from './support/clients';
import { reissue } from './support/exports';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

const pem = (key: KeyObject): string => key.export({ format: 'pem', type: 'pkcs8' }) as string;

/** A free loopback port (the service's public URL must be known before it starts: it is the issuer). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm run audit` as a child process (node with tsx's loader, as the script runs). */
function audit(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...args], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

/** Every occurrence of a name (seats, createdBy, actors) replaced: a renamed seat. */
function renamed(from: string, to: string) {
  return (h: ExportHeader, lines: ExportLine[]): void => {
    const swap = <T>(v: T): T => JSON.parse(JSON.stringify(v).split(JSON.stringify(from)).join(JSON.stringify(to))) as T;
    Object.assign(h, swap(h));
    lines.splice(0, lines.length, ...swap(lines));
  };
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('signed exports and attributed imports (e2e, PGlite)', () => {
  let app: INestApplication;
  let base: string;
  let store: MatchStore;
  let dir: string;
  let ann: Account;
  let bob: Account;
  let mal: Account;
  const current = generateKeyPairSync('ed25519').privateKey;
  const retired = generateKeyPairSync('ed25519').privateKey;
  const friendKey = generateKeyPairSync('ed25519').privateKey;
  const strangerKey = generateKeyPairSync('ed25519').privateKey;
  const friend: ExportSigner = { issuer: 'https://friend.example', keyId: publicJwkOf(friendKey).kid, privateKey: friendKey };
  const stranger: ExportSigner = { issuer: 'https://stranger.example', keyId: publicJwkOf(strangerKey).kid, privateKey: strangerKey };
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  /** A finished match of two seats: created, started, resigned by `loser`. */
  async function resigned(a: string, b: string, loser: string, visibility: 'public' | 'private' = 'public'): Promise<string> {
    const { matchId } = await store.create({ preset: 'scopa', seats: [{ player: a }, { player: b }], createdBy: a, visibility });
    await store.execute(matchId, { type: 'start', player: a }, { actor: a });
    await store.execute(matchId, { type: 'resign', player: loser }, { actor: loser });
    return matchId;
  }
  const exportOf = async (id: string) => (await http().get(`/v1/matches/${id}/export`).set('authorization', auth(ann))).text;
  const importAs = (a: Account, text: string) => http().post('/v1/matches/import').set('authorization', auth(a)).set('content-type', 'text/plain').send(text);
  const archiveIds = async (username: string, viewer?: Account): Promise<string[]> => {
    const r = http().get(`/v1/users/${encodeURIComponent(username)}/matches?max=100`);
    const res = viewer ? await r.set('authorization', auth(viewer)) : await r;
    expect(res.status).toBe(200);
    return (res.body.matches as { id: string }[]).map((m) => m.id);
  };
  const matchCount = () => app.get(PrismaService).match.count();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'scopa-signing-'));
    writeFileSync(path.join(dir, 'friend-keys.json'), JSON.stringify({ keys: [publicJwkOf(friendKey)] }));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({
      RATE_LIMIT: '100000',
      OAUTH_ISSUER: base,
      // the PEM's line breaks written \n, as in an .env file
      EXPORT_SIGNING_KEY: pem(current).trim().replace(/\n/g, '\\n'),
      EXPORT_PREVIOUS_KEYS: publicJwkOf(retired).x,
      IMPORT_TRUSTED_ISSUERS: `https://friend.example=${path.join(dir, 'friend-keys.json')}`,
    });
    await app.listen(port, '127.0.0.1');
    store = app.get(MatchStore);
    [ann, bob, mal] = await Promise.all([register(app, 'ann'), register(app, 'bob'), register(app, 'mal')]);
  });

  afterAll(async () => {
    await app?.close();
    for (const name of ['OAUTH_ISSUER', 'EXPORT_SIGNING_KEY', 'EXPORT_PREVIOUS_KEYS', 'IMPORT_TRUSTED_ISSUERS']) delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes its public keys at /.well-known/scopa-keys.json: the current key, then the retired one', async () => {
    const res = await http().get('/.well-known/scopa-keys.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const x = publicJwkOf(current).x;
    expect(res.body).toEqual({
      keys: [
        { kty: 'OKP', crv: 'Ed25519', x, kid: keyIdOf(x), use: 'sig', alg: 'EdDSA' },
        { kty: 'OKP', crv: 'Ed25519', x: publicJwkOf(retired).x, kid: keyIdOf(publicJwkOf(retired).x), use: 'sig', alg: 'EdDSA' },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/"d"/);
  });

  it('signs every export; `npm run audit --keys` verifies it with the published keys and fails after any edit, a time included', async () => {
    const id = await resigned(ann.username, bob.username, bob.username);
    const text = await exportOf(id);
    const { header, events } = parseJsonl(text);
    expect(header).toMatchObject({ format: 'scopa-match/2', matchId: id, issuer: base, keyId: publicJwkOf(current).kid, signature: expect.any(String) });
    // the batch export and the archive stream sign the same way
    const batch = await http()
      .post('/v1/matches/export')
      .set('authorization', auth(bob))
      .send({ ids: [id] });
    expect(JSON.parse(batch.text.trim()).export).toBe(text);

    const file = (name: string, body: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, body);
      return p;
    };
    const keysUrl = `${base}/.well-known/scopa-keys.json`;
    const ok = await audit('--keys', keysUrl, file('ok.jsonl', text));
    expect(ok.stdout).toContain(`signature valid: signed by ${base}`);
    expect(ok.code).toBe(0);
    const keysFile = file('keys.json', (await http().get('/.well-known/scopa-keys.json')).text);
    expect((await audit('--keys', keysFile, path.join(dir, 'ok.jsonl'))).code).toBe(0);
    // without keys it says the signature was not checked; an unsigned export says UNSIGNED
    expect((await audit(path.join(dir, 'ok.jsonl'))).stdout).toContain('NOT CHECKED');

    const line = (n: number, change: (l: ExportLine) => void): string => {
      const lines = text.trimEnd().split('\n');
      const l = JSON.parse(lines[n]) as ExportLine;
      change(l);
      lines[n] = JSON.stringify(l);
      return lines.join('\n') + '\n';
    };
    // a re-dated event, as it is: the chain breaks at it
    const redated = await audit(
      '--keys',
      keysUrl,
      file(
        'redated.jsonl',
        line(2, (l) => (l.time = '2099-01-01T00:00:00.000Z')),
      ),
    );
    expect(redated.stdout).toMatch(/UNSOUND.*seq 2/);
    expect(redated.code).toBe(1);
    // re-dated and rechained, signature kept: the signature fails
    const rechained = reissue(text, { change: (_h, ls) => (ls[ls.length - 1].time = '2099-01-01T00:00:00.000Z') });
    const forged = JSON.stringify({ ...parseJsonl(rechained).header, issuer: header.issuer, keyId: header.keyId, signature: header.signature });
    const redatedSigned = await audit('--keys', keysUrl, file('redated-signed.jsonl', [forged, ...rechained.split('\n').slice(1)].join('\n')));
    expect(redatedSigned.stdout).toContain('SIGNATURE FAILS');
    expect(redatedSigned.code).toBe(1);
    // a header edit (the creation date) with the chain intact: the signature fails
    const lines = text.trimEnd().split('\n');
    const headerEdit = [JSON.stringify({ ...header, createdAt: '2099-01-01T00:00:00.000Z' }), ...lines.slice(1)].join('\n') + '\n';
    expect((await audit('--keys', keysUrl, file('header.jsonl', headerEdit))).stdout).toContain('SIGNATURE FAILS');
    // the signature removed
    const { issuer: _i, keyId: _k, signature: _s, ...bare } = header;
    const unsigned = await audit('--keys', keysUrl, file('unsigned.jsonl', [JSON.stringify(bare), ...lines.slice(1)].join('\n') + '\n'));
    expect(unsigned.stdout).toContain('UNSIGNED');
    expect(unsigned.code).toBe(1);
    // signed by another service, checked against these keys
    const other = await audit('--keys', keysUrl, file('other.jsonl', reissue(text, { matchId: uuid(1), signer: friend })));
    expect(other.stdout).toContain('SIGNATURE NOT VERIFIED');
    expect(other.code).toBe(1);
    expect(events.length).toBeGreaterThan(2);
  });

  it('its own signed export is the match itself: answered with it, no duplicate, whoever imports it and however often', async () => {
    const id = await resigned(ann.username, bob.username, ann.username);
    const text = await exportOf(id);
    const before = await matchCount();
    for (const who of [ann, bob, mal, mal]) {
      const res = await importAs(who, text);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, sourceId: id, created: false, issuer: base, verified: true });
    }
    // the same log unsigned (its content unchanged) is still that match
    const { header } = parseJsonl(text);
    const { issuer: _i, keyId: _k, signature: _s, ...bare } = header;
    const stripped = [JSON.stringify(bare), ...text.trimEnd().split('\n').slice(1)].join('\n') + '\n';
    expect((await importAs(mal, stripped)).body).toMatchObject({ id, created: false });
    expect(await matchCount()).toBe(before);
    expect((await archiveIds(ann.username)).filter((m) => m === id)).toEqual([id]);
    expect((await archiveIds(bob.username)).filter((m) => m === id)).toEqual([id]);
  });

  it('refuses a signed export edited after signing: a renamed seat, a swapped result, a re-dated event, another key id', async () => {
    const id = await resigned(ann.username, bob.username, bob.username);
    const text = await exportOf(id);
    const { header } = parseJsonl(text);
    const keepSignature = (t: string) => {
      const h = parseJsonl(t).header;
      return (
        [JSON.stringify({ ...h, issuer: header.issuer, keyId: header.keyId, signature: header.signature }), ...t.trimEnd().split('\n').slice(1)].join('\n') +
        '\n'
      );
    };
    const before = await matchCount();
    const forgeries = [
      keepSignature(reissue(text, { change: renamed(bob.username, mal.username) })),
      keepSignature(reissue(text, { matchId: uuid(2), change: renamed(bob.username, mal.username) })),
      keepSignature(reissue(text, { change: (h, ls) => ((h.endedAt = '2099-01-01T00:00:00.000Z'), (ls[ls.length - 1].time = h.endedAt)) })),
      [JSON.stringify({ ...header, keyId: publicJwkOf(retired).kid }), ...text.trimEnd().split('\n').slice(1)].join('\n') + '\n',
    ];
    for (const forged of forgeries) {
      expect(auditJsonl(forged)).toMatchObject({ sound: true });
      const res = await importAs(mal, forged);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', signature: 'invalid', detail: expect.stringContaining('signature') });
    }
    // a swapped result is not even sound (the moves are re-decided)
    const swapped = reissue(text, { change: (h, ls) => ((h.result!.winner = 1 - h.result!.winner!), (ls[ls.length - 1].payload.winner = h.result!.winner)) });
    expect((await importAs(mal, swapped)).body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', audit: 'unsound' });
    // renamed and unsigned, still naming the match of this service: refused
    const renamedHere = reissue(text, { change: renamed(bob.username, mal.username) });
    expect((await importAs(mal, renamedHere)).body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', detail: expect.stringContaining('differs') });
    expect(await matchCount()).toBe(before);
  });

  it('stores an unsigned or untrusted import unverified: listed only in the importer’s own archive, to the importer', async () => {
    const id = await resigned(ann.username, bob.username, bob.username);
    const text = await exportOf(id);
    // renamed to put a victim (bob) in a match he never played, re-dated to 2099 to top his archive
    const forged = reissue(text, {
      matchId: uuid(3),
      change: (h, ls) => {
        renamed(ann.username, bob.username + 'x')(h, ls);
        ls.forEach((l) => (l.time = '2099-01-01T00:00:00.000Z'));
        h.createdAt = h.endedAt = '2099-01-01T00:00:00.000Z';
      },
    });
    const first = await importAs(mal, forged);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), sourceId: uuid(3), created: true, issuer: null, verified: false });
    const importedId = first.body.id as string;
    for (const viewer of [undefined, bob, ann, mal]) {
      expect(await archiveIds(bob.username, viewer)).not.toContain(importedId);
      expect(await archiveIds(ann.username, viewer)).not.toContain(importedId);
    }
    expect(await archiveIds(mal.username)).not.toContain(importedId);
    expect(await archiveIds(mal.username, bob)).not.toContain(importedId);
    const own = (await http().get(`/v1/users/${mal.username}/matches`).set('authorization', auth(mal))).body.matches as any[];
    expect(own.find((m) => m.id === importedId)).toMatchObject({ imported: true, verified: false, issuer: null, sourceId: uuid(3) });
    // the same through GraphQL
    const q = `query($u: String!) { userMatches(username: $u, max: 100) { matches { id verified issuer } } }`;
    expect((await gqlOk(app, mal.token, q, { u: mal.username })).userMatches.matches).toContainEqual({ id: importedId, verified: false, issuer: null });
    expect((await gqlOk(app, null, q, { u: mal.username })).userMatches.matches.map((m: { id: string }) => m.id)).not.toContain(importedId);

    // a second importer: the same match, now listed in both importers' own archives only
    const again = await importAs(ann, forged);
    expect(again.body).toEqual({ id: importedId, sourceId: uuid(3), created: false, issuer: null, verified: false });
    expect(await archiveIds(ann.username, ann)).toContain(importedId);
    expect(await archiveIds(ann.username)).not.toContain(importedId);
    expect(await archiveIds(mal.username, mal)).toContain(importedId);

    // signed by an issuer this service does not trust: unverified the same way
    const untrusted = await importAs(mal, reissue(text, { matchId: uuid(4), signer: stranger }));
    expect(untrusted.body).toMatchObject({ created: true, issuer: null, verified: false });
    expect(await archiveIds(ann.username)).not.toContain(untrusted.body.id);
  });

  it("stores a trusted issuer's signed export with its seats as username@host, never the local accounts; a bad signature is refused", async () => {
    const id = await resigned(ann.username, bob.username, bob.username);
    const text = await exportOf(id);
    const theirs = reissue(text, { matchId: uuid(5), signer: friend });
    const res = await importAs(mal, theirs);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), sourceId: uuid(5), created: true, issuer: 'https://friend.example', verified: true });
    const importedId = res.body.id as string;
    expect(await archiveIds(ann.username)).not.toContain(importedId);
    expect(await archiveIds(mal.username, mal)).not.toContain(importedId);
    const remote = `${ann.username}@friend.example`;
    expect(await archiveIds(remote)).toContain(importedId);
    const listed = (
      (await http().get(`/v1/users/${encodeURIComponent(remote)}/matches?vs=${encodeURIComponent(`${bob.username}@friend.example`)}`)).body.matches as any[]
    ).find((m) => m.id === importedId);
    expect(listed).toMatchObject({ imported: true, verified: true, issuer: 'https://friend.example' });
    expect(listed.players.map((p: { player: string }) => p.player)).toEqual([remote, `${bob.username}@friend.example`]);
    expect((await http().get(`/v1/matches/${importedId}/audit`).set('authorization', auth(mal))).body).toMatchObject({ sound: true, checked: 'chain+rules' });
    // a second import: the first; the re-export (not signed here: this service did not see it played) keeps the chain, times included
    expect((await importAs(bob, theirs)).body).toEqual({ id: importedId, sourceId: uuid(5), created: false, issuer: 'https://friend.example', verified: true });
    const reexport = (await http().get(`/v1/matches/${importedId}/export`).set('authorization', auth(mal))).text;
    expect(parseJsonl(reexport).header).toMatchObject({ matchId: uuid(5), importedAs: importedId, lastHash: parseJsonl(theirs).header.lastHash });
    expect(parseJsonl(reexport).header.signature).toBeUndefined();

    // the friend's issuer with a key it does not publish, or an edit after its signature: refused
    const before = await matchCount();
    expect((await importAs(mal, reissue(text, { matchId: uuid(6), signer: { ...stranger, issuer: friend.issuer } }))).body).toMatchObject({
      status: 400,
      signature: 'unknown-key',
    });
    const signed = reissue(text, { matchId: uuid(7), signer: friend });
    const edited = reissue(signed, { change: (_h, ls) => (ls[1].time = '2099-01-01T00:00:00.000Z') });
    const h = parseJsonl(signed).header;
    const keptSignature = [
      JSON.stringify({ ...parseJsonl(edited).header, issuer: h.issuer, keyId: h.keyId, signature: h.signature }),
      ...edited.trimEnd().split('\n').slice(1),
    ].join('\n');
    expect((await importAs(mal, keptSignature)).body).toMatchObject({ status: 400, signature: 'invalid' });
    expect(await matchCount()).toBe(before);
  });

  it('an unverified import first, the trusted signed one after: attributed then (the squatter gains nothing)', async () => {
    const id = await resigned(ann.username, bob.username, ann.username);
    const signed = reissue(await exportOf(id), { matchId: uuid(8), signer: friend });
    const { issuer: _i, keyId: _k, signature: _s, ...bare } = parseJsonl(signed).header;
    const stripped = [JSON.stringify(bare), ...signed.trimEnd().split('\n').slice(1)].join('\n') + '\n';
    const squat = await importAs(mal, stripped);
    expect(squat.body).toMatchObject({ created: true, verified: false });
    const proven = await importAs(bob, signed);
    expect(proven.body).toEqual({ id: squat.body.id, sourceId: uuid(8), created: false, issuer: 'https://friend.example', verified: true });
    expect(await archiveIds(`${ann.username}@friend.example`)).toContain(squat.body.id);
    expect(await archiveIds(mal.username, mal)).not.toContain(squat.body.id);
  });

  it('lists a finished private match only to its players', async () => {
    const id = await resigned(ann.username, bob.username, bob.username, 'private');
    const publicId = await resigned(ann.username, bob.username, bob.username);
    expect(await archiveIds(ann.username, ann)).toContain(id);
    expect(await archiveIds(ann.username, bob)).toContain(id);
    expect(await archiveIds(bob.username, ann)).toContain(id);
    for (const viewer of [undefined, mal]) {
      expect(await archiveIds(ann.username, viewer)).not.toContain(id);
      expect(await archiveIds(bob.username, viewer)).not.toContain(id);
      expect(await archiveIds(ann.username, viewer)).toContain(publicId);
    }
    const q = `query($u: String!) { userMatches(username: $u, max: 100) { matches { id } } }`;
    expect((await gqlOk(app, null, q, { u: ann.username })).userMatches.matches.map((m: { id: string }) => m.id)).not.toContain(id);
    expect((await gqlOk(app, bob.token, q, { u: ann.username })).userMatches.matches.map((m: { id: string }) => m.id)).toContain(id);
  });
});
