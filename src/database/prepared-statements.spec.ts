import { prepared, preparedStatementName } from './prepared-statements';

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
});
