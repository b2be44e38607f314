/**
 * Offline audit of an exported match (no database):
 *   npm run audit -- match.jsonl [more files...]   JSON Lines export
 *   npm run audit -- match.scopa                   the notation
 * Checks the hash chain, the seed against its commitment and re-decides every
 * command through the engine. Exit 0 if every file is sound, 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import { auditJsonl } from '../src/events/export';
import { auditNotation } from '../src/events/notation';

export function auditText(text: string): { sound: boolean; line: string } {
  const first = text.trimStart()[0];
  if (first === '{') {
    const v = auditJsonl(text);
    return v.sound
      ? { sound: true, line: `sound: match ${v.matchId}, ${v.events} events, chain head ${v.lastHash}, result ${JSON.stringify(v.result)}` }
      : { sound: false, line: `UNSOUND: match ${v.matchId ?? '?'}${v.seq !== null ? ` at seq ${v.seq}` : ''}: ${v.reason}` };
  }
  const v = auditNotation(text);
  return v.sound
    ? { sound: true, line: `sound: notation, ${v.plies} plies, result ${v.result}` }
    : { sound: false, line: `UNSOUND: notation${v.ply !== null ? ` at ply ${v.ply} (${v.token})` : ''}: ${v.reason}` };
}

function main(): void {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: npm run audit -- FILE [FILE...]   (a JSON Lines export or a notation file)');
    process.exit(2);
  }
  let ok = true;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      console.log(`${file}: UNREADABLE: ${(err as Error).message}`);
      ok = false;
      continue;
    }
    const r = auditText(text);
    console.log(`${file}: ${r.line}`);
    ok &&= r.sound;
  }
  process.exit(ok ? 0 : 1);
}

main();
