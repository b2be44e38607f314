/**
 * The moderator role by the operator's command on the embedded database
 * (issue 46): `npm run admin -- grant moderator <username>` while the service
 * runs and holds its PGlite folder goes through the running service (the
 * loopback URL and secret it wrote into DATA_DIR/operator.json), and takes
 * effect at once; revoke likewise. The operator endpoint refuses a request
 * without that secret. With the service stopped, the command opens the
 * folder itself. Each change is in the moderation log, by operator:<name>.
 * (PostgreSQL: test/moderation-admin.pg-spec.ts.)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { openDatabase } from '../src/database/database';
import { OPERATOR_FILE, readOperatorEndpoint } from '../src/moderation/operator.service';
import { listenOnLoopback } from './support/app';

jest.setTimeout(180_000);

function admin(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', ...args],
      { cwd: process.cwd(), env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The service as main.ts builds it, on a PGlite folder it owns (no test template: its own migrations). */
async function startOnFolder(dataDir: string): Promise<{ app: INestApplication; http: string }> {
  process.env.JWT_SECRET ??= 'test-secret-for-e2e';
  const saved = { ...process.env };
  Object.assign(process.env, { DATA_DIR: dataDir, JOB_WORKERS: '0' });
  delete process.env.DATABASE_URL;
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = configureApp(moduleRef.createNestApplication({ logger: ['error'], bodyParser: false }));
    await app.init();
    const { http } = await listenOnLoopback(app);
    return { app, http };
  } finally {
    for (const k of Object.keys(process.env)) if (saved[k] === undefined) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

describe('npm run admin on the embedded database (e2e, a PGlite folder)', () => {
  let dir: string;
  let dataDir: string;
  let app: INestApplication | null = null;
  let base: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: '' });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'scopa-admin-'));
    dataDir = path.join(dir, 'data');
    ({ app, http: base } = await startOnFolder(dataDir));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants and revokes the moderator role through the running service that holds the folder, at once', async () => {
    const http = () => request(app!.getHttpServer());
    const reg = await http().post('/v1/auth/register').send({ username: 'mia', password: 'password-of-mia' });
    expect(reg.status).toBe(201);
    const token = reg.body.accessToken as string;
    expect((await http().get('/v1/admin/reports').set('authorization', `Bearer ${token}`)).status).toBe(403);
    const roles = async () => (await http().get('/v1/me').set('authorization', `Bearer ${token}`)).body.roles;
    expect(await roles()).toEqual([]);

    const file = path.join(dataDir, OPERATOR_FILE);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0); // the operator's only
    expect(readOperatorEndpoint(dataDir)).toMatchObject({ pid: process.pid, url: base });

    const granted = await admin(['grant', 'moderator', 'MIA', '--reason', 'new moderator'], env());
    expect(granted).toMatchObject({ code: 0 }); // stderr shown if not
    expect(granted.stdout).toMatch(/mia is now a moderator .*through the running service, pid \d+/);
    expect((await http().get('/v1/admin/reports').set('authorization', `Bearer ${token}`)).status).toBe(200);
    expect(await roles()).toEqual(['moderator']);

    const twice = await admin(['grant', 'moderator', 'mia'], env());
    expect([twice.code, twice.stdout]).toEqual([0, expect.stringMatching(/is a moderator already: nothing changed/)]);
    const unknown = await admin(['grant', 'moderator', 'nobody-here'], env());
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/NOT_FOUND/)]);
    expect((await admin(['grant', 'admin', 'mia'], env())).code).toBe(2);

    const log = await http().get('/v1/admin/moderation-log').set('authorization', `Bearer ${token}`);
    const events = log.text
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l));
    expect(events).toEqual([
      expect.objectContaining({
        seq: 1,
        type: 'moderatorGranted',
        actor: expect.stringMatching(/^operator:/),
        payload: { target: 'mia', reason: 'new moderator' },
      }),
    ]);

    const revoked = await admin(['revoke', 'moderator', 'mia'], env());
    expect([revoked.code, revoked.stdout]).toEqual([0, expect.stringMatching(/mia is no longer a moderator/)]);
    expect((await http().get('/v1/admin/reports').set('authorization', `Bearer ${token}`)).status).toBe(403);
    expect(await roles()).toEqual([]);
  });

  it('the operator endpoint refuses a request without the secret of the data folder', async () => {
    // through node:http, as the admin command's own process calls it: the endpoint is not in openapi.yaml (not public API),
    // and this suite's fetch and supertest check every answer against it
    const post = (secret: string | undefined) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ action: 'grant', role: 'moderator', username: 'mia' });
        const req = httpRequest(
          `${base}/v1/operator/roles`,
          { method: 'POST', headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-scopa-operator': secret } : {}) } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    for (const secret of [undefined, 'wrong', readOperatorEndpoint(dataDir)!.secret.slice(1)]) expect(await post(secret)).toBe(403);
  });

  it('with the service stopped, opens the folder itself; the operator file is gone', async () => {
    await app!.close();
    app = null;
    expect(existsSync(path.join(dataDir, OPERATOR_FILE))).toBe(false);
    const granted = await admin(['grant', 'moderator', 'mia'], env());
    expect([granted.code, granted.stdout]).toEqual([0, expect.stringMatching(/mia is now a moderator .*on the embedded database/)]);
    const listed = await admin(['list', 'moderators'], env());
    expect(listed.stdout.trim()).toBe('mia');
    const db = await openDatabase({ dataDir });
    try {
      const events = await db.prisma.$queryRawUnsafe<{ seq: number; type: string }[]>('SELECT seq, type FROM moderation_events ORDER BY seq');
      expect(events.map((e) => e.type)).toEqual(['moderatorGranted', 'moderatorRevoked', 'moderatorGranted']);
    } finally {
      await db.close();
    }
  });
});
