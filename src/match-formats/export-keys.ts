/**
 * The keys of signed exports (docs/fairness.md, "Signed exports"): the
 * service's own Ed25519 key, which signs every export, the public keys it
 * publishes at `/.well-known/scopa-keys.json` (the current one and the
 * retired ones still trusted), and the keys of the issuers whose exports an
 * import attributes (IMPORT_TRUSTED_ISSUERS).
 *
 * The signing key is kept like the JWT secret: EXPORT_SIGNING_KEY; else, on
 * the embedded database, a key generated once and kept in
 * DATA_DIR/export-signing-key (PEM, 0600); else (in-memory database, or
 * PostgreSQL without the variable) one per process, so exports signed
 * before a restart no longer verify against the published keys.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import type { TrustedIssuer } from '../config/variables';
import { DomainError } from '../common/domain-error';
import { keyIdOf, publicJwkOf } from './export';
import type { ExportKeySet, ExportPublicJwk, ExportSigner } from './export';

/**
 * The service's public URL, the exports' `issuer`: OAUTH_ISSUER, default http://localhost:PORT (the same value
 * as src/oauth/oauth.config.ts oauthIssuer, read here so that src/match-formats does not import src/oauth).
 */
export function publicUrl(config: Pick<AppConfig, 'OAUTH_ISSUER' | 'PORT'>): string {
  return (config.OAUTH_ISSUER ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** Where the embedded database keeps the generated key (beside its data), or null when there is no such folder. */
export function storedSigningKeyFile(config: Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'>): string | null {
  const { DATABASE_URL: url, DATA_DIR: dataDir } = config;
  if (url || !dataDir || dataDir === 'memory') return null;
  return path.join(path.resolve(process.cwd(), dataDir), 'export-signing-key');
}

/** The key kept in `file`, made (0600) on first use. */
function storedKey(file: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    return privateKey;
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return createPrivateKey(readFileSync(file, 'utf8'));
    throw err;
  }
}

/** The service's export keys: what signs, and what it publishes. */
export class ExportKeys {
  readonly signer: ExportSigner;
  readonly keySet: ExportKeySet;

  constructor(privateKey: KeyObject, previous: readonly string[], issuer: string) {
    const current = publicJwkOf(privateKey);
    this.signer = { issuer, keyId: current.kid, privateKey };
    const retired = previous
      .filter((x) => x !== current.x)
      .map((x): ExportPublicJwk => {
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
        return { kty: 'OKP', crv: 'Ed25519', x, kid: keyIdOf(x), use: 'sig', alg: 'EdDSA' };
      });
    this.keySet = { keys: [current, ...retired] };
  }

  get issuer(): string {
    return this.signer.issuer;
  }

  /** From the configuration (see the file's comment). */
  static fromConfig(config: AppConfig): ExportKeys {
    let key = config.EXPORT_SIGNING_KEY;
    if (!key) {
      const file = storedSigningKeyFile(config);
      key = file ? storedKey(file) : generateKeyPairSync('ed25519').privateKey;
      if (config.NODE_ENV !== 'test') {
        Logger.warn(
          file
            ? `EXPORT_SIGNING_KEY is unset: signing exports with the key kept in ${file}`
            : 'EXPORT_SIGNING_KEY is unset: signing exports with a key made for this process; set EXPORT_SIGNING_KEY in production',
          'Exports',
        );
      }
    }
    return new ExportKeys(key, config.EXPORT_PREVIOUS_KEYS, publicUrl(config));
  }
}

/** How long a trusted issuer's key set is kept before it is read again. */
const KEYS_TTL_MS = 5 * 60_000;
/** An unknown key id reads the set again, at most this often (a rotated key shows up at once). */
const KEYS_REFRESH_MS = 10_000;
const KEYS_TIMEOUT_MS = 5_000;
const KEYS_MAX_BYTES = 256 * 1024;

/** The key sets of IMPORT_TRUSTED_ISSUERS, read from their URL or file and kept a while. */
export class TrustedIssuers {
  private readonly byIssuer: Map<string, TrustedIssuer>;
  private readonly cache = new Map<string, { at: number; keys: ExportKeySet }>();

  constructor(issuers: readonly TrustedIssuer[]) {
    this.byIssuer = new Map(issuers.map((i) => [i.issuer, i]));
  }

  trusts(issuer: string): boolean {
    return this.byIssuer.has(issuer);
  }

  /** The issuer's key set; `refresh` reads it again unless it was read in the last few seconds. UNAVAILABLE when it cannot be read. */
  async keysOf(issuer: string, refresh = false): Promise<ExportKeySet> {
    const entry = this.byIssuer.get(issuer);
    if (!entry) return { keys: [] };
    const hit = this.cache.get(issuer);
    const age = hit ? Date.now() - hit.at : Infinity;
    if (hit && age < (refresh ? KEYS_REFRESH_MS : KEYS_TTL_MS)) return hit.keys;
    let keys: ExportKeySet;
    try {
      keys = parseKeySet(await readKeySet(entry.keys));
    } catch (err) {
      throw new DomainError('UNAVAILABLE', `the keys of the trusted issuer ${issuer} cannot be read now (${(err as Error).message}); try again later`);
    }
    this.cache.set(issuer, { at: Date.now(), keys });
    return keys;
  }
}

/** A key set's text from an http(s) URL or a file. */
export async function readKeySet(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(KEYS_TIMEOUT_MS), redirect: 'error', headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    const text = await res.text();
    if (text.length > KEYS_MAX_BYTES) throw new Error(`${source} is too large for a key set`);
    return text;
  }
  return readFileSync(source, 'utf8');
}

/** A JWKS of Ed25519 keys (other keys are ignored); throws on anything else. */
export function parseKeySet(text: string): ExportKeySet {
  const value = JSON.parse(text) as { keys?: unknown };
  if (!value || !Array.isArray(value.keys)) throw new Error('not a JWK set ({"keys": [...]})');
  const keys = value.keys.filter(
    (k): k is ExportPublicJwk =>
      !!k &&
      typeof k === 'object' &&
      (k as ExportPublicJwk).kty === 'OKP' &&
      (k as ExportPublicJwk).crv === 'Ed25519' &&
      typeof (k as ExportPublicJwk).x === 'string' &&
      typeof (k as ExportPublicJwk).kid === 'string',
  );
  return { keys };
}

/** How a seat of a trusted issuer's match is named here: `username@host` (the issuer without its scheme), never a local account. */
export function foreignPlayer(name: string, issuer: string): string {
  return `${name}@${issuer.replace(/^https?:\/\//i, '').replace(/\/+$/, '')}`;
}
