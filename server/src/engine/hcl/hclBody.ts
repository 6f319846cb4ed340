import type { Expr } from './expression';
import type { Range } from './position';

/**
 * One HCL file as the engine keeps it after parsing: blocks and attributes with their ranges and
 * expressions, independent of tree-sitter (whose trees are freed right after extraction).
 */
export interface HclBody {
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

export interface HclAttribute {
  name: string;
  expr: Expr;
  /**
   * The expression converted afresh and not kept (`.tf.json`, whose attributes convert when first read):
   * for a walk over every attribute of a file that keeps little of what it reads (a generated file's
   * hundreds of thousands of locals would otherwise all stay converted).
   */
  transientExpr?(): Expr;
  /** The whole `name = expr`. */
  range: Range;
  nameRange: Range;
}

export interface HclBlock {
  /** `data`, `terraform`, `backend`, `locals`, `config`, … */
  type: string;
  /** Label values without quotes: `["terraform_remote_state", "vpc"]`. */
  labels: string[];
  /** The whole block, header to closing brace. */
  range: Range;
  /** The header: type and labels, up to the opening brace. */
  headerRange: Range;
  labelRanges: Range[];
  /** Absent when the caller's filter skipped this block's contents. */
  body: HclBody | undefined;
  /**
   * In a skipped body, with `watchRoots`: the expressions that start at one of those roots
   * (`data.terraform_remote_state.vpc.outputs.id`, `lookup(…)`), built though nothing else is.
   */
  references?: Expr[];
}

/** A syntax error as tree-sitter sees it (ERROR/MISSING nodes); exact messages come from hcl2json. */
export interface HclSyntaxError {
  range: Range;
  message: string;
}

export interface HclDocument {
  body: HclBody;
  errors: HclSyntaxError[];
}

/** What a parser keeps. */
export interface ParseOptions {
  /**
   * Whether to convert a block's contents. `depth` is 0 for top-level blocks. Skipping big,
   * irrelevant blocks (resources) saves most of the conversion time.
   */
  keepBody?: (type: string, labels: string[], depth: number) => boolean;
  /**
   * Variable roots and functions (`data`, `local`, `lookup`) whose expressions are built even in a
   * skipped body, as the block's `references`: a file's reads of other states found without building
   * its resources.
   */
  watchRoots?: ReadonlySet<string>;
}
