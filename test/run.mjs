// `npm test`: builds once, then runs the four tiers in order: unit, lsp, webview, vscode.
// Each tier prints its own report and a count; the run ends with one line for all of them:
// `N passed, N failed`. Any failing or unrunnable tier fails the run.
// `node test/run.mjs lsp webview` runs only the named tiers; the full run checks types and lint first.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ALL = ['unit', 'lsp', 'webview', 'vscode'];
const asked = process.argv.slice(2);
const tiers = asked.length ? asked : ALL;
for (const tier of tiers) {
  if (!ALL.includes(tier)) {
    console.error(`unknown tier '${tier}'; tiers are ${ALL.join(', ')}`);
    process.exit(2);
  }
}

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** node's test runner on `test/<tier>/*.test.ts`, TypeScript through tsx. */
async function nodeTier(tier) {
  const files = testFiles(path.join('test', tier));
  if (files.length === 0) return { code: 1, passed: 0, failed: 0, why: `no test files in test/${tier}` };
  const { code, output } = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files]);
  const count = (name) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  return { code, passed: count('pass'), failed: count('fail') + count('cancelled'), skipped: count('skipped') };
}

/** Headless chromium driving the built webview bundle; the browser is installed on first use. */
async function webviewTier() {
  const setup = await run('bash', ['test/harness/setup.sh', 'chromium']);
  if (setup.code !== 0) return { code: 1, passed: 0, failed: 0, why: 'chromium could not be installed (see above)' };
  return nodeTier('webview');
}

/**
 * The mocha suite inside a real VS Code (test/vscode/run.mjs picks desktop VS Code or code-server and
 * installs code-server on first use); its last line is the suite's `N passed, N failed, N skipped`.
 */
async function vscodeTier() {
  const { code, output } = await run(process.execPath, ['test/vscode/run.mjs']);
  const match = [...output.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].at(-1);
  if (!match) return { code: code || 1, passed: 0, failed: 0, why: 'the VS Code suite did not report its results' };
  return { code, passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) };
}

const build = await run(process.execPath, ['esbuild.mjs']);
if (build.code !== 0) {
  console.error('build failed');
  process.exit(1);
}

// A full run also checks types and lint first: what the build (esbuild strips types) lets through.
if (asked.length === 0) {
  const bin = (name) => path.join('node_modules', '.bin', name);
  for (const [label, command, args] of [
    ['types', bin('tsc'), ['-p', '.']],
    ['types (webview)', bin('tsc'), ['-p', 'webview']],
    // Biome's platform packages are optional dependencies that not every registry mirror carries, which
    // breaks `npm ci`; npx installs the one this platform needs.
    ['lint', 'npx', ['--yes', '@biomejs/biome@2.6.8', 'check', '.']],
  ]) {
    const check = await run(command, args);
    if (check.code !== 0) {
      console.error(`static check failed: ${label}`);
      process.exit(1);
    }
    console.log(`static check passed: ${label}`);
  }
}

const runTier = { vscode: vscodeTier, webview: webviewTier };
const results = [];
for (const tier of tiers) {
  console.log(`\n=== ${tier} tier ===`);
  const started = Date.now();
  const result = await (runTier[tier] ?? nodeTier)(tier);
  results.push({ tier, ...result, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== summary ===');
let passed = 0;
let failed = 0;
let ok = true;
for (const r of results) {
  const verdict = r.code === 0 && r.failed === 0 && r.passed > 0 ? 'ok' : 'FAILED';
  if (verdict !== 'ok') ok = false;
  passed += r.passed;
  failed += r.failed;
  console.log(
    `${r.tier.padEnd(8)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${`${r.seconds.toFixed(1)}s`.padStart(7)}  ${verdict}${r.why ? ` (${r.why})` : ''}`,
  );
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
