/**
 * The moderator role by the operator's command on PostgreSQL (issue 46):
 * `npm run admin -- grant moderator <username>` opens the database itself
 * while two instances run on it, and the role takes effect on both at once;
 * grants and revokes racing from several commands at once are logged once
 * each, the log's chain sound. (Embedded: test/moderation-admin.e2e-spec.ts.)
 */
import { execFile } from 'node:child_process';
import { jest } from '@jest/globals';
import request from 'supertest';
import { auditModerationLog } from '../src/moderation/moderation-log';
import { useTwoPgInstances } from './support/two-pg-instances';

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

describe('npm run admin on PostgreSQL, two instances running', () => {
  const instances = useTwoPgInstances({ JOB_WORKERS: '0' });
  const { register } = instances;

  it('grants the role while both instances run: both see it at once; revoke likewise; racing commands log each change once', async () => {
    const url = instances.databaseUrl();
    const mo = await register(instances.a.app, 'pgmod');
    const other = await register(instances.a.app, 'pgoth');
    const reports = (app: typeof instances.a.app, auth: string) => request(app.getHttpServer()).get('/v1/admin/reports').set('authorization', auth);
    expect((await reports(instances.b.app, mo.auth)).status).toBe(403);

    const granted = await admin(['grant', 'moderator', mo.username], { DATABASE_URL: url });
    expect(granted).toMatchObject({ code: 0 }); // stderr shown if not
    expect(granted.stdout).toMatch(/is now a moderator .*on PostgreSQL/);
    for (const app of [instances.a.app, instances.b.app]) expect((await reports(app, mo.auth)).status).toBe(200);

    // three commands at once for the other account: one grant logged; then three revokes: one logged
    const grants = await Promise.all([0, 1, 2].map(() => admin(['grant', 'moderator', other.username], { DATABASE_URL: url })));
    expect(grants.map((g) => g.code)).toEqual([0, 0, 0]);
    expect(grants.filter((g) => /is now a moderator/.test(g.stdout))).toHaveLength(1);
    const revokes = await Promise.all([0, 1, 2].map(() => admin(['revoke', 'moderator', other.username], { DATABASE_URL: url })));
    expect(revokes.filter((g) => /is no longer a moderator/.test(g.stdout))).toHaveLength(1);
    expect((await reports(instances.b.app, other.auth)).status).toBe(403);

    const revoked = await admin(['revoke', 'moderator', mo.username], { DATABASE_URL: url });
    expect(revoked.code).toBe(0);
    for (const app of [instances.a.app, instances.b.app]) expect((await reports(app, mo.auth)).status).toBe(403);

    // read as a moderator of MODERATORS? none here: the log read straight, and audited
    const again = await admin(['grant', 'moderator', mo.username], { DATABASE_URL: url });
    expect(again.code).toBe(0);
    const log = await request(instances.a.app.getHttpServer()).get('/v1/admin/moderation-log').set('authorization', mo.auth);
    expect(log.status).toBe(200);
    expect(auditModerationLog(log.text).problems).toEqual([]);
    const types = log.text
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => `${JSON.parse(l).type} ${JSON.parse(l).payload.target}`);
    expect(types).toEqual([
      `moderatorGranted ${mo.username}`,
      `moderatorGranted ${other.username}`,
      `moderatorRevoked ${other.username}`,
      `moderatorRevoked ${mo.username}`,
      `moderatorGranted ${mo.username}`,
    ]);
  });
});
