/**
 * One mechanism for background work (docs/operations.md "Background work"):
 * the periodic tasks are ./scheduler.ts's, the work with a lasting effect is
 * the job queue's (./job-queue.ts, pg-boss). So no other source file of src/
 * starts a repeating timer, brings back the hand-written Poller, or claims
 * rows with queue SQL of its own (SKIP LOCKED, lease or claim columns)
 * outside src/jobs. The exceptions are listed with their reason; one that no
 * longer holds its pattern fails too, so the list stays true.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sources, withoutComments } from '../../test/support/sources';

const SRC = join(process.cwd(), 'src');

interface Rule {
  what: string;
  pattern: RegExp;
  /** Where it belongs (the one mechanism itself). */
  home: (file: string) => boolean;
  /** Files allowed besides, each with why. */
  exceptions: Record<string, string>;
}

const RULES: Rule[] = [
  {
    what: 'a repeating timer (setInterval)',
    pattern: /\bsetInterval\b/,
    home: (file) => file === 'jobs/scheduler.ts',
    exceptions: {
      'common/ndjson.ts': "a live stream's own keep-alive line, for as long as that one connection is open",
    },
  },
  {
    what: 'a Poller',
    pattern: /\bPoller\b/,
    home: () => false,
    exceptions: {},
  },
  {
    what: 'claim or lease SQL (SKIP LOCKED, lease or claim columns)',
    pattern: /\bSKIP\s+LOCKED\b|\b(?:claimed_until|claimed_by|leased?_until|lease_expires(?:_at)?|locked_until|locked_by)\b/i,
    home: (file) => file.startsWith('jobs/'),
    exceptions: {
      'challenges/challenges-store.ts':
        "a row lock in the answering user's own transaction: of answers racing for one challenge, one wins and the others are refused at once (not a queue)",
      'matches/rematches-store.ts': "a row lock in the accepting user's own transaction: of acceptances racing for one rematch offer, one wins (not a queue)",
    },
  },
];

const files = sources(SRC).map((path) => ({ file: relative(SRC, path).split('\\').join('/'), text: withoutComments(readFileSync(path, 'utf8')) }));

it('reads the whole tree, the one scheduler included', () => {
  expect(files.length).toBeGreaterThan(80);
  expect(files.find((f) => f.file === 'jobs/scheduler.ts')?.text).toMatch(RULES[0].pattern);
});

describe.each(RULES)('$what', (rule) => {
  it('is found nowhere else in src/', () => {
    const offending = files.filter((f) => rule.pattern.test(f.text) && !rule.home(f.file) && !(f.file in rule.exceptions)).map((f) => f.file);
    expect(offending).toEqual([]);
  });

  it('every exception still holds it (else it leaves the list)', () => {
    const stale = Object.keys(rule.exceptions).filter((file) => !files.some((f) => f.file === file && rule.pattern.test(f.text)));
    expect(stale).toEqual([]);
  });
});
