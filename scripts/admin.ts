/**
 * npm run admin: the operator's commands (docs/operations.md "Moderators").
 *
 *   npm run admin -- grant moderator <username> [--reason TEXT]
 *   npm run admin -- revoke moderator <username> [--reason TEXT]
 *   npm run admin -- list moderators
 *
 * Each change is appended to the moderation log as done by
 * `operator:<your login name>`. Uses the service's database settings, and
 * works while the service runs:
 * - DATABASE_URL set (PostgreSQL): opens the database itself, beside the
 *   running instances (they read the role on each moderator request);
 * - else the PGlite folder DATA_DIR: opened directly when no process holds
 *   it; when the running service holds it (src/database/data-dir-lock.ts),
 *   the command goes through that service: the loopback URL and secret it
 *   wrote into DATA_DIR/operator.json (mode 0600: whoever reads the data
 *   folder is the operator), `POST /v1/operator/roles`.
 * Exit 0 done (or nothing to change), 1 refused or failed, 2 usage.
 */
import { userInfo } from 'node:os';
import path from 'node:path';
import { AccountsStore } from '../src/auth/accounts-store';
import { appConfig } from '../src/config/config';
import { DataDirLockedError } from '../src/database/data-dir-lock';
import { databaseOptionsFromEnv, openDatabase } from '../src/database/database';
import type { PrismaService } from '../src/database/prisma.service';
import { ModerationStore } from '../src/moderation/moderation-store';
import { operatorActor, setRole } from '../src/moderation/moderation.service';
import { OPERATOR_HEADER, readOperatorEndpoint } from '../src/moderation/operator.service';

const USAGE = 'usage: npm run admin -- grant|revoke moderator <username> [--reason TEXT]\n       npm run admin -- list moderators';

function who(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown'; // no passwd entry for this uid (a container)
  }
}

type Command = { op: 'grant' | 'revoke'; username: string; reason: string | null } | { op: 'list' };

function parse(args: string[]): Command | null {
  let reason: string | null = null;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--reason') reason = args[++i] ?? null;
    else if (args[i].startsWith('--reason=')) reason = args[i].slice('--reason='.length);
    else rest.push(args[i]);
  }
  if (rest.length === 2 && rest[0] === 'list' && rest[1] === 'moderators') return { op: 'list' };
  if (rest.length === 3 && (rest[0] === 'grant' || rest[0] === 'revoke') && rest[1] === 'moderator' && rest[2])
    return { op: rest[0], username: rest[2], reason };
  return null;
}

function say(cmd: Command & { op: 'grant' | 'revoke' }, r: { username: string; changed: boolean }, via: string): string {
  if (!r.changed) return `${r.username} ${cmd.op === 'grant' ? 'is a moderator already' : 'was not a moderator'}: nothing changed (${via})`;
  return `${r.username} ${cmd.op === 'grant' ? 'is now a moderator' : 'is no longer a moderator'} (logged; ${via})`;
}

/** Through the running service that holds the PGlite folder. */
async function viaService(dataDir: string, cmd: Command, owner: number): Promise<string> {
  const endpoint = readOperatorEndpoint(dataDir);
  if (!endpoint) {
    throw new Error(
      `the data folder ${dataDir} is held by process ${owner}, which published no operator endpoint (${path.join(dataDir, 'operator.json')}): is it this service, listening? Stop it, or retry once it listens`,
    );
  }
  if (cmd.op === 'list') throw new Error('list moderators needs the database: stop the service, or read GET /v1/admin/moderation-log as a moderator');
  const res = await fetch(`${endpoint.url}/v1/operator/roles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [OPERATOR_HEADER]: endpoint.secret },
    body: JSON.stringify({ action: cmd.op, role: 'moderator', username: cmd.username, reason: cmd.reason ?? undefined, operator: who() }),
  }).catch((err: Error) => {
    throw new Error(`cannot reach the service at ${endpoint.url} (pid ${endpoint.pid}): ${err.message}`);
  });
  const body = (await res.json().catch(() => ({}))) as { username?: string; changed?: boolean; code?: string; detail?: string };
  if (res.status !== 200) throw new Error(`the service refused: ${body.code ?? res.status}: ${body.detail ?? ''}`);
  return say(cmd, { username: body.username!, changed: body.changed === true }, `through the running service, pid ${endpoint.pid}`);
}

async function direct(db: Awaited<ReturnType<typeof openDatabase>>, cmd: Command): Promise<string> {
  const store = new ModerationStore(db.prisma);
  if (cmd.op === 'list') {
    const names = await store.holders('moderator');
    return names.length ? names.join('\n') : '(no moderator granted; MODERATORS may name more at start)';
  }
  const accounts = new AccountsStore(db.prisma as unknown as PrismaService);
  const r = await setRole(store, accounts, operatorActor(who()), cmd.op, 'moderator', cmd.username, cmd.reason);
  return say(cmd, r, db.kind === 'pg' ? 'on PostgreSQL' : 'on the embedded database');
}

async function main(): Promise<void> {
  const cmd = parse(process.argv.slice(2));
  if (!cmd) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = appConfig(); // a script: no container, the environment read here
  if (!config.DATABASE_URL && config.DATA_DIR === 'memory') {
    console.error('DATA_DIR=memory: an in-memory database has no operator (set DATABASE_URL or a DATA_DIR folder)');
    process.exit(2);
  }
  let line: string;
  try {
    const db = await openDatabase(databaseOptionsFromEnv(config));
    try {
      line = await direct(db, cmd);
    } finally {
      await db.close();
    }
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    line = await viaService(err.dir, cmd, err.ownerPid);
  }
  console.log(line);
}

main().catch((err: unknown) => {
  const e = err as { code?: string; message?: string };
  console.error(`admin: ${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`);
  process.exit(1);
});
