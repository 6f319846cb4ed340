// The vscode tier: the mocha suite of test/vscode/suite (built to dist/test/vscode/index.js) run inside a
// real VS Code extension host, with this repository as the extension under development and a copy of
// test/vscode/workspace as the open folder.
//
// Runners (TERRACE_VSCODE_RUNNER):
//   electron     desktop VS Code through @vscode/test-electron (needs a download or a cached build)
//   code-server  code-server from npm, driven by headless chromium; works offline
//   (unset)      electron when VS Code is cached or can be downloaded, else code-server
// Other settings: TERRACE_VSCODE_TIMEOUT_MS (default 180000), TERRACE_VSCODE_GREP (run matching tests only),
// TERRACE_VSCODE_VERBOSE=1 (all workbench logs), TERRACE_KEEP_TMP=1 (keep the scratch directory).
//
// Prints the suite's `N passed, N failed, N skipped` as its last line; the exit code is the suite's.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../harness/cache.mjs';
import { runWithCodeServer } from './codeServerRunner.mjs';
import { electronAvailability, runWithElectron } from './electronRunner.mjs';

const started = Date.now();
const extensionTestsPath = path.join(repoRoot, 'dist', 'test', 'vscode', 'index.js');
if (!existsSync(extensionTestsPath) || !existsSync(path.join(repoRoot, 'dist', 'client.js'))) {
  console.error('vscode tier: build first (npm run build): dist/client.js or dist/test/vscode/index.js is missing');
  process.exit(1);
}

async function chooseRunner() {
  const asked = process.env.TERRACE_VSCODE_RUNNER;
  if (asked === 'electron' || asked === 'code-server') return { runner: asked, why: 'TERRACE_VSCODE_RUNNER' };
  if (asked) {
    console.error(`vscode tier: unknown TERRACE_VSCODE_RUNNER '${asked}' (electron or code-server)`);
    process.exit(2);
  }
  const electron = await electronAvailability();
  return electron.ok ? { runner: 'electron', why: electron.why } : { runner: 'code-server', why: electron.why };
}

const { runner, why } = await chooseRunner();
console.log(`vscode tier: ${runner} runner (${why})`);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'terrace-vscode-'));
// A copy, so that what the extension writes (pipelines, plans) never lands in the repository.
const workspace = path.join(tmp, 'workspace');
cpSync(path.join(repoRoot, 'test', 'vscode', 'workspace'), workspace, { recursive: true });
const resultsFile = path.join(tmp, 'results.json');
const env = { TERRACE_VSCODE_RESULTS: resultsFile };
if (process.env.TERRACE_VSCODE_GREP) env.TERRACE_VSCODE_GREP = process.env.TERRACE_VSCODE_GREP;

const options = {
  extensionDevelopmentPath: repoRoot,
  extensionTestsPath,
  workspace,
  env,
  tmp,
  timeoutMs: Number(process.env.TERRACE_VSCODE_TIMEOUT_MS ?? 180_000),
  screenshotOnFailure: path.join(repoRoot, 'test-results', 'vscode', 'workbench-on-failure.png'),
};
let code;
try {
  code = runner === 'electron' ? await runWithElectron(options) : await runWithCodeServer(options);
} catch (error) {
  console.error('vscode tier:', error);
  code = 1;
}

let results;
try {
  results = JSON.parse(readFileSync(resultsFile, 'utf8'));
} catch {
  results = undefined;
}
// Kept when asked, or for a look at the logs when the suite did not report.
if (process.env.TERRACE_KEEP_TMP || !results) console.log(`vscode tier: kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (!results) {
  console.error(`vscode tier: the suite did not report results (exit code ${code}, ${seconds}s)`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(code || 1);
}
for (const failure of results.failures) console.error(`FAILED: ${failure.title}\n  ${failure.error}`);
console.log(`vscode tier: ${runner} runner, exit code ${code}, ${seconds}s`);
console.log(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(code !== 0 ? code : results.failed > 0 || results.passed === 0 ? 1 : 0);
