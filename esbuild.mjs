// One build for every bundle: the extension client, the language server, the CLI, the graph webview,
// and the vscode-tier test suites. `--watch` rebuilds on change; `--production` minifies.
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
};

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  // The extension's entry, which forks the server before it loads the client's bundle (`client/src/main.ts`).
  {
    ...common,
    entryPoints: { main: 'client/src/main.ts' },
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { client: 'client/src/extension.ts' },
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { languageServer: 'server/src/languageServer/server.ts' },
    platform: 'node',
    format: 'cjs',
    outdir: 'dist',
  },
  // The server's entry: the bundle above loaded with its code cache; the layout thread's, for the thread's bundle.
  {
    ...common,
    entryPoints: { server: 'server/src/languageServer/main.ts', codeCache: 'server/src/codeCache.ts' },
    platform: 'node',
    format: 'cjs',
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { 'hcl2json/index': '@cdktf/hcl2json' },
    platform: 'node',
    // Only required where globalThis.performance is missing; Node has it.
    external: ['performance'],
    format: 'cjs',
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { cli: 'server/src/cli/cli.ts' },
    platform: 'node',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    outdir: 'dist',
  },
  // The graph panel: its script, the layout worker (also loadable as a page script), its stylesheet.
  {
    ...common,
    entryPoints: { webview: 'webview/src/main.ts' },
    platform: 'browser',
    format: 'iife',
    // The codicons' SVG files, as markup in the script (`codicons.ts`).
    loader: { '.svg': 'text' },
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { layoutWorker: 'webview/src/layoutWorker.ts' },
    platform: 'browser',
    format: 'iife',
    // elkjs asks for it only when told to start a worker of its own, which the layout worker never does.
    external: ['web-worker'],
    outdir: 'dist',
  },
  // The same layouts in the extension host, in a worker thread of its own (client/src/layoutService.ts).
  {
    ...common,
    entryPoints: { layoutThread: 'client/src/layoutThread.ts' },
    platform: 'node',
    format: 'cjs',
    external: ['web-worker'],
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { webview: 'webview/src/graph.css' },
    outdir: 'dist',
  },
  {
    ...common,
    sourcemap: 'inline',
    minify: false,
    entryPoints: {
      'test/vscode/index': 'test/vscode/suite/index.ts',
      'test/vscode/vsix': 'test/vscode/vsix/index.ts',
      'test/vscode/example': 'test/vscode/example/index.ts',
      'test/vscode/realShape': 'test/vscode/realShape/index.ts',
      'test/vscode/restricted': 'test/vscode/restricted/index.ts',
      'test/vscode/shares': 'test/vscode/shares/index.ts',
    },
    platform: 'node',
    format: 'cjs',
    external: ['vscode', 'mocha'],
    outdir: 'dist',
  },
];

// The parser's WebAssembly files are loaded next to dist/server.js at run time.
async function copyAssets() {
  await mkdir('dist', { recursive: true });
  // hcl2json reads its WebAssembly from `<its folder>/../main.wasm.gz`: bundled as dist/hcl2json/index.js,
  // that is dist/main.wasm.gz. It is loaded on first use only (see terraformSyntax.ts).
  await copyFile(
    path.join(path.dirname(require.resolve('@cdktf/hcl2json/package.json')), 'main.wasm.gz'),
    'dist/main.wasm.gz',
  );
}

await copyAssets();
if (watch) {
  const contexts = await Promise.all(bundles.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching client, server, cli, webview and tests');
} else {
  await Promise.all(bundles.map((options) => esbuild.build(options)));
}
