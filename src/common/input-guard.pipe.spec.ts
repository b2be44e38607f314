import { DomainError } from './domain-error';
import { InputGuardPipe, MAX_INPUT_DEPTH } from './input-guard.pipe';

const pipe = new InputGuardPipe();
const body = { type: 'body' as const };
const refusal = (value: unknown): string => {
  try {
    pipe.transform(value, body);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('VALIDATION_FAILED');
    return (err as DomainError).message;
  }
  throw new Error('accepted');
};

describe('InputGuardPipe', () => {
  it('passes sound input through as it is', () => {
    const value = { card: 'SC7', capture: ['DN7'], nested: [{ a: [1, null, true] }] };
    expect(pipe.transform(value, body)).toBe(value);
  });

  it('names where a NUL character is', () => {
    expect(refusal('x\u0000')).toBe('input: contains a NUL character');
    expect(refusal({ name: 'a\u0000' })).toBe('name: contains a NUL character');
    expect(refusal({ seats: [{ type: 'open' }, { username: '\u0000' }] })).toBe('seats[1].username: contains a NUL character');
    expect(refusal([['ok', 'n\u0000']])).toBe('[0][1]: contains a NUL character');
    expect(refusal({ overrides: { 'k\u0000': 1 } })).toBe('overrides: a key contains a NUL character');
    expect(refusal({ 'k\u0000': 1 })).toBe('input: a key contains a NUL character');
  });

  it('refuses nesting deeper than the bound, naming where', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i <= MAX_INPUT_DEPTH; i++) deep = { d: deep };
    expect(refusal(deep)).toBe(
      `${Array.from({ length: MAX_INPUT_DEPTH }, (_, i) => (i === 0 ? 'd' : '.d')).join('')}: nested deeper than ${MAX_INPUT_DEPTH} levels`,
    );
  });

  it('leaves what is not client input alone', () => {
    expect(pipe.transform({ x: '\u0000' }, { type: 'custom' })).toEqual({ x: '\u0000' });
  });
});
