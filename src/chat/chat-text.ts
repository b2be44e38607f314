/**
 * What a chat message may say: plain text, trimmed, 1 to CHAT_TEXT_MAX
 * characters (code points), no control characters (C0, C1, the line and
 * paragraph separators, the bidirectional overrides and isolates that make
 * text read otherwise than it is stored). Nothing is interpreted: `<b>` is
 * four characters, stored and returned as sent. The word filter is npm
 * `obscenity` with its English dataset and recommended transformers (which
 * see through l33t, accents and repeated letters), for the room kinds CHAT_WORD_FILTER names.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { DomainError } from '../common/domain-error';

export const CHAT_TEXT_MAX = 500;

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/u;

/** The message as stored: trimmed; VALIDATION_FAILED for anything that is not 1 to 500 characters of plain text. */
export function chatText(input: unknown): string {
  if (typeof input !== 'string') throw new DomainError('VALIDATION_FAILED', 'text: a string');
  const text = input.trim();
  if (text.length === 0) throw new DomainError('VALIDATION_FAILED', 'text: 1 to 500 characters, not only spaces', { reason: 'empty' });
  if ([...text].length > CHAT_TEXT_MAX)
    throw new DomainError('VALIDATION_FAILED', `text: at most ${CHAT_TEXT_MAX} characters`, { reason: 'tooLong', limit: CHAT_TEXT_MAX });
  if (FORBIDDEN.test(text))
    throw new DomainError('VALIDATION_FAILED', 'text: plain text, without control characters (one line)', { reason: 'controlCharacters' });
  return text;
}

let matcher: RegExpMatcher | null = null;

/** Whether the word filter finds a word of its dataset in the text. */
export function offensive(text: string): boolean {
  matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return matcher.hasMatch(text);
}
