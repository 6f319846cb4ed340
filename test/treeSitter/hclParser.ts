import path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/**
 * The tree-sitter HCL parser, loaded once per process: the tests' reference for the hand-written
 * parser (`hclSyntaxParser.ts`), which the analysis uses. Not bundled: its WebAssembly comes from
 * the repository's node_modules.
 */
let loading: Promise<Parser> | undefined;

const WASM_FILES = {
  runtime: 'web-tree-sitter.wasm',
  hcl: 'tree-sitter-hcl.wasm',
} as const;

/** The package of each WebAssembly file, under the repository's node_modules. */
const SOURCE_LOCATIONS: Record<string, string> = {
  [WASM_FILES.runtime]: 'web-tree-sitter',
  [WASM_FILES.hcl]: '@tree-sitter-grammars/tree-sitter-hcl',
};

function locateWasm(name: string): string {
  return path.join(__dirname, '../../node_modules', SOURCE_LOCATIONS[name] ?? '', name);
}

async function load(): Promise<Parser> {
  await Parser.init({ locateFile: (name: string) => locateWasm(name) });
  const language = await Language.load(locateWasm(WASM_FILES.hcl));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** The shared parser. Parsing is synchronous once it is loaded. */
export function hclParser(): Promise<Parser> {
  loading ??= load();
  return loading;
}

/**
 * Parses `text` and hands the tree to `use`, then frees the tree: WASM memory is not returned to
 * the system, so trees must not outlive the extraction that needs them.
 */
export function withTree<T>(parser: Parser, text: string, use: (tree: Tree) => T): T {
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
