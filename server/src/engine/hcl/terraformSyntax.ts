import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Range } from './position';

/**
 * Syntax errors with Terraform's own wording and positions, from `@cdktf/hcl2json` (HashiCorp's
 * hcl/v2 compiled to WebAssembly). It takes ~400 ms to start, so it is loaded on first use only,
 * and only files that need exact messages go through it. Never load a second Go-WASM package in
 * the same process: both would claim the global `Go`.
 */
export interface TerraformSyntaxError {
  range: Range;
  /** `Summary; Detail`, as `terraform validate` words it. */
  message: string;
}

type Parse = (filename: string, contents: string) => Promise<unknown>;
let loaded: Parse | undefined;

function load(): Parse {
  // Bundled: its own bundle in dist/hcl2json, kept apart so that it loads only when needed.
  const bundled = path.join(__dirname, 'hcl2json', 'index.js');
  const modulePath = existsSync(bundled) ? bundled : '@cdktf/hcl2json';
  loaded ??= (require(modulePath) as { parse: Parse }).parse;
  return loaded;
}

let started = false;

/**
 * Starts hcl2json in the background: its start (unzipping, compiling and starting the Go runtime)
 * would otherwise fall on the first edit whose syntax it checks. A failure to load is said where it
 * is used, as that file's message.
 */
export function startTerraformSyntax(): void {
  if (started) return;
  started = true;
  // One small parse compiles the parser's code too (WebAssembly is compiled function by function, on first call).
  void terraformSyntaxErrors('start.tf', 'locals {\n  a = b\n}\n');
}

/** The syntax errors of one file; empty when it parses. */
export async function terraformSyntaxErrors(file: string, text: string): Promise<TerraformSyntaxError[]> {
  const name = path.basename(file);
  try {
    await load()(name, text);
    return [];
  } catch (error) {
    return parseErrors(name, error instanceof Error ? error.message : String(error));
  }
}

/**
 * hcl2json reports `parse config: [main.tf:2,5-3,1: Summary; Detail. main.tf:…]`, 1-based
 * line,column pairs. Columns are byte-based in hcl; files with non-ASCII text before an error on
 * the same line may be off by a few characters.
 */
export function parseErrors(name: string, message: string): TerraformSyntaxError[] {
  const body = message.replace(/^parse config: \[/, '').replace(/\]$/, '');
  const marker = new RegExp(`${escapeRegExp(name)}:(\\d+),(\\d+)-(?:(\\d+),)?(\\d+): `, 'g');
  const starts = [...body.matchAll(marker)];
  if (starts.length === 0) return [{ range: point(0, 0), message: body }];
  return starts.map((match, index) => {
    const end = index + 1 < starts.length ? starts[index + 1]!.index : body.length;
    const text = body.slice(match.index + match[0].length, end).trim();
    const line = Number(match[1]) - 1;
    const column = Number(match[2]) - 1;
    const endLine = match[3] === undefined ? line : Number(match[3]) - 1;
    const endColumn = Number(match[4]) - 1;
    return {
      range: { start: { line, character: column }, end: { line: endLine, character: endColumn } },
      message: text,
    };
  });
}

function point(line: number, character: number): Range {
  return { start: { line, character }, end: { line, character } };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
