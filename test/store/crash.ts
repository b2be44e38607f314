/** The crash test, for both databases: SIGKILL a writer mid-stream, then every acknowledged move must be in the log and every chain sound. */
import { spawn } from 'node:child_process';
import type { DatabaseOptions } from '../../src/database/database';
import { openDatabase } from '../../src/database/database';
import { MatchArchive } from '../../src/match-store/match-archive';
import { MatchStore } from '../../src/match-store/match-store';

export async function crashAndCheck(env: Record<string, string>, reopen: DatabaseOptions, acksBeforeKill = 300): Promise<{ acked: number; matches: number }> {
  // node itself with tsx as a loader: the tsx launcher runs the script in a grandchild, which a SIGKILL of the launcher leaves alive.
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/store/crash-child.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = new Map<string, number>();
  let count = 0;
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited early (${code}): ${stderr}`))));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const m = /^ack (\S+) (\d+)$/.exec(line);
        if (!m) continue;
        acked.set(m[1], Math.max(acked.get(m[1]) ?? 0, Number(m[2])));
        if (++count === acksBeforeKill) child.kill('SIGKILL');
      }
    });
  });
  // A statement in flight when the client died may still commit on the server (unacknowledged, so allowed): let it settle.
  await new Promise((r) => setTimeout(r, 1000));
  child.stdout.destroy();
  child.stderr.destroy();
  const db = await openDatabase(reopen);
  try {
    const store = new MatchStore(db.prisma);
    for (const [matchId, seq] of acked) {
      const summary = await store.get(matchId);
      expect(summary.currentSeq).toBeGreaterThanOrEqual(seq);
      const events = await store.eventsFrom(matchId, 1, 100_000);
      expect(events.length).toBe(summary.currentSeq);
      const verdict = await new MatchArchive(db.prisma).verify(matchId);
      if (!verdict.sound) throw new Error(`match ${matchId}: ${verdict.reason} at ${verdict.seq}`);
    }
    return { acked: count, matches: acked.size };
  } finally {
    await db.close();
  }
}
