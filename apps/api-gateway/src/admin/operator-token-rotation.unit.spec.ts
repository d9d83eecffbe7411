import { assertOperator } from './admin-auth';

/** The operator token's rotation (docs/operations.md#rotate-the-operator-token). */
describe('the operator token during a rotation', () => {
  const oldToken = 'o'.repeat(40);
  const newToken = 'n'.repeat(40);
  const bearer = (token: string) => `Bearer ${token}`;

  it('accepts only OPERATOR_TOKEN when no previous token is set', () => {
    const config = { operatorToken: newToken, operatorTokenPrevious: undefined };
    expect(() => assertOperator(bearer(newToken), config)).not.toThrow();
    expect(() => assertOperator(bearer(oldToken), config)).toThrow(/operator/);
  });

  it('accepts both tokens while OPERATOR_TOKEN_PREVIOUS is set, and nothing else', () => {
    const config = { operatorToken: newToken, operatorTokenPrevious: oldToken };
    expect(() => assertOperator(bearer(newToken), config)).not.toThrow();
    expect(() => assertOperator(bearer(oldToken), config)).not.toThrow();
    expect(() => assertOperator(bearer('x'.repeat(40)), config)).toThrow(/operator/);
    expect(() => assertOperator(undefined, config)).toThrow(/operator/);
  });

  it('refuses everyone, the previous token too, when OPERATOR_TOKEN is unset', () => {
    const config = { operatorToken: undefined, operatorTokenPrevious: oldToken };
    expect(() => assertOperator(bearer(oldToken), config)).toThrow(/operator/);
  });
});
