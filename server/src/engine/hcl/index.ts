/** The HCL language: lexer, parser, the document and expression trees, positions; .tf.json read as the same document; the hcl2json syntax check. */

export { salvageBlocks } from './blockSalvage';
export type {
  BinaryExpr,
  CallExpr,
  ConditionalExpr,
  Expr,
  ForExpr,
  ObjectExpr,
  TemplateExpr,
  TemplatePart,
  TraversalExpr,
  TraversalStep,
  UnaryExpr,
} from './expression';
export { forEachSubexpression, keyName } from './expression';
export type { HclAttribute, HclBlock, HclBody, HclDocument, HclSyntaxError, ParseOptions } from './hclBody';
export { expressionFromNode, type SourceText } from './hclExpression';
export { decodeQuoted } from './hclLiterals';
export { parseHcl } from './hclSyntaxParser';
export { findLine, lineStarts } from './lineIndex';
export type { Location, Position, Range } from './position';
export { FILE_START, plainRange, TextRange } from './position';
export { snapshotSyntax } from './syntaxSnapshot';
export { startTerraformSyntax, type TerraformSyntaxError, terraformSyntaxErrors } from './terraformSyntax';
export { tfJsonDocument } from './tfJsonDocument';
