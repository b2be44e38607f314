import { DomainError } from '../common/domain-error';
import { chatText, offensive } from './chat-text';
import { directRoom, matchRoom, roomKey, roomOfKey, roomView } from './chat-room';

const refusal = (input: unknown): unknown => {
  try {
    chatText(input);
    return null;
  } catch (err) {
    return err instanceof DomainError ? [err.code, err.details.reason] : err;
  }
};

describe('chat text', () => {
  it('is kept as sent, trimmed: markup is text', () => {
    expect(chatText('  <img src=x onerror=alert(1)>  ')).toBe('<img src=x onerror=alert(1)>');
    expect(chatText('**bold** &amp; <b>')).toBe('**bold** &amp; <b>');
    expect(chatText('è'.repeat(500))).toHaveLength(500);
    expect(chatText('🂡'.repeat(500))).toHaveLength(1000); // 500 code points, 1000 UTF-16 units
  });

  it('refuses what is not 1 to 500 characters of one line of plain text', () => {
    expect(refusal('')).toEqual(['VALIDATION_FAILED', 'empty']);
    expect(refusal(' \t ')).toEqual(['VALIDATION_FAILED', 'empty']);
    expect(refusal('a'.repeat(501))).toEqual(['VALIDATION_FAILED', 'tooLong']);
    for (const bad of ['a\nb', 'a\rb', 'a\u0000b', 'bell\u0007', 'a\u0085b', 'a\u2028b', 'rtl\u202Eo', 'iso\u2066x', 'b\uFEFFom']) {
      expect([JSON.stringify(bad), refusal(bad)]).toEqual([JSON.stringify(bad), ['VALIDATION_FAILED', 'controlCharacters']]);
    }
    expect(refusal(42)).toEqual(['VALIDATION_FAILED', undefined]);
  });

  it('the word filter (obscenity) finds its words, and lets ordinary table talk through', () => {
    expect(offensive('you are a fucking idiot')).toBe(true);
    for (const bad of ['FUCK', 'fuuuuck', 'fûck', 'sh1t']) expect([bad, offensive(bad)]).toEqual([bad, true]);
    for (const ok of [
      'buona fortuna',
      'bella presa, settebello!',
      'good game, well played',
      'scopa!',
      'the primiera is mine',
      'classic',
      'Scunthorpe',
      'cocktail',
    ])
      expect([ok, offensive(ok)]).toEqual([ok, false]);
  });
});

describe('chat rooms', () => {
  it('one key per room, read back as the same room', () => {
    const id = '0b9a1c3e-1111-4222-8333-944445555666';
    expect(roomKey(matchRoom(id, undefined))).toBe(`match:${id}:players`);
    expect(roomKey(matchRoom(id, 'spectators'))).toBe(`match:${id}:spectators`);
    expect(roomKey(directRoom('Bob', 'ann'))).toBe('direct:ann:bob');
    expect(roomKey(directRoom('ann', 'bob'))).toBe(roomKey(directRoom('bob', 'ann')));
    for (const r of [matchRoom(id, 'players'), matchRoom(id, 'spectators'), directRoom('a', 'b'), { kind: 'lobby' as const }])
      expect(roomOfKey(roomKey(r))).toEqual(r);
    expect(roomView(directRoom('b', 'a'))).toEqual({ kind: 'direct', id: null, matchRoom: null, participants: ['a', 'b'] });
  });

  it('a match room is players or spectators, nothing else', () => {
    expect(() => matchRoom('0b9a1c3e-1111-4222-8333-944445555666', 'partners')).toThrow(DomainError);
    expect(() => matchRoom('not-a-match', 'players')).toThrow(DomainError);
  });
});
