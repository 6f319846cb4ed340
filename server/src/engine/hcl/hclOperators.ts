import { Token, type TokenKind } from './hclToken';

/** Binary operators by token kind: precedence (HCL's, 1 = `||` … 6 = `* / %`), 0 for other tokens. */
export const PRECEDENCE = new Uint8Array(64);
export const OPERATOR: Record<number, BinaryOp> = {};
type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';
const OPERATOR_TABLE: [TokenKind, BinaryOp, number][] = [
  [Token.Star, '*', 6],
  [Token.Slash, '/', 6],
  [Token.Percent, '%', 6],
  [Token.Plus, '+', 5],
  [Token.Minus, '-', 5],
  [Token.Greater, '>', 4],
  [Token.GreaterEqual, '>=', 4],
  [Token.Less, '<', 4],
  [Token.LessEqual, '<=', 4],
  [Token.Equal, '==', 3],
  [Token.NotEqual, '!=', 3],
  [Token.And, '&&', 2],
  [Token.Or, '||', 1],
];
for (const [kind, op, precedence] of OPERATOR_TABLE) {
  PRECEDENCE[kind] = precedence;
  OPERATOR[kind] = op;
}
