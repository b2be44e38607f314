/**
 * The service's VAPID key pair (RFC 8292): what signs the `Authorization: vapid t=<JWT>,k=<public key>` header of
 * every push, and the public key (`applicationServerKey`) a browser subscribes with (GET /v1/push/vapid-public-key).
 * A subscription is bound to the public key it was made with: a new pair makes every subscription fail (403) until
 * the browsers subscribe again.
 *
 * Kept like the JWT secret (src/auth/auth.config.ts): VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (base64url, as `npx
 * web-push generate-vapid-keys` prints them); else, on the embedded database, a pair generated once and kept in
 * DATA_DIR/vapid-keys.json (0600); else (in-memory database, or PostgreSQL without the variables) one pair per
 * process, with a warning: several instances on one PostgreSQL must be given the same pair.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import webpush from 'web-push';
import type { AppConfig } from '../config/config';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (65 bytes). */
  publicKey: string;
  /** P-256 private scalar, base64url (32 bytes). */
  privateKey: string;
  /** The contact the push services may reach (VAPID_SUBJECT): a mailto: or https: URL. */
  subject: string;
}

type KeyConfig = Pick<AppConfig, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'DATABASE_URL' | 'DATA_DIR' | 'NODE_ENV'>;

/** Where the embedded database keeps the generated pair (beside its data), or null when there is no such folder. */
export function storedVapidKeysFile(config: Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'>): string | null {
  const { DATABASE_URL: url, DATA_DIR: dataDir } = config;
  if (url || !dataDir || dataDir === 'memory') return null;
  return path.join(path.resolve(process.cwd(), dataDir), 'vapid-keys.json');
}

function readPair(file: string): { publicKey: string; privateKey: string } | null {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    throw new Error(`${file}: not a VAPID key pair (publicKey, privateKey)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The pair kept in `file`, made (0600) on first use, so that a restart keeps every subscription working. */
export function storedVapidKeys(file: string): { publicKey: string; privateKey: string } {
  const kept = readPair(file);
  if (kept) return kept;
  mkdirSync(path.dirname(file), { recursive: true });
  const made = webpush.generateVAPIDKeys();
  try {
    writeFileSync(file, JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }) + '\n', { mode: 0o600, flag: 'wx' });
    return made;
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readPair(file) ?? made;
    throw err;
  }
}

/** The stand-in pair of each stored file ('' for the per-process one), made once per process: the applications a process builds agree. */
const generated = new Map<string, { publicKey: string; privateKey: string }>();

/** The service's VAPID keys (see the file's comment). Read once per application (PushModule). */
export function vapidKeys(config: KeyConfig): VapidKeys {
  const subject = config.VAPID_SUBJECT;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  const file = storedVapidKeysFile(config);
  let pair = generated.get(file ?? '');
  if (!pair) {
    pair = file ? storedVapidKeys(file) : webpush.generateVAPIDKeys();
    generated.set(file ?? '', pair);
    if (config.NODE_ENV !== 'test') {
      Logger.warn(
        file
          ? `VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are unset: signing pushes with the pair kept in ${file}`
          : 'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are unset: signing pushes with a pair made for this process (subscriptions stop working at its end); set them in production',
        'Push',
      );
    }
  }
  return { ...pair, subject };
}
