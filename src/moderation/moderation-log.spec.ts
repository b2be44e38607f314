import { generateKeyPairSync } from 'node:crypto';
import { publicJwkOf } from '../match-formats/export';
import { chainStream, streamLine } from '../stream-store/stream-store';
import { MODERATION_LOG_ID, MODERATION_STREAM, auditModerationLog, verifyModerationSignature, writeModerationExport } from './moderation-log';
import type { ModerationEvent, ModerationLine } from './moderation-log';

const events: ModerationEvent[] = [
  { type: 'moderatorGranted', target: 'mia', reason: null },
  { type: 'userMuted', target: 'bob', reason: 'flood', until: '2027-01-01T00:00:00.000Z' },
  { type: 'userBanned', target: 'carl', reason: 'cheating' },
];

function log(list: ModerationEvent[] = events): ModerationLine[] {
  let after: { seq: number; hash: string } | null = null;
  const out: ModerationLine[] = [];
  for (const [i, e] of list.entries()) {
    const [c] = chainStream(
      MODERATION_STREAM,
      MODERATION_LOG_ID,
      after,
      [e],
      i === 0 ? 'operator:root' : 'mia',
      new Date(Date.UTC(2026, 11, 3, 12, i)).toISOString(),
    );
    out.push(streamLine(MODERATION_STREAM, MODERATION_LOG_ID, { ...c, time: c.time! }) as ModerationLine);
    after = { seq: c.seq, hash: c.hash };
  }
  return out;
}

describe('the moderation log export and its audit', () => {
  it('an export as written audits sound; its header counts the events and names the last hash', () => {
    const text = writeModerationExport(log());
    const header = JSON.parse(text.split('\n')[0]);
    expect(header).toMatchObject({ format: 'scopa-moderation-log/1', logId: MODERATION_LOG_ID, events: 3 });
    expect(auditModerationLog(text)).toMatchObject({ events: 3, problems: [] });
    expect(auditModerationLog(writeModerationExport([])).problems).toEqual([]);
  });

  it('finds an altered event, a removed one, a reordered pair, a dropped last line and a badly shaped one', () => {
    const lines = log();
    const text = (ls: unknown[], header = true) =>
      (header ? writeModerationExport(lines).split('\n')[0] + '\n' : '') + ls.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const altered = lines.map((l, i) => (i === 2 ? { ...l, payload: { ...l.payload, reason: 'nothing' } } : l));
    expect(auditModerationLog(text(altered)).problems).toEqual(["seq 3 (userBanned): hash does not match the event's content or time (altered event)"]);
    const otherTime = lines.map((l, i) => (i === 1 ? { ...l, time: '2026-12-03T13:00:00.000Z' } : l));
    expect(auditModerationLog(text(otherTime)).problems[0]).toMatch(/^seq 2 \(userMuted\): hash does not match/);
    expect(auditModerationLog(text([lines[0], lines[2]])).problems.join('; ')).toMatch(/expected seq 2/);
    expect(auditModerationLog(text([lines[1], lines[0], lines[2]])).problems.join('; ')).toMatch(/prevHash does not link/);
    expect(auditModerationLog(text(lines.slice(0, 2))).problems).toEqual([
      'header: 3 events, the export holds 2',
      'header: lastHash is not the hash of the last event',
    ]);
    expect(auditModerationLog(text(lines, false)).problems).toContain('no header line (format scopa-moderation-log/1)');
    // a line re-hashed to hide a missing reason field still fails its shape
    const unshaped = log([{ type: 'userMuted', target: 'bob', reason: 'x' } as ModerationEvent]);
    expect(auditModerationLog(writeModerationExport(unshaped)).problems).toEqual(['seq 1 (userMuted): a mute without its end']);
  });

  it('signs the header with an export key: a log rewritten and re-chained whole no longer verifies', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const jwk = publicJwkOf(privateKey);
    const signer = { issuer: 'https://scopa.example', keyId: jwk.kid, privateKey };
    const text = writeModerationExport(log(), signer);
    const header = JSON.parse(text.split('\n')[0]);
    expect(verifyModerationSignature(header, { keys: [jwk] }).status).toBe('valid');
    const rewritten = writeModerationExport(log(events.map((e) => ({ ...e, reason: 'rewritten' }))));
    const forged = { ...JSON.parse(rewritten.split('\n')[0]), issuer: header.issuer, keyId: header.keyId, signature: header.signature };
    expect(auditModerationLog(rewritten).problems).toEqual([]);
    expect(verifyModerationSignature(forged, { keys: [jwk] }).status).toBe('invalid');
  });
});
