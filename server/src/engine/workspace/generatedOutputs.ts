import { lineStarts, parseHcl, type Range } from '../hcl';
import type { TerragruntFile } from '../terragrunt';
import { type OutputDecl, outputDeclarations } from './outputFacts';

/**
 * An `output` block that a unit's `generate` block writes into its code: declared by the unit as much as
 * those of its code. Its name is the one the evaluated contents give; where it is written, the block's.
 */
export interface GeneratedOutput {
  name: string;
  description: string | undefined;
  sensitive: boolean;
  /** The configuration file of the `generate` block, its label and its range. */
  file: string;
  block: string;
  range: Range;
}

/** The `output` blocks of a `generate` block's contents as written, placed in its configuration file. */
export interface GenerateOutputs {
  block: string;
  outputs: OutputDecl[];
}

/**
 * The `output` blocks of each `generate` block whose contents are a heredoc, placed where they are written:
 * the heredoc's lines parsed as HCL at their own lines (an interpolation in them is parsed as the HCL it
 * is, and only a block whose name is literal is found).
 */
export function generateOutputDeclarations(text: string, facts: TerragruntFile): GenerateOutputs[] {
  if (facts.generates.length === 0 || !/\boutput\s/.test(text)) return [];
  let starts: number[] | undefined;
  const found: GenerateOutputs[] = [];
  for (const generate of facts.generates) {
    const contents = generate.contents;
    if (contents?.kind !== 'literal' && contents?.kind !== 'template') continue;
    starts ??= lineStarts(text);
    const { start, end } = contents.range;
    const at = starts[start.line]! + start.character;
    if (!text.startsWith('<<', at) || end.line <= start.line + 1) continue;
    // Blank lines before the heredoc's first line: each block keeps its line and column in the file.
    const lines = text.slice(starts[start.line + 1], starts[end.line]);
    const outputs = outputDeclarations(parseHcl(`${'\n'.repeat(start.line + 1)}${lines}`).body);
    if (outputs.length > 0) found.push({ block: generate.name, outputs });
  }
  return found;
}
