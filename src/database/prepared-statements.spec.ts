import { prepared, preparedStatementName, sqlNumber } from './prepared-statements';

describe('prepared statements', () => {
  it('names each registered text once, and no other text', () => {
    const a = prepared('SELECT 1 AS prepared_spec_a');
    const b = prepared('SELECT 2 AS prepared_spec_b');
    expect(a).toBe('SELECT 1 AS prepared_spec_a');
    expect(preparedStatementName(a)).toMatch(/^scopa_stmt_\d+$/);
    expect(preparedStatementName(b)).not.toBe(preparedStatementName(a));
    prepared('SELECT 1 AS prepared_spec_a');
    expect(preparedStatementName(a)).toBe(preparedStatementName('SELECT 1 AS prepared_spec_a'));
    // a text that was never registered stays an unnamed, one-off statement
    expect(preparedStatementName('SELECT 3 AS prepared_spec_c')).toBeUndefined();
  });

  it('writes configuration numbers as numeric literals, and refuses anything else', () => {
    expect(sqlNumber(20)).toBe('20');
    expect(sqlNumber(0)).toBe('0');
    expect(sqlNumber(0.1)).toBe('0.1');
    expect(sqlNumber(30_000 / 1000)).toBe('30');
    for (const bad of [NaN, Infinity, -Infinity, -1, -0.5]) expect(() => sqlNumber(bad)).toThrow(RangeError);
    // a string smuggled past the type cannot reach the text
    expect(() => sqlNumber('1; DROP TABLE matches' as unknown as number)).toThrow(RangeError);
  });
});
