import type { HclDocument, ParseOptions } from './hclBody';
import { parseHcl } from './hclSyntaxParser';
import type { Range } from './position';

/**
 * A top-level block starts at the beginning of a line in every file `terraform fmt` has seen: the
 * places where a parse can start again after an error that swallowed what followed it (an
 * unclosed `{` takes every block after it into its body).
 */
const BLOCK_START = /^[A-Za-z_][\w-]*(?:[ \t]+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*[ \t]*\{/gm;

/**
 * The document of a text that does not parse, with every top-level block that parses on its own:
 * the text is cut where lines start a block and each piece is parsed alone. The pieces that parse
 * come from one more parse of the text with the others blanked (line breaks kept, so positions
 * stay those of the file); of the pieces that fail, what the first parse recovered within the
 * piece. The errors are those of the whole text, as Terraform reports them. Linear: each piece is
 * parsed twice at most.
 */
export function salvageBlocks(text: string, broken: HclDocument, options: ParseOptions): HclDocument {
  const starts = [...text.matchAll(BLOCK_START)].map((match) => match.index);
  if (starts[0] !== 0) starts.unshift(0);
  if (starts.length < 2) return broken;
  const pieces: string[] = [];
  /** The line spans, [first, next piece's first), of the pieces that do not parse. */
  const failed: [number, number][] = [];
  let line = 0;
  for (let n = 0; n < starts.length; n++) {
    const piece = text.slice(starts[n], starts[n + 1] ?? text.length);
    const lines = piece.split('\n').length - 1;
    if (parseHcl(piece, options).errors.length === 0) pieces.push(piece);
    else {
      pieces.push(piece.replace(/[^\n]/g, ' '));
      failed.push([line, n + 1 < starts.length ? line + lines : Number.POSITIVE_INFINITY]);
    }
    line += lines;
  }
  if (failed.length === 0 || failed.length === starts.length) return broken;
  const withinFailed = (item: { range: Range }) =>
    failed.some(([first, next]) => item.range.start.line >= first && item.range.end.line < next);
  const salvaged = parseHcl(pieces.join(''), options).body;
  const byLine = (a: { range: Range }, b: { range: Range }) => a.range.start.line - b.range.start.line;
  return {
    body: {
      attributes: [...salvaged.attributes, ...broken.body.attributes.filter(withinFailed)].sort(byLine),
      blocks: [...salvaged.blocks, ...broken.body.blocks.filter(withinFailed)].sort(byLine),
    },
    errors: broken.errors,
  };
}
