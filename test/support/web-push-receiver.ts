/**
 * A push service for tests: an HTTPS server on loopback with a self-signed certificate made at test time (openssl),
 * which records each push it is sent and answers the status it is told to; and what a browser does with a push:
 * the RFC 8291 (`aes128gcm`, RFC 8188) decryption with the subscription's own keys, and the check of the RFC 8292
 * VAPID `Authorization` header (the JWT's ES256 signature with the service's public key). Only node:crypto.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, hkdfSync, createDecipheriv, randomBytes, verify } from 'node:crypto';
import type { ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A self-signed certificate for `localhost` and 127.0.0.1 (P-256, one day). */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'scopa-push-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface PushReceiver {
  server: Server;
  /** https://localhost:<port> */
  origin: string;
  got: ReceivedPush[];
  /** The status the next pushes are answered with (default 201, as push services do). */
  answer(status: number): void;
  /** Resolves with the next push after `count` already received, or rejects after `timeoutMs`. */
  next(count: number, timeoutMs: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

export async function pushReceiver(tls: { key: string; cert: string }): Promise<PushReceiver> {
  const got: ReceivedPush[] = [];
  const waiters: (() => void)[] = [];
  let status = 201;
  const server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      res.statusCode = status;
      res.end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `https://localhost:${port}`,
    got,
    answer: (s) => (status = s),
    next: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no push within ${timeoutMs} ms (${got.length} received)`)), timeoutMs);
        const check = () => {
          if (got.length > count) {
            clearTimeout(timer);
            resolve(got[count]);
          } else waiters.push(check);
        };
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's side of a subscription: its ECDH P-256 key pair and auth secret, and the JSON PushSubscription.toJSON() gives. */
export interface BrowserKeys {
  ecdh: ECDH;
  auth: Buffer;
  json(endpoint: string): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: (endpoint) => ({ endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }),
  };
}

/**
 * The plaintext of an `aes128gcm` push body (RFC 8291 section 3.4, RFC 8188 section 2): the header (salt, record size,
 * the sender's ephemeral public key as key id), then one record, decrypted with the key and nonce derived from the
 * ECDH secret between the browser's key and the sender's and the browser's auth secret; its padding removed.
 */
export function decryptPush(body: Buffer, keys: BrowserKeys): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65 || record.length > recordSize)
    throw new Error(`not one aes128gcm record (keyid ${idLength} bytes, record ${record.length} of ${recordSize})`);
  const ecdhSecret = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record's delimiter is 0x02, after the data and before any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * The claims of a VAPID `Authorization: vapid t=<JWT>, k=<public key>` header (RFC 8292 section 3) once its `k` is
 * the expected public key and the JWT's ES256 signature verifies with it; throws otherwise.
 */
export function verifyVapid(header: string | undefined, expectedPublicKey: string): VapidClaims {
  const m = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!m) throw new Error(`not a vapid Authorization header: ${header}`);
  const params = new Map(m[1].split(',').map((p) => p.trim().split('=') as [string, string]));
  const token = params.get('t');
  const k = params.get('k');
  if (!token || k !== expectedPublicKey) throw new Error(`vapid header: k=${k}, expected ${expectedPublicKey}`);
  const [h, c, s] = token.split('.');
  const jwtHeader = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg: string; typ?: string };
  if (jwtHeader.alg !== 'ES256') throw new Error(`vapid JWT alg ${jwtHeader.alg}`);
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('vapid JWT: bad signature');
  return JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as VapidClaims;
}
